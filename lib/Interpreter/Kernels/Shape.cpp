//===- Shape.cpp - Reference kernels that move elements -------------------===//
//
// broadcast_in_dim, reshape, transpose, slice, pad and concat, which copy
// elements without computing on them, and, built from them, the slicing
// out and stacking of the members of a vmap batch.
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

HostTensor ref::broadcastInDim(const HostTensor &x,
                               ArrayRef<int64_t> resultShape,
                               ArrayRef<int64_t> dims) {
  HostTensor result(x.dtype, resultShape);
  SmallVector<int64_t, 4> strides = getRowMajorStrides(x.shape);
  SmallVector<int64_t, 4> source(x.shape.size());
  forEachIndex(resultShape, [&](ArrayRef<int64_t> index, int64_t linear) {
    for (auto [i, d] : llvm::enumerate(dims))
      source[i] = x.shape[i] == 1 ? 0 : index[d];
    result.values[linear] = x.values[linearize(source, strides)];
  });
  return result;
}

HostTensor ref::reshape(const HostTensor &x, ArrayRef<int64_t> shape) {
  HostTensor result = x;
  result.shape.assign(shape.begin(), shape.end());
  return result;
}

HostTensor ref::transpose(const HostTensor &x, ArrayRef<int64_t> permutation) {
  SmallVector<int64_t, 4> shape;
  for (int64_t d : permutation)
    shape.push_back(x.shape[d]);
  HostTensor result(x.dtype, shape);
  SmallVector<int64_t, 4> strides = getRowMajorStrides(x.shape);
  SmallVector<int64_t, 4> source(x.shape.size());
  forEachIndex(shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    for (auto [i, d] : llvm::enumerate(permutation))
      source[d] = index[i];
    result.values[linear] = x.values[linearize(source, strides)];
  });
  return result;
}

HostTensor ref::slice(const HostTensor &x, ArrayRef<int64_t> start,
                      ArrayRef<int64_t> limit, ArrayRef<int64_t> stride) {
  SmallVector<int64_t, 4> shape;
  for (size_t d = 0; d < x.shape.size(); ++d)
    shape.push_back((limit[d] - start[d] + stride[d] - 1) / stride[d]);
  HostTensor result(x.dtype, shape);
  SmallVector<int64_t, 4> strides = getRowMajorStrides(x.shape);
  SmallVector<int64_t, 4> source(x.shape.size());
  forEachIndex(shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    for (size_t d = 0; d < index.size(); ++d)
      source[d] = start[d] + index[d] * stride[d];
    result.values[linear] = x.values[linearize(source, strides)];
  });
  return result;
}

HostTensor ref::concat(ArrayRef<HostTensor> inputs, int64_t dim) {
  SmallVector<int64_t, 4> shape(inputs.front().shape);
  shape[dim] = 0;
  for (const HostTensor &input : inputs)
    shape[dim] += input.shape[dim];
  HostTensor result(inputs.front().dtype, shape);
  SmallVector<int64_t, 4> source;
  forEachIndex(shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    source.assign(index.begin(), index.end());
    for (const HostTensor &input : inputs) {
      if (source[dim] < input.shape[dim]) {
        result.values[linear] =
            input.values[linearize(source, getRowMajorStrides(input.shape))];
        return;
      }
      source[dim] -= input.shape[dim];
    }
  });
  return result;
}

HostTensor ref::pad(const HostTensor &x, ArrayRef<int64_t> low,
                    ArrayRef<int64_t> high, ArrayRef<int64_t> interior) {
  SmallVector<int64_t, 4> shape;
  for (int64_t d = 0; d < x.getRank(); ++d)
    shape.push_back(low[d] + high[d] + x.shape[d] +
                    std::max<int64_t>(x.shape[d] - 1, 0) * interior[d]);
  HostTensor result(x.dtype, shape);
  SmallVector<int64_t, 4> strides = getRowMajorStrides(shape);
  SmallVector<int64_t, 4> target(x.getRank());
  forEachIndex(x.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    for (int64_t d = 0; d < x.getRank(); ++d)
      target[d] = low[d] + index[d] * (interior[d] + 1);
    result.values[linearize(target, strides)] = x.values[linear];
  });
  return result;
}

//===----------------------------------------------------------------------===//
// Members of a batch
//===----------------------------------------------------------------------===//

HostTensor ref::indexAxis(const HostTensor &x, int64_t axis, int64_t index) {
  SmallVector<int64_t, 4> start(x.getRank(), 0), limit(x.shape),
      stride(x.getRank(), 1);
  start[axis] = index;
  limit[axis] = index + 1;
  SmallVector<int64_t, 4> shape(x.shape);
  shape.erase(shape.begin() + axis);
  return reshape(slice(x, start, limit, stride), shape);
}

HostTensor ref::stack(ArrayRef<HostTensor> members, int64_t axis) {
  std::vector<HostTensor> expanded;
  for (const HostTensor &member : members) {
    SmallVector<int64_t, 4> shape(member.shape);
    shape.insert(shape.begin() + axis, 1);
    expanded.push_back(reshape(member, shape));
  }
  return concat(expanded, axis);
}
