//===- Reduction.cpp - Reduction reference kernels ------------------------===//
//
// reduce (sum, max, mean, logsumexp), softmax and log_softmax. Sums go
// through the shared Accumulator; logsumexp and the softmaxes shift by the
// maximum so that exp cannot overflow.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Kernels.h"

#include "Utils.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::ens;
using namespace mlir::ens::ref::detail;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// Calls `fn(base, stride, count)` once per lane along `dim`: `base` is the
/// linear index of the lane's first element.
template <typename Fn>
void forEachLane(const HostTensor &x, int64_t dim, Fn fn) {
  SmallVector<int64_t, 4> outer(x.shape);
  outer[dim] = 1;
  SmallVector<int64_t, 4> strides = getRowMajorStrides(x.shape);
  forEachIndex(outer, [&](ArrayRef<int64_t> index, int64_t) {
    fn(linearize(index, strides), strides[dim], x.shape[dim]);
  });
}

} // namespace

HostTensor ref::reduce(ReduceKind kind, const HostTensor &x,
                       ArrayRef<int64_t> dims) {
  SmallVector<int64_t, 4> shape, kept;
  for (int64_t d = 0; d < x.getRank(); ++d) {
    if (llvm::is_contained(dims, d))
      continue;
    shape.push_back(x.shape[d]);
    kept.push_back(d);
  }
  // Group the operand's elements by result element, then reduce each group.
  std::vector<std::vector<double>> groups(getNumElements(shape));
  SmallVector<int64_t, 4> strides = getRowMajorStrides(shape);
  SmallVector<int64_t, 4> target(kept.size());
  forEachIndex(x.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    for (auto [i, d] : llvm::enumerate(kept))
      target[i] = index[d];
    groups[linearize(target, strides)].push_back(x.values[linear]);
  });

  HostTensor result(x.dtype, shape);
  for (auto [r, group] : llvm::zip_equal(result.values, groups)) {
    double max = isInteger(x.dtype) ? std::numeric_limits<int32_t>::min()
                                    : -std::numeric_limits<double>::infinity();
    for (double v : group)
      max = std::isnan(max) || std::isnan(v) ? nan() : std::max(max, v);
    Accumulator sum(x.dtype);
    switch (kind) {
    case ReduceKind::Max:
      r = max;
      break;
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      for (double v : group)
        sum.add(v);
      r = kind == ReduceKind::Sum ? sum.get() : sum.get() / group.size();
      break;
    case ReduceKind::LogSumExp:
      // Shift by the maximum so that exp cannot overflow; an infinite
      // maximum is the result itself.
      if (std::isinf(max)) {
        r = max;
        break;
      }
      for (double v : group)
        sum.add(std::exp(v - max));
      r = max + std::log(sum.get());
      break;
    }
  }
  result.roundToDType();
  return result;
}

/// Softmax and log-softmax share the shifted exponential sums.
static HostTensor softmaxLike(const HostTensor &x, int64_t dim, bool log) {
  HostTensor result(x.dtype, x.shape);
  forEachLane(x, dim, [&](int64_t base, int64_t stride, int64_t count) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < count; ++i)
      max = std::max(max, x.values[base + i * stride]);
    double sum = 0;
    for (int64_t i = 0; i < count; ++i)
      sum += std::exp(x.values[base + i * stride] - max);
    for (int64_t i = 0; i < count; ++i) {
      double shifted = x.values[base + i * stride] - max;
      result.values[base + i * stride] =
          log ? shifted - std::log(sum) : std::exp(shifted) / sum;
    }
  });
  result.roundToDType();
  return result;
}

HostTensor ref::softmax(const HostTensor &x, int64_t dim) {
  return softmaxLike(x, dim, /*log=*/false);
}

HostTensor ref::logSoftmax(const HostTensor &x, int64_t dim) {
  return softmaxLike(x, dim, /*log=*/true);
}
