//===- Kernels.cpp - Reference kernels on host tensors --------------------===//
//
// Every kernel walks result (or operand) multi-indices in row-major order and
// computes each element from the op's definition. Nothing here is tuned:
// these functions are the oracle that every pass and backend is tested
// against.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Kernels.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::ref;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// Calls `fn(index, linear)` for every multi-index of `shape`, row-major.
template <typename Fn>
void forEachIndex(ArrayRef<int64_t> shape, Fn fn) {
  int64_t count = getNumElements(shape);
  SmallVector<int64_t, 8> index(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    fn(ArrayRef<int64_t>(index), linear);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

int64_t linearize(ArrayRef<int64_t> index, ArrayRef<int64_t> strides) {
  int64_t linear = 0;
  for (auto [i, s] : llvm::zip_equal(index, strides))
    linear += i * s;
  return linear;
}

/// Wraps an exact integer result to i32, as two's-complement hardware does.
double wrapToI32(int64_t value) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(value)));
}

bool isInteger(DType dtype) { return dtype == DType::I32; }

double nan() { return std::numeric_limits<double>::quiet_NaN(); }

double applyFloat(UnaryKind kind, double x) {
  switch (kind) {
  case UnaryKind::Neg:
    return -x;
  case UnaryKind::Exp:
    return std::exp(x);
  case UnaryKind::Log:
    return std::log(x);
  case UnaryKind::Tanh:
    return std::tanh(x);
  case UnaryKind::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case UnaryKind::Relu:
    return std::isnan(x) ? x : std::max(x, 0.0);
  case UnaryKind::Sqrt:
    return std::sqrt(x);
  case UnaryKind::Rsqrt:
    return 1.0 / std::sqrt(x);
  case UnaryKind::Abs:
    return std::fabs(x);
  case UnaryKind::Square:
    return x * x;
  }
  llvm_unreachable("unknown unary kind");
}

int64_t applyInteger(UnaryKind kind, int64_t x) {
  switch (kind) {
  case UnaryKind::Neg:
    return -x;
  case UnaryKind::Abs:
    return x < 0 ? -x : x;
  case UnaryKind::Square:
    return x * x;
  default:
    llvm_unreachable("the verifier admits only float operands");
  }
}

double applyFloat(BinaryKind kind, double a, double b) {
  switch (kind) {
  case BinaryKind::Add:
    return a + b;
  case BinaryKind::Sub:
    return a - b;
  case BinaryKind::Mul:
    return a * b;
  case BinaryKind::Div:
    return a / b;
  case BinaryKind::Max:
    return std::isnan(a) || std::isnan(b) ? nan() : std::max(a, b);
  case BinaryKind::Min:
    return std::isnan(a) || std::isnan(b) ? nan() : std::min(a, b);
  case BinaryKind::Pow:
    return std::pow(a, b);
  }
  llvm_unreachable("unknown binary kind");
}

int64_t applyInteger(BinaryKind kind, int64_t a, int64_t b) {
  switch (kind) {
  case BinaryKind::Add:
    return a + b;
  case BinaryKind::Sub:
    return a - b;
  case BinaryKind::Mul:
    return a * b;
  case BinaryKind::Max:
    return std::max(a, b);
  case BinaryKind::Min:
    return std::min(a, b);
  default:
    llvm_unreachable("the verifier admits only float operands");
  }
}

bool applyCompare(CompareKind kind, double a, double b) {
  switch (kind) {
  case CompareKind::Lt:
    return a < b;
  case CompareKind::Le:
    return a <= b;
  case CompareKind::Gt:
    return a > b;
  case CompareKind::Ge:
    return a >= b;
  case CompareKind::Eq:
    return a == b;
  case CompareKind::Ne:
    return a != b;
  }
  llvm_unreachable("unknown compare kind");
}

/// Sums exactly enough for an oracle: doubles for floats, wrapping 64-bit
/// integers (reduced to i32 at the end) for integers.
class Accumulator {
public:
  explicit Accumulator(DType dtype) : integer(isInteger(dtype)) {}
  void add(double value) {
    if (integer)
      intSum += static_cast<uint64_t>(static_cast<int64_t>(value));
    else
      floatSum += value;
  }
  void addProduct(double a, double b) {
    if (integer)
      intSum += static_cast<uint64_t>(static_cast<int64_t>(a)) *
                static_cast<uint64_t>(static_cast<int64_t>(b));
    else
      floatSum += a * b;
  }
  double get() const {
    return integer ? wrapToI32(static_cast<int64_t>(intSum)) : floatSum;
  }

private:
  bool integer;
  double floatSum = 0;
  uint64_t intSum = 0;
};

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

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

HostTensor ref::unary(UnaryKind kind, const HostTensor &x) {
  HostTensor result(x.dtype, x.shape);
  for (auto [r, v] : llvm::zip_equal(result.values, x.values))
    r = isInteger(x.dtype)
            ? wrapToI32(applyInteger(kind, static_cast<int64_t>(v)))
            : applyFloat(kind, v);
  result.roundToDType();
  return result;
}

HostTensor ref::binary(BinaryKind kind, const HostTensor &lhs,
                       const HostTensor &rhs) {
  HostTensor result(lhs.dtype, lhs.shape);
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i)
    result.values[i] =
        isInteger(lhs.dtype)
            ? wrapToI32(applyInteger(kind, static_cast<int64_t>(lhs.values[i]),
                                     static_cast<int64_t>(rhs.values[i])))
            : applyFloat(kind, lhs.values[i], rhs.values[i]);
  result.roundToDType();
  return result;
}

HostTensor ref::compare(CompareKind kind, const HostTensor &lhs,
                        const HostTensor &rhs) {
  HostTensor result(DType::I1, lhs.shape);
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i)
    result.values[i] = applyCompare(kind, lhs.values[i], rhs.values[i]);
  return result;
}

HostTensor ref::select(const HostTensor &cond, const HostTensor &onTrue,
                       const HostTensor &onFalse) {
  HostTensor result(onTrue.dtype, onTrue.shape);
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i)
    result.values[i] =
        cond.values[i] != 0 ? onTrue.values[i] : onFalse.values[i];
  return result;
}

HostTensor ref::convert(const HostTensor &x, DType dtype) {
  HostTensor result(dtype, x.shape);
  for (auto [r, v] : llvm::zip_equal(result.values, x.values)) {
    r = v;
    // Float to integer saturates; integer arithmetic elsewhere wraps.
    if (dtype == DType::I32 && !std::isnan(v))
      r = std::clamp(std::trunc(v),
                     double(std::numeric_limits<int32_t>::min()),
                     double(std::numeric_limits<int32_t>::max()));
  }
  result.roundToDType();
  return result;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

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
    int64_t row = static_cast<int64_t>(
        indices.values[linearize(position, indexStrides)]);
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

HostTensor ref::oneHot(const HostTensor &indices, int64_t depth,
                       DType dtype) {
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

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

HostTensor ref::contract(const HostTensor &lhs, ArrayRef<int64_t> lhsLabels,
                         const HostTensor &rhs, ArrayRef<int64_t> rhsLabels,
                         ArrayRef<int64_t> outLabels) {
  // Iterate over the output labels then the summed labels, so that the
  // output element is the iteration index divided by the summed count.
  SmallVector<int64_t, 8> labels(outLabels), sizes;
  auto sizeOf = [&](int64_t label) {
    for (auto [l, s] : llvm::zip_equal(lhsLabels, lhs.shape))
      if (l == label)
        return s;
    for (auto [l, s] : llvm::zip_equal(rhsLabels, rhs.shape))
      if (l == label)
        return s;
    llvm_unreachable("output label of no operand");
  };
  for (ArrayRef<int64_t> operandLabels : {lhsLabels, rhsLabels})
    for (int64_t label : operandLabels)
      if (!llvm::is_contained(labels, label))
        labels.push_back(label);
  for (int64_t label : labels)
    sizes.push_back(sizeOf(label));

  auto positions = [&](ArrayRef<int64_t> operandLabels) {
    SmallVector<int64_t, 4> result;
    for (int64_t label : operandLabels)
      result.push_back(llvm::find(labels, label) - labels.begin());
    return result;
  };
  SmallVector<int64_t, 4> lhsPositions = positions(lhsLabels);
  SmallVector<int64_t, 4> rhsPositions = positions(rhsLabels);
  SmallVector<int64_t, 4> lhsStrides = getRowMajorStrides(lhs.shape);
  SmallVector<int64_t, 4> rhsStrides = getRowMajorStrides(rhs.shape);

  SmallVector<int64_t, 4> outShape(ArrayRef<int64_t>(sizes).take_front(
      outLabels.size()));
  int64_t summedCount =
      getNumElements(ArrayRef<int64_t>(sizes).drop_front(outLabels.size()));
  std::vector<Accumulator> sums(getNumElements(outShape),
                                Accumulator(lhs.dtype));
  forEachIndex(sizes, [&](ArrayRef<int64_t> index, int64_t linear) {
    int64_t l = 0, r = 0;
    for (auto [p, s] : llvm::zip_equal(lhsPositions, lhsStrides))
      l += index[p] * s;
    for (auto [p, s] : llvm::zip_equal(rhsPositions, rhsStrides))
      r += index[p] * s;
    sums[linear / std::max<int64_t>(summedCount, 1)].addProduct(
        lhs.values[l], rhs.values[r]);
  });

  HostTensor result(lhs.dtype, outShape);
  for (auto [r, sum] : llvm::zip_equal(result.values, sums))
    r = sum.get();
  result.roundToDType();
  return result;
}

HostTensor ref::tensordot(const HostTensor &lhs, const HostTensor &rhs,
                          ArrayRef<int64_t> lhsDims,
                          ArrayRef<int64_t> rhsDims) {
  // lhs dimension d has label d; rhs dimension d has label lhsRank + d
  // unless it is contracted, in which case it shares its lhs partner's.
  int64_t lhsRank = lhs.getRank();
  SmallVector<int64_t, 4> lhsLabels, rhsLabels, outLabels;
  for (int64_t d = 0; d < lhsRank; ++d) {
    lhsLabels.push_back(d);
    if (!llvm::is_contained(lhsDims, d))
      outLabels.push_back(d);
  }
  for (int64_t d = 0; d < rhs.getRank(); ++d) {
    const int64_t *it = llvm::find(rhsDims, d);
    if (it != rhsDims.end()) {
      rhsLabels.push_back(lhsDims[it - rhsDims.begin()]);
      continue;
    }
    rhsLabels.push_back(lhsRank + d);
    outLabels.push_back(lhsRank + d);
  }
  return contract(lhs, lhsLabels, rhs, rhsLabels, outLabels);
}

HostTensor ref::matmul(const HostTensor &lhs, const HostTensor &rhs) {
  bool lhsVector = lhs.getRank() == 1, rhsVector = rhs.getRank() == 1;
  SmallVector<int64_t, 4> l(lhs.shape), r(rhs.shape);
  if (lhsVector)
    l.insert(l.begin(), 1);
  if (rhsVector)
    r.push_back(1);
  int64_t lBatch = l.size() - 2, rBatch = r.size() - 2;
  int64_t batch = std::max(lBatch, rBatch);
  SmallVector<int64_t, 4> batchShape;
  for (int64_t i = 0; i < batch; ++i) {
    int64_t a = i >= batch - lBatch ? l[i - (batch - lBatch)] : 1;
    int64_t b = i >= batch - rBatch ? r[i - (batch - rBatch)] : 1;
    batchShape.push_back(std::max(a, b));
  }
  // Broadcast both operands to the full batch shape, right-aligned.
  auto expand = [&](const HostTensor &x, ArrayRef<int64_t> promoted) {
    int64_t rank = promoted.size();
    SmallVector<int64_t, 4> shape(batchShape);
    shape.append(promoted.end() - 2, promoted.end());
    SmallVector<int64_t, 4> dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(batch + 2 - rank + d);
    return broadcastInDim(reshape(x, promoted), shape, dims);
  };
  HostTensor lhsFull = expand(lhs, l), rhsFull = expand(rhs, r);

  auto batchLabels = llvm::to_vector<4>(llvm::seq<int64_t>(0, batch));
  int64_t m = batch, k = batch + 1, n = batch + 2;
  SmallVector<int64_t, 4> lhsLabels(batchLabels), rhsLabels(batchLabels),
      outLabels(batchLabels);
  lhsLabels.append({m, k});
  rhsLabels.append({k, n});
  outLabels.append({m, n});
  HostTensor product =
      contract(lhsFull, lhsLabels, rhsFull, rhsLabels, outLabels);

  SmallVector<int64_t, 4> shape(batchShape);
  if (!lhsVector)
    shape.push_back(l[l.size() - 2]);
  if (!rhsVector)
    shape.push_back(r.back());
  return reshape(product, shape);
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

//===----------------------------------------------------------------------===//
// Adjoints of slice and take
//===----------------------------------------------------------------------===//

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

HostTensor ref::scatterAdd(const HostTensor &updates,
                           const HostTensor &indices, int64_t axis,
                           ArrayRef<int64_t> shape) {
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

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

std::array<uint32_t, 2> ref::threefry2x32(std::array<uint32_t, 2> key,
                                          std::array<uint32_t, 2> counter) {
  static constexpr int kRotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  uint32_t ks[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDAu};
  uint32_t x0 = counter[0] + ks[0], x1 = counter[1] + ks[1];
  for (uint32_t group = 0; group < 5; ++group) {
    for (int rotation : kRotations[group % 2]) {
      x0 += x1;
      x1 = (x1 << rotation) | (x1 >> (32 - rotation));
      x1 ^= x0;
    }
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + group + 1;
  }
  return {x0, x1};
}

/// The key at `offset` (in elements) of a key tensor.
static std::array<uint32_t, 2> keyAt(const HostTensor &keys, int64_t offset) {
  return {static_cast<uint32_t>(static_cast<int64_t>(keys.values[offset])),
          static_cast<uint32_t>(static_cast<int64_t>(keys.values[offset + 1]))};
}

/// Stores a key as two i32 elements.
static void storeKey(HostTensor &keys, int64_t offset,
                     std::array<uint32_t, 2> key) {
  keys.values[offset] = static_cast<int32_t>(key[0]);
  keys.values[offset + 1] = static_cast<int32_t>(key[1]);
}

/// A float in [0, 1) built from random mantissa bits, as a GPU would.
static double uniformFromBits(std::array<uint32_t, 2> bits, DType dtype) {
  if (dtype == DType::F64) {
    uint64_t word = (uint64_t(bits[0]) << 32 | bits[1]) >> 12;
    return std::ldexp(static_cast<double>(word), -52);
  }
  return std::ldexp(static_cast<double>(bits[0] >> 9), -23);
}

HostTensor ref::randomDraw(Distribution distribution, const HostTensor &keys,
                           ArrayRef<int64_t> blockShape, DType dtype) {
  SmallVector<int64_t, 4> shape(ArrayRef<int64_t>(keys.shape).drop_back());
  int64_t numKeys = getNumElements(shape);
  shape.append(blockShape.begin(), blockShape.end());
  HostTensor result(dtype, shape);
  int64_t block = getNumElements(blockShape);
  for (int64_t k = 0; k < numKeys; ++k) {
    std::array<uint32_t, 2> key = keyAt(keys, 2 * k);
    for (int64_t i = 0; i < block; ++i) {
      std::array<uint32_t, 2> bits =
          threefry2x32(key, {0u, static_cast<uint32_t>(i)});
      double value;
      if (distribution == Distribution::Uniform) {
        value = uniformFromBits(bits, dtype);
      } else {
        // Box-Muller on (0, 1) uniforms, so the logarithm stays finite.
        double u1 = (bits[0] + 0.5) * 0x1p-32, u2 = (bits[1] + 0.5) * 0x1p-32;
        value = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
      }
      result.values[k * block + i] = value;
    }
  }
  result.roundToDType();
  return result;
}

HostTensor ref::randomSplit(const HostTensor &keys, int64_t count) {
  SmallVector<int64_t, 4> shape(ArrayRef<int64_t>(keys.shape).drop_back());
  int64_t numKeys = getNumElements(shape);
  shape.append({count, 2});
  HostTensor result(DType::I32, shape);
  for (int64_t k = 0; k < numKeys; ++k)
    for (int64_t j = 0; j < count; ++j)
      storeKey(result, 2 * (k * count + j),
               threefry2x32(keyAt(keys, 2 * k),
                            {1u, static_cast<uint32_t>(j)}));
  return result;
}

HostTensor ref::randomFoldIn(const HostTensor &keys, const HostTensor &data) {
  HostTensor result(DType::I32, keys.shape);
  for (int64_t k = 0, e = data.getNumElements(); k < e; ++k)
    storeKey(result, 2 * k,
             threefry2x32(keyAt(keys, 2 * k),
                          {2u, static_cast<uint32_t>(
                                   static_cast<int64_t>(data.values[k]))}));
  return result;
}
