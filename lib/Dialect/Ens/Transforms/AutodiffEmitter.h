//===- AutodiffEmitter.h - What the VJP rules are built from ----*- C++ -*-===//
//
// Private to lib/Dialect/Ens/Transforms: the emitter of the rules'
// arithmetic and the model that attaches a rule to an op, shared by the
// files of rules (AutodiffRules.cpp, WindowAutodiffRules.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_DIALECT_ENS_TRANSFORMS_AUTODIFFEMITTER_H
#define ENS_LIB_DIALECT_ENS_TRANSFORMS_AUTODIFFEMITTER_H

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"
#include "ens/Dialect/Ens/Interfaces/AutodiffOpInterface.h"

namespace mlir::ens::autodiff {

using Grads = FailureOr<SmallVector<Value>>;

inline ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Builds the arithmetic of the rules at one location.
class Emitter {
public:
  Emitter(OpBuilder &builder, Location loc) : b(builder), loc(loc) {}

  Value splat(Type type, double value) {
    auto tensorType = cast<RankedTensorType>(type);
    return b.create<ConstantOp>(
        loc,
        DenseElementsAttr::get(
            tensorType, b.getFloatAttr(tensorType.getElementType(), value)));
  }
  Value zerosLike(Value value) { return splat(value.getType(), 0); }
  Value add(Value x, Value y) { return b.create<AddOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.create<SubOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.create<MulOp>(loc, x, y); }
  Value div(Value x, Value y) { return b.create<DivOp>(loc, x, y); }
  Value neg(Value x) { return b.create<NegOp>(loc, x); }
  Value exp(Value x) { return b.create<ExpOp>(loc, x); }
  Value log(Value x) { return b.create<LogOp>(loc, x); }
  Value scale(Value x, double factor) {
    return mul(x, splat(x.getType(), factor));
  }
  Value cmp(CmpPredicate predicate, Value x, Value y) {
    return b.create<CmpOp>(loc, predicate, x, y);
  }
  /// `x <predicate> 0`.
  Value cmpZero(CmpPredicate predicate, Value x) {
    return cmp(predicate, x, zerosLike(x));
  }
  Value select(Value cond, Value x, Value y) {
    return b.create<SelectOp>(loc, cond, x, y);
  }
  /// `g` where `cond` holds, else 0.
  Value where(Value cond, Value g) { return select(cond, g, zerosLike(g)); }
  Value reduceSum(Value x, ArrayRef<int64_t> dims) {
    return b.create<ReduceSumOp>(loc, x, dims);
  }
  /// Broadcasts `reduced`, the result of reducing `dims` of a tensor of
  /// `type`, back to that type.
  Value unreduce(Value reduced, Type type, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> kept;
    for (int64_t d = 0, e = cast<RankedTensorType>(type).getRank(); d < e; ++d)
      if (!llvm::is_contained(dims, d))
        kept.push_back(d);
    return b.create<BroadcastInDimOp>(loc, type, reduced, kept);
  }
  Value reshape(Value x, Type type) {
    return x.getType() == type ? x : b.create<ReshapeOp>(loc, type, x);
  }
  Value einsum(Value x, Value y, const EinsumSpec &spec) {
    return b.create<EinsumOp>(loc, x, y, b.getStringAttr(spec.str()));
  }

  OpBuilder &b;
  Location loc;
};

/// A rule: the operands' adjoints of `op` given its result's adjoint `g`.
template <typename OpTy> using Rule = Grads (*)(OpTy op, Emitter &e, Value g);

template <typename OpTy, Rule<OpTy> rule>
struct VJP : AutodiffOpInterface::ExternalModel<VJP<OpTy, rule>, OpTy> {
  Grads vjp(Operation *op, OpBuilder &builder, ValueRange resultGrads) const {
    Emitter emitter(builder, op->getLoc());
    return rule(cast<OpTy>(op), emitter, resultGrads[0]);
  }
};

/// Attaches the rules of the sliding-window ops, conv and reduce_window.
void attachWindowVjpRules(MLIRContext *context);

} // namespace mlir::ens::autodiff

#endif // ENS_LIB_DIALECT_ENS_TRANSFORMS_AUTODIFFEMITTER_H
