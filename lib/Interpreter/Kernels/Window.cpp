//===- Window.cpp - Sliding-window reference kernels ----------------------===//
//
// ens.conv and ens.reduce_window computed from their definitions
// (docs/convolution.md): for each result element, every tap of its window
// is mapped back to the operand position it reads; a position that falls in
// the padding (or, for conv, between dilated input elements) reads the
// padding value and is skipped.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Kernels.h"

#include "ens/Dialect/Ens/IR/ShapeInference.h"

#include "Utils.h"

#include <cmath>

using namespace mlir::ens;
using namespace mlir::ens::ref::detail;
using llvm::ArrayRef;
using llvm::SmallVector;

HostTensor ref::conv(const HostTensor &lhs, const HostTensor &rhs,
                     const ConvDims &dims, ArrayRef<int64_t> resultShape) {
  int64_t spatial = dims.getSpatialRank();
  int64_t groupFeatures = rhs.shape[dims.rhs[1]];
  int64_t groupOutputs = rhs.shape[dims.rhs[0]] / dims.groups;
  SmallVector<int64_t, 4> taps;
  for (int64_t i = 0; i < spatial; ++i)
    taps.push_back(rhs.shape[dims.rhs[2 + i]]);
  SmallVector<int64_t, 4> lhsStrides = getRowMajorStrides(lhs.shape);
  SmallVector<int64_t, 4> rhsStrides = getRowMajorStrides(rhs.shape);

  HostTensor result(lhs.dtype, resultShape);
  forEachIndex(resultShape, [&](ArrayRef<int64_t> out, int64_t linear) {
    int64_t batch = out[dims.out[0]], feature = out[dims.out[1]];
    int64_t group = feature / groupOutputs;
    SmallVector<int64_t, 4> lhsIndex(lhs.getRank()), rhsIndex(rhs.getRank());
    lhsIndex[dims.lhs[0]] = batch;
    rhsIndex[dims.rhs[0]] = feature;
    Accumulator sum(lhs.dtype);
    for (int64_t c = 0; c < groupFeatures; ++c) {
      lhsIndex[dims.lhs[1]] = group * groupFeatures + c;
      rhsIndex[dims.rhs[1]] = c;
      forEachIndex(taps, [&](ArrayRef<int64_t> tap, int64_t) {
        for (int64_t i = 0; i < spatial; ++i) {
          // The position in the dilated, padded input, then in the input.
          int64_t position = out[dims.out[2 + i]] * dims.strides[i] +
                             tap[i] * dims.rhsDilation[i] - dims.padding[2 * i];
          if (position < 0 || position % dims.lhsDilation[i] != 0 ||
              position / dims.lhsDilation[i] >= lhs.shape[dims.lhs[2 + i]])
            return;
          lhsIndex[dims.lhs[2 + i]] = position / dims.lhsDilation[i];
          rhsIndex[dims.rhs[2 + i]] = tap[i];
        }
        sum.addProduct(lhs.values[linearize(lhsIndex, lhsStrides)],
                       rhs.values[linearize(rhsIndex, rhsStrides)]);
      });
    }
    result.values[linear] = sum.get();
  });
  result.roundToDType();
  return result;
}

HostTensor ref::reduceWindow(ReduceKind kind, const HostTensor &x,
                             const Window &window,
                             ArrayRef<int64_t> resultShape) {
  bool isMax = kind == ReduceKind::Max;
  HostTensor result(x.dtype, resultShape);
  SmallVector<int64_t, 4> strides = getRowMajorStrides(x.shape);
  forEachIndex(resultShape, [&](ArrayRef<int64_t> out, int64_t linear) {
    double value = isMax ? -std::numeric_limits<double>::infinity() : 0;
    SmallVector<int64_t, 4> index(x.getRank());
    forEachIndex(window.dimensions, [&](ArrayRef<int64_t> tap, int64_t) {
      for (int64_t d = 0; d < x.getRank(); ++d) {
        index[d] = out[d] * window.strides[d] + tap[d] - window.padding[2 * d];
        if (index[d] < 0 || index[d] >= x.shape[d])
          return;
      }
      double element = x.values[linearize(index, strides)];
      if (!isMax)
        value += element;
      else if (std::isnan(element) || element > value)
        value = std::isnan(value) ? value : element;
    });
    result.values[linear] = value;
  });
  result.roundToDType();
  return result;
}
