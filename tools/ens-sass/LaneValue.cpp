//===- LaneValue.cpp - An integer across the lanes of a warp --------------===//

#include "LaneValue.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir::ens::sass {

Value join(const Value &a, const Value &b) {
  if (!a || !b || a->offsets != b->offsets)
    return std::nullopt;
  if (*a == *b)
    return a;
  unsigned alignment = std::min(a->getAlignment(), b->getAlignment());
  if (a->base && b->base && *a->base != *b->base)
    alignment = std::min<unsigned>(
        alignment, llvm::countr_zero(uint64_t(*a->base - *b->base)));
  LaneValue result = *a;
  if (!a->base || !b->base || *a->base != *b->base)
    result.base.reset();
  result.alignment = alignment;
  result.nonNegative = a->nonNegative && b->nonNegative;
  return result;
}

Value add(const Value &a, const Value &b) {
  if (!a || !b)
    return std::nullopt;
  LaneValue result = *a;
  for (unsigned lane = 0; lane < kLanes; ++lane)
    result.offsets[lane] += b->offsets[lane];
  result.alignment = std::min(a->getAlignment(), b->getAlignment());
  if (a->base && b->base)
    return LaneValue::perLane([&] {
      std::array<int64_t, kLanes> values;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        values[lane] = a->at(lane) + b->at(lane);
      return values;
    }());
  result.base.reset();
  result.nonNegative = a->nonNegative && b->nonNegative;
  return result;
}

Value scale(const Value &a, int64_t factor) {
  if (!a)
    return std::nullopt;
  if (factor == 0)
    return LaneValue::known(0);
  LaneValue result = *a;
  for (int64_t &offset : result.offsets)
    offset *= factor;
  if (a->base)
    return LaneValue::perLane([&] {
      std::array<int64_t, kLanes> values;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        values[lane] = a->at(lane) * factor;
      return values;
    }());
  result.alignment = std::min<unsigned>(
      kAligned, a->alignment + llvm::countr_zero(uint64_t(factor)));
  result.nonNegative = a->nonNegative && factor > 0;
  return result;
}

Value exact(llvm::ArrayRef<Value> operands,
            const std::function<int64_t(llvm::ArrayRef<int64_t>)> &f) {
  if (llvm::any_of(operands, [](const Value &v) { return !v; }))
    return std::nullopt;
  if (llvm::all_of(operands, [](const Value &v) { return v->isKnown(); })) {
    std::array<int64_t, kLanes> values;
    llvm::SmallVector<int64_t, 4> arguments(operands.size());
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      for (auto [i, operand] : llvm::enumerate(operands))
        arguments[i] = operand->at(lane);
      values[lane] = f(arguments);
    }
    return LaneValue::perLane(values);
  }
  if (llvm::all_of(operands, [](const Value &v) { return v->isUniform(); }))
    return LaneValue::uniform();
  return std::nullopt;
}

Value multiply(const Value &a, const Value &b) {
  if (!a || !b)
    return std::nullopt;
  if (b->isConstant())
    return scale(a, *b->base);
  if (a->isConstant())
    return scale(b, *a->base);
  if (a->isUniform() && b->isUniform())
    return LaneValue::uniform(
        std::min(kAligned, a->getAlignment() + b->getAlignment()),
        a->nonNegative && b->nonNegative);
  return exact({a, b}, [](auto x) { return x[0] * x[1]; });
}

int64_t low32(int64_t value, bool isUnsigned) {
  return isUnsigned ? int64_t(uint32_t(value)) : int64_t(int32_t(value));
}

Value shiftRight(const Value &a, const Value &amount, bool isUnsigned) {
  if (a && amount && !a->isKnown() && amount->isConstant()) {
    int64_t shift = *amount->base;
    // The sign of an index (x >> 31, as ptxas rounds a signed division)
    // is taken as 0 where the lanes share it: indices are not negative.
    if (shift >= 31 && (a->nonNegative || a->hasSmallOffsets()))
      return LaneValue::known(0);
    if (shift >= 0 && shift < 32 && a->hasSmallOffsets()) {
      if (unsigned(shift) > a->alignment)
        return LaneValue::uniform(0, a->nonNegative || isUnsigned);
      LaneValue result = *a;
      for (int64_t &offset : result.offsets)
        offset >>= shift;
      result.alignment = a->alignment - unsigned(shift);
      result.nonNegative = a->nonNegative || isUnsigned;
      return result;
    }
  }
  return exact({a, amount}, [=](auto x) {
    int64_t shift = x[1] & 31;
    return isUnsigned ? int64_t(uint32_t(x[0]) >> shift)
                      : int64_t(int32_t(x[0]) >> shift);
  });
}

Value mask(const Value &a, const Value &bits) {
  if (a && bits && !a->isKnown() && bits->isConstant() &&
      a->hasSmallOffsets()) {
    uint32_t m = uint32_t(*bits->base);
    unsigned alignment = a->alignment;
    bool low = (m & (m + 1)) == 0, high = ((~m) & (~m + 1)) == 0;
    unsigned k = low ? llvm::popcount(m) : 32 - llvm::popcount(m);
    LaneValue result = *a;
    result.nonNegative = low || a->nonNegative;
    if (low && k <= alignment) {
      std::array<int64_t, kLanes> values;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        values[lane] = a->offsets[lane] & m;
      return LaneValue::perLane(values);
    }
    if (low) { // (base mod 2^k) + offsets.
      result.nonNegative = true;
      return result;
    }
    if (high && k <= alignment) {
      for (int64_t &offset : result.offsets)
        offset &= ~int64_t((uint64_t(1) << k) - 1);
      return result;
    }
    if (high)
      return LaneValue::uniform(k, a->nonNegative);
  }
  return exact({a, bits}, [](auto x) { return low32(x[0] & x[1], false); });
}

int64_t applyLut(int64_t a, int64_t b, int64_t c, int64_t table) {
  uint32_t result = 0;
  for (unsigned bit = 0; bit < 32; ++bit) {
    unsigned index =
        (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
    result |= uint32_t((table >> index) & 1) << bit;
  }
  return int32_t(result);
}

Value orAsAdd(const Value &a, const Value &b, const Value &c,
              const Value &table) {
  if (!a || !b || !c || !table || !table->isConstant())
    return std::nullopt;
  int64_t lut = *table->base;
  auto isUnknown = [](const Value &v) { return !v->isKnown(); };
  Value symbolic, rest;
  if (lut == 0xf8 && isUnknown(a))
    symbolic = a, rest = exact({b, c}, [](auto x) { return x[0] & x[1]; });
  else if ((lut == 0xfc || lut == 0xfe) && isUnknown(a) && !isUnknown(b))
    symbolic = a, rest = exact({b, c}, [](auto x) { return x[0] | x[1]; });
  else if ((lut == 0xfc || lut == 0xfe) && isUnknown(b) && !isUnknown(a))
    symbolic = b, rest = exact({a, c}, [](auto x) { return x[0] | x[1]; });
  if (!symbolic || !rest || !rest->isKnown())
    return std::nullopt;
  int64_t largest = 0;
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    if (rest->at(lane) < 0)
      return std::nullopt;
    largest = std::max(largest, rest->at(lane));
  }
  unsigned bits = llvm::bit_width(uint64_t(largest));
  bool clear = symbolic->alignment >= bits &&
               llvm::all_of(symbolic->offsets, [&](int64_t offset) {
                 return (offset & ((int64_t(1) << bits) - 1)) == 0;
               });
  return clear ? add(symbolic, rest) : std::nullopt;
}

} // namespace mlir::ens::sass
