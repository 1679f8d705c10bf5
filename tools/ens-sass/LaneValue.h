//===- LaneValue.h - An integer across the lanes of a warp ------*- C++ -*-===//
//
// The values the coalescing analysis (LaneAddresses.h) tracks in registers:
// per lane of a warp, a part common to the warp, known or known only to be
// a multiple of a power of two, plus a known offset per lane; and the
// integer arithmetic of SASS on them, exact where it can tell.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TOOLS_ENS_SASS_LANEVALUE_H
#define ENS_TOOLS_ENS_SASS_LANEVALUE_H

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

namespace mlir::ens::sass {

constexpr unsigned kLanes = 32;
/// The alignment (log2) of a base known to be 0.
constexpr unsigned kAligned = 63;

/// An integer register's value across the first warp: lane l holds
/// base + offsets[l], with offsets[0] = 0. The base is known, or known to
/// be a multiple of 2^alignment only. Register pairs (64-bit addresses)
/// keep their value in their first register.
struct LaneValue {
  std::optional<int64_t> base;
  unsigned alignment = 0;
  /// Whether every lane's value is known to be at least 0 (below 2^31 as
  /// a 32-bit register).
  bool nonNegative = false;
  std::array<int64_t, kLanes> offsets{};

  static LaneValue known(int64_t value) {
    LaneValue result;
    result.base = value;
    result.nonNegative = value >= 0;
    return result;
  }
  static LaneValue uniform(unsigned alignment = 0, bool nonNegative = false) {
    LaneValue result;
    result.alignment = alignment;
    result.nonNegative = nonNegative;
    return result;
  }
  /// The known value `values[l]` in lane l.
  static LaneValue perLane(const std::array<int64_t, kLanes> &values) {
    LaneValue result = known(values[0]);
    for (unsigned lane = 0; lane < kLanes; ++lane)
      result.offsets[lane] = values[lane] - values[0];
    result.nonNegative = llvm::all_of(values, [](int64_t v) { return v >= 0; });
    return result;
  }

  bool isKnown() const { return base.has_value(); }
  bool isUniform() const {
    return llvm::all_of(offsets, [](int64_t offset) { return offset == 0; });
  }
  bool isConstant() const { return isKnown() && isUniform(); }
  int64_t at(unsigned lane) const { return *base + offsets[lane]; }
  /// The log2 of a power of two that divides the base.
  unsigned getAlignment() const {
    if (!base)
      return alignment;
    return *base ? llvm::countr_zero(uint64_t(*base)) : kAligned;
  }
  /// Whether every lane's offset lies in [0, 2^getAlignment()): adding it
  /// to the base then carries into no bit of the base.
  bool hasSmallOffsets() const {
    unsigned bits = getAlignment();
    return llvm::all_of(offsets, [&](int64_t offset) {
      return offset >= 0 && (bits >= 62 || offset < (int64_t(1) << bits));
    });
  }
  bool operator==(const LaneValue &other) const {
    return base == other.base && offsets == other.offsets &&
           nonNegative == other.nonNegative &&
           (base || alignment == other.alignment);
  }
  bool operator!=(const LaneValue &other) const { return !(*this == other); }
};

/// A register's value; none where the lanes' values are not known apart.
using Value = std::optional<LaneValue>;
using State = std::vector<Value>;

Value join(const Value &a, const Value &b);

Value add(const Value &a, const Value &b);

/// `a` times the constant `factor`.
Value scale(const Value &a, int64_t factor);

/// Applies `f` lane by lane where every operand is known; where every
/// operand is common to the warp the result is too; else unknown.
Value exact(llvm::ArrayRef<Value> operands,
            const std::function<int64_t(llvm::ArrayRef<int64_t>)> &f);

Value multiply(const Value &a, const Value &b);

/// The low 32 bits of `value`, as a signed or unsigned integer.
int64_t low32(int64_t value, bool isUnsigned);

/// `a` shifted right by `amount`. With an unknown base that is a multiple
/// of 2^A and offsets in [0, 2^A), no lane carries into the base's bits:
/// shifting by s <= A shifts base and offsets apart, and by more leaves a
/// value common to the warp. A value at least 0 shifted by 31 is 0.
Value shiftRight(const Value &a, const Value &amount, bool isUnsigned);

/// `a & mask` for a constant mask of low bits (2^k - 1) or high bits
/// (~(2^k - 1)) of an unknown base that is a multiple of 2^A with offsets
/// in [0, 2^A), none of which carries into the base's bits.
Value mask(const Value &a, const Value &bits);

/// The bits of a three-input logic operation with truth table `table`.
int64_t applyLut(int64_t a, int64_t b, int64_t c, int64_t table);

/// An OR that ptxas writes to put known low bits into an index whose low
/// bits are clear (a | (b & c), table 0xf8; a | b, 0xfc; a | b | c, 0xfe)
/// as the sum it equals, where one operand's base is unknown.
Value orAsAdd(const Value &a, const Value &b, const Value &c,
              const Value &table);

} // namespace mlir::ens::sass

#endif // ENS_TOOLS_ENS_SASS_LANEVALUE_H
