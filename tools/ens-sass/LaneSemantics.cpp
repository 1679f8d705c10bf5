//===- LaneSemantics.cpp - SASS integer instructions on lanes -------------===//

#include "LaneSemantics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>

namespace mlir::ens::sass {

/// The IEEE half-precision bits of `value`, as cuobjdump prints an
/// HFMA2.MMA constant's halves ("0", "2.3841857910156250e-07", "-INF").
static std::optional<uint16_t> getHalfBits(StringRef text) {
  bool negative = text.consume_front("-");
  text.consume_front("+");
  uint16_t sign = negative ? 0x8000 : 0;
  if (text == "INF")
    return uint16_t(sign | 0x7c00);
  double value = 0;
  if (text.getAsDouble(value) || value < 0 || !std::isfinite(value))
    return std::nullopt;
  if (value == 0)
    return sign;
  int exponent = 0;
  double fraction =
      std::frexp(value, &exponent); // value = f * 2^e, f in [.5,1)
  int biased = exponent + 14;
  double mantissa = biased > 0 ? (fraction * 2 - 1) * 1024
                               : fraction * std::ldexp(1.0, 10 + biased);
  if (biased > 30 || mantissa != std::floor(mantissa))
    return std::nullopt; // Not a half cuobjdump would print.
  return uint16_t(sign | (std::max(biased, 0) << 10) | int(mantissa));
}

bool isPredicate(StringRef operand) {
  operand.consume_front("!");
  operand.consume_front("U");
  return operand.size() == 2 && operand[0] == 'P' &&
         (operand[1] == 'T' || (operand[1] >= '0' && operand[1] <= '7'));
}

std::optional<unsigned> getRegister(StringRef operand) {
  unsigned first = operand.consume_front("UR")  ? kUniformRegisters
                   : operand.consume_front("R") ? 0
                                                : kRegisters;
  unsigned number = 0;
  StringRef digits =
      operand.take_while([](char c) { return c >= '0' && c <= '9'; });
  if (first == kRegisters || digits.empty() ||
      digits.getAsInteger(10, number) || first + number >= kRegisters ||
      (first == 0 && number >= kUniformRegisters - 1))
    return std::nullopt;
  return first + number;
}

std::optional<unsigned> getPredicate(StringRef operand) {
  operand.consume_front("!");
  unsigned first = operand.consume_front("U") ? 7 : 0;
  if (!operand.consume_front("P") || operand.size() != 1 || operand[0] < '0' ||
      operand[0] > '6')
    return std::nullopt;
  return kPredicates + first + unsigned(operand[0] - '0');
}

std::optional<bool> isTrue(StringRef text, const State &state) {
  text.consume_front("@");
  bool negated = text.starts_with("!");
  StringRef name = text.drop_front(negated ? 1 : 0);
  std::optional<bool> value;
  if (name == "PT" || name == "UPT")
    value = true;
  else if (std::optional<unsigned> index = getPredicate(name))
    if (const Value &known = state[*index]; known && known->isConstant())
      value = *known->base != 0;
  if (!value)
    return std::nullopt;
  return *value != negated;
}

std::optional<bool> compare(StringRef modifiers, const Value &a,
                            const Value &b) {
  if (!a || !b || !a->isKnown() || !b->isKnown() || modifiers.contains(".EX"))
    return std::nullopt;
  bool isUnsigned = modifiers.contains(".U32");
  std::optional<bool> common;
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    int64_t x = low32(a->at(lane), isUnsigned),
            y = low32(b->at(lane), isUnsigned);
    bool result = modifiers.starts_with(".LT")   ? x < y
                  : modifiers.starts_with(".LE") ? x <= y
                  : modifiers.starts_with(".GT") ? x > y
                  : modifiers.starts_with(".GE") ? x >= y
                  : modifiers.starts_with(".EQ") ? x == y
                  : modifiers.starts_with(".NE") ? x != y
                                                 : !(x == y || x != y);
    if (common && *common != result)
      return std::nullopt;
    common = result;
  }
  if (!modifiers.starts_with(".LT") && !modifiers.starts_with(".LE") &&
      !modifiers.starts_with(".GT") && !modifiers.starts_with(".GE") &&
      !modifiers.starts_with(".EQ") && !modifiers.starts_with(".NE"))
    return std::nullopt;
  return common;
}

Value getOperand(StringRef operand, const State &state,
                 const LaunchSample &sample) {
  if (operand.consume_front("-")) {
    Value value = getOperand(operand, state, sample);
    return value ? scale(value, -1) : std::nullopt;
  }
  if (operand.consume_front("~"))
    return exact({getOperand(operand, state, sample)},
                 [](auto x) { return int64_t(~int32_t(x[0])); });
  if (operand.starts_with("|"))
    return exact({getOperand(operand.trim("|"), state, sample)},
                 [](auto x) { return std::abs(int64_t(int32_t(x[0]))); });
  operand.consume_back(".reuse");
  if (operand == "RZ" || operand == "SRZ" || operand == "URZ")
    return LaneValue::known(0);
  // The block's width (c[0x0][0x0]) is the sample's, or taken as a
  // multiple of a warp; the grid's (c[0x0][0xc]) the sample's.
  if (operand == "c[0x0][0x0]" || operand == "c[0x0][RZ]")
    return sample.shape ? LaneValue::known(sample.shape->blockThreads)
                        : LaneValue::uniform(5, true);
  if (operand == "c[0x0][0xc]" && sample.shape)
    return LaneValue::known(sample.shape->gridBlocks);
  if (operand.starts_with("c["))
    return LaneValue::uniform();
  if (operand == "SR_TID.X" || operand == "SR_LANEID") {
    std::array<int64_t, kLanes> lanes;
    for (unsigned lane = 0; lane < kLanes; ++lane)
      lanes[lane] = lane + (operand == "SR_TID.X" ? sample.firstThread : 0);
    return LaneValue::perLane(lanes);
  }
  if (operand == "SR_CTAID.X" && sample.shape)
    return LaneValue::known(sample.block);
  if (operand == "SR_TID.Y" || operand == "SR_TID.Z")
    return LaneValue::known(0);
  if (operand.starts_with("SR_CTAID") || operand == "SR_CgaCtaId" ||
      operand == "SR_SWINHI")
    return LaneValue::uniform(0, true);
  if (std::optional<unsigned> reg = getRegister(operand)) {
    // A half of a register ("R2.H1") is not the integer it holds.
    if (operand.contains(".H"))
      return std::nullopt;
    return state[*reg];
  }
  int64_t constant = 0;
  if (operand.starts_with("0x")
          ? !operand.drop_front(2).getAsInteger(16, constant)
          : !operand.getAsInteger(10, constant))
    return LaneValue::known(constant);
  return std::nullopt;
}

Value evaluate(const Instruction &instruction, StringRef op,
               llvm::ArrayRef<Value> sources, bool pickMinimum) {
  StringRef modifiers = instruction.modifiers;
  auto source = [&](size_t i) -> Value {
    return i < sources.size() ? sources[i] : std::nullopt;
  };
  bool isUnsigned = modifiers.contains(".U32");
  if (op == "MOV" || op == "MOV32I" || op == "S2R")
    return source(0);
  if (op == "CS2R")
    return source(0) && source(0)->isKnown() ? source(0) : std::nullopt;
  if (op == "LDC")
    return source(0) && source(0)->isUniform() ? source(0)
                                               : LaneValue::uniform();
  if (op == "IMAD" && modifiers.contains(".HI"))
    return exact({source(0), source(1), source(2)}, [=](auto x) {
      int64_t high =
          isUnsigned
              ? int64_t((uint64_t(uint32_t(x[0])) * uint32_t(x[1])) >> 32)
              : (int64_t(int32_t(x[0])) * int32_t(x[1])) >> 32;
      return low32(high + x[2], false);
    });
  if (op == "IMAD" && !modifiers.contains(".X")) {
    // IMAD.WIDE.U32 multiplies the low words as unsigned integers.
    if (modifiers.contains(".WIDE") && isUnsigned && source(0) && source(1) &&
        source(0)->isKnown() && source(1)->isKnown())
      return add(exact({source(0), source(1)},
                       [](auto x) {
                         return int64_t(uint64_t(uint32_t(x[0])) *
                                        uint32_t(x[1]));
                       }),
                 source(2));
    return add(multiply(source(0), source(1)), source(2));
  }
  if ((op == "IADD3" || op == "VIADD") && !modifiers.contains(".X")) {
    Value sum = source(0);
    for (size_t i = 1; i < sources.size(); ++i)
      sum = add(sum, source(i));
    return sum;
  }
  if (op == "LEA" && !modifiers.contains(".HI") && !modifiers.contains(".X")) {
    Value shift = source(2);
    if (!shift || !shift->isKnown() || !shift->isUniform() ||
        *shift->base < 0 || *shift->base > 31)
      return std::nullopt;
    return add(scale(source(0), int64_t(1) << *shift->base), source(1));
  }
  // LEA.HI d, a, b, c, s: b plus the high word of (c:a) << s, as ptxas
  // rounds a signed division by 2^s (a is the dividend's sign).
  if (op == "LEA" && modifiers == ".HI" && source(2) &&
      source(2)->isConstant() && *source(2)->base == 0 && source(3) &&
      source(3)->isConstant())
    return add(shiftRight(source(0), LaneValue::known(32 - *source(3)->base),
                          /*isUnsigned=*/true),
               source(1));
  // LEA.HI.SX32 d, a, b, s: b plus a's high s bits, sign-extended.
  if (op == "LEA" && modifiers == ".HI.SX32" && source(2) &&
      source(2)->isConstant())
    return add(shiftRight(source(0), LaneValue::known(32 - *source(2)->base),
                          /*isUnsigned=*/false),
               source(1));
  if (op == "LEA" && modifiers == ".HI")
    return add(exact({source(0), source(2), source(3)},
                     [](auto x) {
                       uint64_t pair =
                           (uint64_t(uint32_t(x[1])) << 32) | uint32_t(x[0]);
                       return int64_t(
                           int32_t(uint32_t((pair << (x[2] & 63)) >> 32)));
                     }),
               source(1));
  if (op == "SHF" && modifiers.starts_with(".L.U32")) {
    Value shift = source(1);
    if (shift && shift->isKnown() && shift->isUniform() && *shift->base >= 0 &&
        *shift->base < 32)
      return scale(source(0), int64_t(1) << *shift->base);
    return exact({source(0), shift},
                 [](auto x) { return low32(x[0] << (x[1] & 31), false); });
  }
  if (op == "SHF" && modifiers.starts_with(".R.") &&
      modifiers.ends_with(".HI") && !modifiers.contains("64"))
    return shiftRight(source(2), source(1), modifiers.contains(".U32"));
  if (op == "LOP3" && sources.size() >= 4) {
    Value table = source(3);
    // a & constant, as ptxas writes it: LOP3.LUT d, a, 0x1f, RZ, 0xc0.
    if (table && table->isKnown() && *table->base == 0xc0 && source(2) &&
        source(2)->isKnown() && *source(2)->base == 0)
      return mask(source(0), source(1));
    if (Value sum = orAsAdd(source(0), source(1), source(2), table))
      return sum;
    return exact({source(0), source(1), source(2), table},
                 [](auto x) { return applyLut(x[0], x[1], x[2], x[3]); });
  }
  if (op == "IABS")
    return exact({source(0)},
                 [](auto x) { return std::abs(int64_t(int32_t(x[0]))); });
  // A clamp of an index whose base is unknown to a constant bound is taken
  // as not binding: kernels clamp to keep the addresses of lanes that do
  // not access memory in bounds (their guard is false).
  if ((op == "VIMNMX" || op == "IMNMX") && source(0) && source(1) &&
      !source(0)->isKnown() && source(1)->isConstant())
    return source(0);
  if (op == "VIMNMX" || op == "IMNMX")
    return exact({source(0), source(1)}, [=](auto x) {
      int64_t a = low32(x[0], isUnsigned), b = low32(x[1], isUnsigned);
      return pickMinimum ? std::min(a, b) : std::max(a, b);
    });
  if (op == "VIADDMNMX")
    return exact({source(0), source(1), source(2)}, [=](auto x) {
      int64_t a = low32(x[0] + x[1], isUnsigned), b = low32(x[2], isUnsigned);
      return pickMinimum ? std::min(a, b) : std::max(a, b);
    });
  if (op == "SEL")
    return source(0) && source(1) && *source(0) == *source(1) ? source(0)
                                                              : std::nullopt;
  if (op == "HFMA2.MMA" && instruction.operands.size() == 5 &&
      instruction.operands[1] == "-RZ" && instruction.operands[2] == "RZ") {
    std::optional<uint16_t> high = getHalfBits(instruction.operands[3]);
    std::optional<uint16_t> low = getHalfBits(instruction.operands[4]);
    if (high && low)
      return LaneValue::known(int32_t((uint32_t(*high) << 16) | *low));
  }
  // Any other operation on values common to the warp (PRMT, a 16-bit
  // sign extension of a stage index) gives every lane the same result;
  // an atomic returns each lane its own.
  bool isAtomic = op.starts_with("ATOM") || op == "RED";
  if (!isAtomic && !sources.empty() &&
      llvm::all_of(sources, [](const Value &v) { return v && v->isUniform(); }))
    return LaneValue::uniform();
  return std::nullopt;
}

unsigned getRegistersWritten(StringRef op, StringRef modifiers) {
  if (modifiers.contains(".128"))
    return 4;
  if (modifiers.contains(".64") || modifiers.contains(".WIDE") || op == "CS2R")
    return 2;
  return 1;
}

} // namespace mlir::ens::sass
