//===- MapEnsToScalarOp.cpp - ens ops as arith and math on scalars --------===//

#include "MapEnsToScalarOp.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

Value lowering::addScalar(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x.getType()) ? b.create<arith::AddFOp>(loc, x, y).getResult()
                              : b.create<arith::AddIOp>(loc, x, y).getResult();
}

Value lowering::mulScalar(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x.getType()) ? b.create<arith::MulFOp>(loc, x, y).getResult()
                              : b.create<arith::MulIOp>(loc, x, y).getResult();
}

Value lowering::maxScalar(OpBuilder &b, Location loc, Value x, Value y) {
  // arith.maximumf propagates NaN; arith.maxnumf would not.
  return isFloat(x.getType())
             ? b.create<arith::MaximumFOp>(loc, x, y).getResult()
             : b.create<arith::MaxSIOp>(loc, x, y).getResult();
}

/// Float to i32 as the interpreter does: toward zero, saturating, NaN to 0.
/// arith.fptosi alone is poison out of range, so the range is tested first.
static Value floatToI32(OpBuilder &b, Location loc, Value x, Type i32) {
  Type type = x.getType();
  Value isNan = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, x, x);
  Value tooHigh = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGE, x,
                                          scalar(b, loc, type, 2147483648.0));
  Value tooLow = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x,
                                         scalar(b, loc, type, -2147483648.0));
  Value converted = b.create<arith::FPToSIOp>(loc, i32, x);
  Value result = b.create<arith::SelectOp>(
      loc, tooHigh, scalar(b, loc, i32, std::numeric_limits<int32_t>::max()),
      converted);
  result = b.create<arith::SelectOp>(
      loc, tooLow, scalar(b, loc, i32, std::numeric_limits<int32_t>::min()),
      result);
  return b.create<arith::SelectOp>(loc, isNan, scalar(b, loc, i32, 0), result);
}

Value lowering::convertScalar(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1))
    return isa<FloatType>(from)
               ? b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, x,
                                         scalar(b, loc, from, 0))
                     .getResult()
               : b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x,
                                         scalar(b, loc, from, 0))
                     .getResult();
  if (isa<FloatType>(to)) {
    if (from.isInteger(1))
      return b.create<arith::UIToFPOp>(loc, to, x);
    if (from.isInteger(32))
      return b.create<arith::SIToFPOp>(loc, to, x);
    // f16 and bf16 have the same width, so neither arith.extf nor
    // arith.truncf converts between them; going through f32, which holds
    // both exactly, rounds once, as the interpreter does.
    if (from.getIntOrFloatBitWidth() == to.getIntOrFloatBitWidth())
      return b.create<arith::TruncFOp>(
          loc, to, b.create<arith::ExtFOp>(loc, b.getF32Type(), x));
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? b.create<arith::ExtFOp>(loc, to, x).getResult()
               : b.create<arith::TruncFOp>(loc, to, x).getResult();
  }
  // To i32.
  if (from.isInteger(1))
    return b.create<arith::ExtUIOp>(loc, to, x);
  return floatToI32(b, loc, x, to);
}

/// Ordered predicates, so that a comparison with NaN is false, except `ne`,
/// which is unordered so that it is true.
static arith::CmpFPredicate floatPredicate(CmpPredicate predicate) {
  switch (predicate) {
  case CmpPredicate::lt:
    return arith::CmpFPredicate::OLT;
  case CmpPredicate::le:
    return arith::CmpFPredicate::OLE;
  case CmpPredicate::gt:
    return arith::CmpFPredicate::OGT;
  case CmpPredicate::ge:
    return arith::CmpFPredicate::OGE;
  case CmpPredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case CmpPredicate::ne:
    return arith::CmpFPredicate::UNE;
  }
  llvm_unreachable("unknown predicate");
}

static arith::CmpIPredicate intPredicate(CmpPredicate predicate) {
  switch (predicate) {
  case CmpPredicate::lt:
    return arith::CmpIPredicate::slt;
  case CmpPredicate::le:
    return arith::CmpIPredicate::sle;
  case CmpPredicate::gt:
    return arith::CmpIPredicate::sgt;
  case CmpPredicate::ge:
    return arith::CmpIPredicate::sge;
  case CmpPredicate::eq:
    return arith::CmpIPredicate::eq;
  case CmpPredicate::ne:
    return arith::CmpIPredicate::ne;
  }
  llvm_unreachable("unknown predicate");
}

Value lowering::mapEnsOpToScalarOp(Operation *op, OpBuilder &b, Location loc,
                                   ValueRange args) {
  Type type = args[0].getType();
  bool f = isa<FloatType>(type);
  auto one = [&] { return scalar(b, loc, type, 1); };
  auto zero = [&] { return scalar(b, loc, type, 0); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) { return addScalar(b, loc, args[0], args[1]); })
      .Case([&](SubOp) -> Value {
        if (f)
          return b.create<arith::SubFOp>(loc, args[0], args[1]);
        return b.create<arith::SubIOp>(loc, args[0], args[1]);
      })
      .Case([&](MulOp) { return mulScalar(b, loc, args[0], args[1]); })
      .Case(
          [&](DivOp) { return b.create<arith::DivFOp>(loc, args[0], args[1]); })
      .Case([&](MaxOp) { return maxScalar(b, loc, args[0], args[1]); })
      .Case([&](MinOp) -> Value {
        if (f)
          return b.create<arith::MinimumFOp>(loc, args[0], args[1]);
        return b.create<arith::MinSIOp>(loc, args[0], args[1]);
      })
      .Case(
          [&](PowOp) { return b.create<math::PowFOp>(loc, args[0], args[1]); })
      .Case([&](NegOp) -> Value {
        if (f)
          return b.create<arith::NegFOp>(loc, args[0]);
        return b.create<arith::SubIOp>(loc, zero(), args[0]);
      })
      .Case([&](ExpOp) { return b.create<math::ExpOp>(loc, args[0]); })
      .Case([&](LogOp) { return b.create<math::LogOp>(loc, args[0]); })
      .Case([&](TanhOp) { return b.create<math::TanhOp>(loc, args[0]); })
      .Case([&](SigmoidOp) {
        Value e =
            b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, args[0]));
        return b.create<arith::DivFOp>(loc, one(),
                                       b.create<arith::AddFOp>(loc, one(), e));
      })
      .Case([&](ReluOp) {
        return b.create<arith::MaximumFOp>(loc, args[0], zero());
      })
      .Case([&](SqrtOp) { return b.create<math::SqrtOp>(loc, args[0]); })
      .Case([&](RsqrtOp) {
        return b.create<arith::DivFOp>(loc, one(),
                                       b.create<math::SqrtOp>(loc, args[0]));
      })
      .Case([&](AbsOp) -> Value {
        if (f)
          return b.create<math::AbsFOp>(loc, args[0]);
        // Not math.absi, which has no LLVM lowering in MLIR 19.
        Value negative = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                                 args[0], zero());
        return b.create<arith::SelectOp>(
            loc, negative, b.create<arith::SubIOp>(loc, zero(), args[0]),
            args[0]);
      })
      .Case([&](SquareOp) { return mulScalar(b, loc, args[0], args[0]); })
      .Case([&](CmpOp cmp) -> Value {
        if (f)
          return b.create<arith::CmpFOp>(
              loc, floatPredicate(cmp.getPredicate()), args[0], args[1]);
        return b.create<arith::CmpIOp>(loc, intPredicate(cmp.getPredicate()),
                                       args[0], args[1]);
      })
      .Case([&](SelectOp) {
        return b.create<arith::SelectOp>(loc, args[0], args[1], args[2]);
      })
      .Case([&](ConvertOp convert) {
        return convertScalar(b, loc, args[0],
                             convert.getType().getElementType());
      })
      .Default([](Operation *) -> Value {
        llvm_unreachable("an elementwise ens op without a scalar mapping");
      });
}
