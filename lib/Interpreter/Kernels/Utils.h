//===- Utils.h - Helpers shared by the reference kernels --------*- C++ -*-===//
//
// Private to lib/Interpreter/Kernels: the index walks, the integer
// wrapping and the accumulator that more than one op family uses. The
// kernels themselves are declared in include/ens/Interpreter/Kernels.h.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_INTERPRETER_KERNELS_UTILS_H
#define ENS_LIB_INTERPRETER_KERNELS_UTILS_H

#include "ens/Support/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <limits>

namespace mlir::ens::ref::detail {

/// The offset of `index` in a tensor laid out with `strides`.
inline int64_t linearize(llvm::ArrayRef<int64_t> index,
                         llvm::ArrayRef<int64_t> strides) {
  int64_t linear = 0;
  for (auto [i, s] : llvm::zip_equal(index, strides))
    linear += i * s;
  return linear;
}

/// Wraps an exact integer result to i32, as two's-complement hardware does.
inline double wrapToI32(int64_t value) {
  return static_cast<int32_t>(
      static_cast<uint32_t>(static_cast<uint64_t>(value)));
}

inline bool isInteger(DType dtype) { return dtype == DType::I32; }

inline double nan() { return std::numeric_limits<double>::quiet_NaN(); }

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

} // namespace mlir::ens::ref::detail

#endif // ENS_LIB_INTERPRETER_KERNELS_UTILS_H
