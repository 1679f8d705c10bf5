//===- Gather.cpp - Reference kernels that index by value -----------------===//
//
// take, one_hot and scatter_add address elements through an index tensor.
// take and scatter_add clamp an out-of-range index to the nearest row;
// one_hot gives a row of zeros for it.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Kernels.h"

#include "Utils.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir::ens;
using namespace mlir::ens::ref::detail;
using llvm::ArrayRef;
using llvm::SmallVector;

HostTensor ref::take(const HostTensor &table, const HostTensor &indices,
                     int64_t axis) {
  int64_t rank = indices.getRank();
  SmallVector<int64_t, 4> shape(table.shape.begin(),
                                table.shape.begin() + axis);
  shape.append(indices.shape.begin(), indices.shape.end());
  shape.append(table.shape.begin() + axis + 1, table.shape.end());
  HostTensor result(table.dtype, shape);
  SmallVector<int64_t, 4> tableStrides = getRowMajorStrides(table.shape);
  SmallVector<int64_t, 4> indexStrides = getRowMajorStrides(indices.shape);
  SmallVector<int64_t, 4> source(table.shape.size());
  forEachIndex(shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    ArrayRef<int64_t> position = index.slice(axis, rank);
    int64_t row =
        static_cast<int64_t>(indices.values[linearize(position, indexStrides)]);
    row = std::clamp<int64_t>(row, 0, table.shape[axis] - 1);
    for (int64_t d = 0; d < axis; ++d)
      source[d] = index[d];
    source[axis] = row;
    for (size_t d = axis + 1; d < source.size(); ++d)
      source[d] = index[d - 1 + rank];
    result.values[linear] = table.values[linearize(source, tableStrides)];
  });
  return result;
}

HostTensor ref::oneHot(const HostTensor &indices, int64_t depth, DType dtype) {
  SmallVector<int64_t, 4> shape(indices.shape);
  shape.push_back(depth);
  HostTensor result(dtype, shape);
  for (int64_t i = 0, e = indices.getNumElements(); i < e; ++i) {
    int64_t hot = static_cast<int64_t>(indices.values[i]);
    if (hot >= 0 && hot < depth)
      result.values[i * depth + hot] = 1;
  }
  return result;
}

HostTensor ref::scatterAdd(const HostTensor &updates, const HostTensor &indices,
                           int64_t axis, ArrayRef<int64_t> shape) {
  int64_t rank = indices.getRank();
  SmallVector<int64_t, 4> strides = getRowMajorStrides(shape);
  SmallVector<int64_t, 4> indexStrides = getRowMajorStrides(indices.shape);
  std::vector<Accumulator> sums(getNumElements(shape),
                                Accumulator(updates.dtype));
  SmallVector<int64_t, 4> target(shape.size());
  forEachIndex(updates.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    int64_t row = static_cast<int64_t>(
        indices.values[linearize(index.slice(axis, rank), indexStrides)]);
    for (int64_t d = 0; d < axis; ++d)
      target[d] = index[d];
    target[axis] = std::clamp<int64_t>(row, 0, shape[axis] - 1);
    for (size_t d = axis + 1; d < target.size(); ++d)
      target[d] = index[d - 1 + rank];
    sums[linearize(target, strides)].add(updates.values[linear]);
  });
  HostTensor result(updates.dtype, shape);
  for (auto [r, sum] : llvm::zip_equal(result.values, sums))
    r = sum.get();
  result.roundToDType();
  return result;
}
