//===- Pointwise.cpp - Elementwise reference kernels ----------------------===//
//
// unary, binary, compare, select and convert: one result element from the
// elements at the same position. Floats are computed in double and rounded
// once; i32 arithmetic is exact in 64 bits and then wraps.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Kernels.h"

#include "Utils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::ens;
using namespace mlir::ens::ref;
using namespace mlir::ens::ref::detail;

namespace {

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

} // namespace

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
      r = std::clamp(std::trunc(v), double(std::numeric_limits<int32_t>::min()),
                     double(std::numeric_limits<int32_t>::max()));
  }
  result.roundToDType();
  return result;
}
