//===- EnsToLinalg.cpp - Lowering ens to linalg on tensors ----------------===//
//
// Each ens op becomes the tensor-level structured form a backend tiles,
// fuses and bufferizes. Scalar semantics follow the reference interpreter
// exactly (docs/semantics.md): NaN-propagating max/min, saturating
// float-to-int conversion, clamped gather indices, stable softmax family.
//
//===----------------------------------------------------------------------===//

#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/IR/Contraction.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

namespace mlir::ens {
#define GEN_PASS_DEF_CONVERTENSTOLINALG
#include "ens/Conversion/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {

RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

bool isFloat(Type type) { return isa<FloatType>(getElementTypeOrSelf(type)); }

/// A scalar constant of `type` (float or integer).
Value scalar(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(floatType, value));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value index(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

/// A tensor of `type` filled with `value`.
Value filled(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  Value empty = b.create<tensor::EmptyOp>(loc, type.getShape(),
                                          type.getElementType());
  return b
      .create<linalg::FillOp>(loc, scalar(b, loc, type.getElementType(), value),
                              empty)
      .getResult(0);
}

using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// A linalg.generic over `resultType`'s index space: input i is read through
/// `inputMaps[i]`, the result with the identity; `body` maps the scalars of
/// the inputs to the result's.
Value generic(OpBuilder &b, Location loc, RankedTensorType resultType,
              ValueRange inputs, ArrayRef<AffineMap> inputMaps, BodyFn body) {
  unsigned rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = b.create<tensor::EmptyOp>(loc, resultType.getShape(),
                                         resultType.getElementType());
  return b
      .create<linalg::GenericOp>(
          loc, resultType, inputs, init, maps,
          SmallVector<utils::IteratorType>(rank,
                                           utils::IteratorType::parallel),
          [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            nested.create<linalg::YieldOp>(
                nestedLoc, body(nested, nestedLoc, args.drop_back()));
          })
      .getResult(0);
}

/// An elementwise linalg.generic: every input has the result's shape.
Value elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ValueRange inputs, BodyFn body) {
  SmallVector<AffineMap> maps(inputs.size(),
                              b.getMultiDimIdentityMap(resultType.getRank()));
  return generic(b, loc, resultType, inputs, maps, body);
}

/// The map reading a tensor reduced over `dims` (removed) from the index
/// space of the unreduced one of rank `rank`.
AffineMap reducedMap(OpBuilder &b, unsigned rank, ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> results;
  for (unsigned d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      results.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(rank, 0, results, b.getContext());
}

/// Reduces `x` over `dims` starting from `initValue` with `combine`.
Value reduce(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims,
             double initValue,
             function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  RankedTensorType type = tensorType(x);
  SmallVector<int64_t> shape;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    bool reduced = llvm::is_contained(dims, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced)
      shape.push_back(type.getDimSize(d));
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  Value init = filled(b, loc, resultType, initValue);
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(type.getRank()),
                              reducedMap(b, type.getRank(), dims)};
  return b
      .create<linalg::GenericOp>(
          loc, resultType, x, init, maps, iterators,
          [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            nested.create<linalg::YieldOp>(
                nestedLoc, combine(nested, nestedLoc, args[1], args[0]));
          })
      .getResult(0);
}

double lowest(Type elementType) {
  return isa<FloatType>(elementType) ? -std::numeric_limits<double>::infinity()
                                     : std::numeric_limits<int32_t>::min();
}

Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x.getType()) ? b.create<arith::AddFOp>(loc, x, y).getResult()
                              : b.create<arith::AddIOp>(loc, x, y).getResult();
}

Value maximum(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x.getType())
             ? b.create<arith::MaximumFOp>(loc, x, y).getResult()
             : b.create<arith::MaxSIOp>(loc, x, y).getResult();
}

Value reduceSum(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims) {
  return reduce(b, loc, x, dims, 0, add);
}

Value reduceMax(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims) {
  return reduce(b, loc, x, dims, lowest(tensorType(x).getElementType()),
                maximum);
}

//===----------------------------------------------------------------------===//
// Scalar semantics of elementwise ops
//===----------------------------------------------------------------------===//

/// Float to i32 as the interpreter does: toward zero, saturating, NaN to 0.
Value floatToI32(OpBuilder &b, Location loc, Value x, Type i32) {
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

Value convertScalar(OpBuilder &b, Location loc, Value x, Type to) {
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
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? b.create<arith::ExtFOp>(loc, to, x).getResult()
               : b.create<arith::TruncFOp>(loc, to, x).getResult();
  }
  // To i32.
  if (from.isInteger(1))
    return b.create<arith::ExtUIOp>(loc, to, x);
  return floatToI32(b, loc, x, to);
}

arith::CmpFPredicate floatPredicate(CmpPredicate predicate) {
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

arith::CmpIPredicate intPredicate(CmpPredicate predicate) {
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

/// The scalar computation of elementwise `op` on scalar `args`.
Value elementwiseScalar(Operation *op, OpBuilder &b, Location loc,
                        ValueRange args) {
  Type type = args[0].getType();
  bool f = isa<FloatType>(type);
  auto one = [&] { return scalar(b, loc, type, 1); };
  auto zero = [&] { return scalar(b, loc, type, 0); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) { return add(b, loc, args[0], args[1]); })
      .Case([&](SubOp) -> Value {
        if (f)
          return b.create<arith::SubFOp>(loc, args[0], args[1]);
        return b.create<arith::SubIOp>(loc, args[0], args[1]);
      })
      .Case([&](MulOp) -> Value {
        if (f)
          return b.create<arith::MulFOp>(loc, args[0], args[1]);
        return b.create<arith::MulIOp>(loc, args[0], args[1]);
      })
      .Case([&](DivOp) {
        return b.create<arith::DivFOp>(loc, args[0], args[1]);
      })
      .Case([&](MaxOp) { return maximum(b, loc, args[0], args[1]); })
      .Case([&](MinOp) -> Value {
        if (f)
          return b.create<arith::MinimumFOp>(loc, args[0], args[1]);
        return b.create<arith::MinSIOp>(loc, args[0], args[1]);
      })
      .Case([&](PowOp) {
        return b.create<math::PowFOp>(loc, args[0], args[1]);
      })
      .Case([&](NegOp) -> Value {
        if (f)
          return b.create<arith::NegFOp>(loc, args[0]);
        return b.create<arith::SubIOp>(loc, zero(), args[0]);
      })
      .Case([&](ExpOp) { return b.create<math::ExpOp>(loc, args[0]); })
      .Case([&](LogOp) { return b.create<math::LogOp>(loc, args[0]); })
      .Case([&](TanhOp) { return b.create<math::TanhOp>(loc, args[0]); })
      .Case([&](SigmoidOp) {
        Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, args[0]));
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
        Value negative = b.create<arith::CmpIOp>(
            loc, arith::CmpIPredicate::slt, args[0], zero());
        return b.create<arith::SelectOp>(
            loc, negative, b.create<arith::SubIOp>(loc, zero(), args[0]),
            args[0]);
      })
      .Case([&](SquareOp) -> Value {
        if (f)
          return b.create<arith::MulFOp>(loc, args[0], args[0]);
        return b.create<arith::MulIOp>(loc, args[0], args[0]);
      })
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
      });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Every op with the Elementwise trait.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(MLIRContext *context)
      : ConversionPattern(MatchAnyOpTypeTag(), 1, context) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<EnsDialect>(op->getDialect()) ||
        !op->hasTrait<mlir::OpTrait::Elementwise>())
      return failure();
    rewriter.replaceOp(
        op, elementwise(rewriter, op->getLoc(), tensorType(op->getResult(0)),
                        operands,
                        [&](OpBuilder &b, Location loc, ValueRange args) {
                          return elementwiseScalar(op, b, loc, args);
                        }));
    return success();
  }
};

template <typename OpTy>
struct Lowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> result = lower(op, adaptor, rewriter);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
  /// Emits the lowered form of `op`; defined per op below.
  FailureOr<Value> lower(OpTy op, Adaptor adaptor, OpBuilder &b) const;
};

template <>
FailureOr<Value> Lowering<ConstantOp>::lower(ConstantOp op, Adaptor,
                                             OpBuilder &b) const {
  return b.create<arith::ConstantOp>(op.getLoc(), op.getValue()).getResult();
}

template <>
FailureOr<Value>
Lowering<BroadcastInDimOp>::lower(BroadcastInDimOp op, Adaptor adaptor,
                                  OpBuilder &b) const {
  RankedTensorType result = op.getType();
  ArrayRef<int64_t> operandShape = tensorType(adaptor.getOperand()).getShape();
  SmallVector<AffineExpr> exprs;
  for (auto [i, d] : llvm::enumerate(op.getDims()))
    exprs.push_back(operandShape[i] == 1 && result.getDimSize(d) != 1
                        ? b.getAffineConstantExpr(0)
                        : b.getAffineDimExpr(d));
  AffineMap map = AffineMap::get(result.getRank(), 0, exprs, b.getContext());
  return generic(b, op.getLoc(), result, adaptor.getOperand(), map,
                 [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

/// A row-major reshape: collapse to one dimension (none for a scalar), then
/// expand.
Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType type) {
  RankedTensorType from = tensorType(x);
  if (from == type)
    return x;
  // Grouping every dim of a tensor of `rank` into one dim, or none to or
  // from a scalar.
  auto allInOne = [](int64_t rank, bool scalar) {
    if (scalar)
      return SmallVector<ReassociationIndices>{};
    ReassociationIndices group;
    for (int64_t d = 0; d < rank; ++d)
      group.push_back(d);
    return SmallVector<ReassociationIndices>{group};
  };
  if (from.getRank() > 1 || type.getRank() == 0)
    x = b.create<tensor::CollapseShapeOp>(
        loc, x, allInOne(from.getRank(), type.getRank() == 0));
  if (tensorType(x) == type)
    return x;
  return b.create<tensor::ExpandShapeOp>(
      loc, type, x, allInOne(type.getRank(), tensorType(x).getRank() == 0));
}

template <>
FailureOr<Value> Lowering<ReshapeOp>::lower(ReshapeOp op, Adaptor adaptor,
                                            OpBuilder &b) const {
  return reshapeTo(b, op.getLoc(), adaptor.getOperand(), op.getType());
}

template <>
FailureOr<Value> Lowering<TransposeOp>::lower(TransposeOp op, Adaptor adaptor,
                                              OpBuilder &b) const {
  RankedTensorType type = op.getType();
  Value init = b.create<tensor::EmptyOp>(op.getLoc(), type.getShape(),
                                         type.getElementType());
  return b
      .create<linalg::TransposeOp>(op.getLoc(), adaptor.getOperand(), init,
                                   op.getPermutation())
      .getResult()[0];
}

template <>
FailureOr<Value> Lowering<SliceOp>::lower(SliceOp op, Adaptor adaptor,
                                          OpBuilder &b) const {
  return b
      .create<tensor::ExtractSliceOp>(
          op.getLoc(), op.getType(), adaptor.getOperand(), ValueRange{},
          ValueRange{}, ValueRange{}, op.getStart(), op.getType().getShape(),
          op.getStride())
      .getResult();
}

Value insertSlice(OpBuilder &b, Location loc, Value source, Value into,
                  ArrayRef<int64_t> offsets, ArrayRef<int64_t> strides) {
  return b.create<tensor::InsertSliceOp>(loc, source, into, ValueRange{},
                                         ValueRange{}, ValueRange{}, offsets,
                                         tensorType(source).getShape(),
                                         strides);
}

template <>
FailureOr<Value> Lowering<PadOp>::lower(PadOp op, Adaptor adaptor,
                                        OpBuilder &b) const {
  SmallVector<int64_t> strides;
  for (int64_t interior : op.getInterior())
    strides.push_back(interior + 1);
  return insertSlice(b, op.getLoc(), adaptor.getOperand(),
                     filled(b, op.getLoc(), op.getType(), 0), op.getLow(),
                     strides);
}

template <>
FailureOr<Value> Lowering<ConcatOp>::lower(ConcatOp op, Adaptor adaptor,
                                           OpBuilder &b) const {
  RankedTensorType type = op.getType();
  Value result = b.create<tensor::EmptyOp>(op.getLoc(), type.getShape(),
                                           type.getElementType());
  SmallVector<int64_t> offsets(type.getRank(), 0), strides(type.getRank(), 1);
  for (Value input : adaptor.getInputs()) {
    result = insertSlice(b, op.getLoc(), input, result, offsets, strides);
    offsets[op.getDim()] += tensorType(input).getDimSize(op.getDim());
  }
  return result;
}

/// The index of `indices` at `position`, clamped to [0, rows - 1].
Value clampedRow(OpBuilder &b, Location loc, Value indices,
                 ValueRange position, int64_t rows) {
  Value row = b.create<arith::IndexCastOp>(
      loc, b.getIndexType(), b.create<tensor::ExtractOp>(loc, indices, position));
  row = b.create<arith::MaxSIOp>(loc, row, index(b, loc, 0));
  return b.create<arith::MinSIOp>(loc, row, index(b, loc, rows - 1));
}

template <>
FailureOr<Value> Lowering<TakeOp>::lower(TakeOp op, Adaptor adaptor,
                                         OpBuilder &b) const {
  int64_t axis = op.getAxis();
  int64_t indexRank = tensorType(adaptor.getIndices()).getRank();
  int64_t rows = tensorType(adaptor.getTable()).getDimSize(axis);
  Value table = adaptor.getTable(), indices = adaptor.getIndices();
  return generic(
      b, op.getLoc(), op.getType(), {}, {},
      [&](OpBuilder &nb, Location loc, ValueRange) -> Value {
        SmallVector<Value> at;
        for (int64_t d = 0; d < op.getType().getRank(); ++d)
          at.push_back(nb.create<linalg::IndexOp>(loc, d));
        ArrayRef<Value> all(at);
        SmallVector<Value> source(all.take_front(axis));
        source.push_back(clampedRow(nb, loc, indices,
                                    all.slice(axis, indexRank), rows));
        source.append(all.begin() + axis + indexRank, all.end());
        return nb.create<tensor::ExtractOp>(loc, table, source);
      });
}

template <>
FailureOr<Value> Lowering<ScatterAddOp>::lower(ScatterAddOp op,
                                               Adaptor adaptor,
                                               OpBuilder &b) const {
  Location loc = op.getLoc();
  int64_t axis = op.getAxis();
  Value updates = adaptor.getUpdates(), indices = adaptor.getIndices();
  int64_t indexRank = tensorType(indices).getRank();
  int64_t rows = op.getType().getDimSize(axis);
  SmallVector<Value> lower, upper, steps;
  for (int64_t size : tensorType(updates).getShape()) {
    lower.push_back(index(b, loc, 0));
    upper.push_back(index(b, loc, size));
    steps.push_back(index(b, loc, 1));
  }
  // Accumulates in order, so repeated indices add up; not parallel.
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lower, upper, steps, filled(b, loc, op.getType(), 0),
      [&](OpBuilder &nb, Location nloc, ValueRange at,
          ValueRange accumulated) -> scf::ValueVector {
        SmallVector<Value> target(at.take_front(axis));
        target.push_back(clampedRow(nb, nloc, indices,
                                    at.slice(axis, indexRank), rows));
        target.append(at.begin() + axis + indexRank, at.end());
        Value sum = add(nb, nloc,
                        nb.create<tensor::ExtractOp>(nloc, accumulated[0],
                                                     target),
                        nb.create<tensor::ExtractOp>(nloc, updates, at));
        return {nb.create<tensor::InsertOp>(nloc, sum, accumulated[0], target)};
      });
  return nest.results.front();
}

template <>
FailureOr<Value> Lowering<OneHotOp>::lower(OneHotOp op, Adaptor adaptor,
                                           OpBuilder &b) const {
  RankedTensorType type = op.getType();
  int64_t rank = type.getRank();
  AffineMap map = reducedMap(b, rank, {rank - 1});
  return generic(b, op.getLoc(), type, adaptor.getIndices(), map,
                 [&](OpBuilder &nb, Location loc, ValueRange args) -> Value {
                   Value hot = nb.create<arith::IndexCastOp>(
                       loc, nb.getIndexType(), args[0]);
                   Value position = nb.create<linalg::IndexOp>(loc, rank - 1);
                   Value isHot = nb.create<arith::CmpIOp>(
                       loc, arith::CmpIPredicate::eq, hot, position);
                   Type element = type.getElementType();
                   return nb.create<arith::SelectOp>(
                       loc, isHot, scalar(nb, loc, element, 1),
                       scalar(nb, loc, element, 0));
                 });
}

template <>
FailureOr<Value> Lowering<ReduceSumOp>::lower(ReduceSumOp op, Adaptor adaptor,
                                              OpBuilder &b) const {
  return reduceSum(b, op.getLoc(), adaptor.getOperand(), op.getDims());
}

template <>
FailureOr<Value> Lowering<ReduceMaxOp>::lower(ReduceMaxOp op, Adaptor adaptor,
                                              OpBuilder &b) const {
  return reduceMax(b, op.getLoc(), adaptor.getOperand(), op.getDims());
}

template <>
FailureOr<Value> Lowering<ReduceMeanOp>::lower(ReduceMeanOp op,
                                               Adaptor adaptor,
                                               OpBuilder &b) const {
  Location loc = op.getLoc();
  int64_t count = 1;
  for (int64_t d : op.getDims())
    count *= tensorType(adaptor.getOperand()).getDimSize(d);
  Value sum = reduceSum(b, loc, adaptor.getOperand(), op.getDims());
  return elementwise(b, loc, op.getType(), sum,
                     [&](OpBuilder &nb, Location nloc, ValueRange args) {
                       return nb.create<arith::DivFOp>(
                           nloc, args[0],
                           scalar(nb, nloc, args[0].getType(), count));
                     });
}

/// sum(exp(x - max)) over `dims`, with `max` reduced over them.
Value shiftedExpSum(OpBuilder &b, Location loc, Value x, Value max,
                    ArrayRef<int64_t> dims) {
  RankedTensorType type = tensorType(x);
  Value shifted = generic(
      b, loc, type, {x, max},
      {b.getMultiDimIdentityMap(type.getRank()),
       reducedMap(b, type.getRank(), dims)},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return nb.create<math::ExpOp>(
            nloc, nb.create<arith::SubFOp>(nloc, args[0], args[1]));
      });
  return reduceSum(b, loc, shifted, dims);
}

template <>
FailureOr<Value> Lowering<LogsumexpOp>::lower(LogsumexpOp op, Adaptor adaptor,
                                              OpBuilder &b) const {
  Location loc = op.getLoc();
  Value x = adaptor.getOperand();
  Value max = reduceMax(b, loc, x, op.getDims());
  Value sum = shiftedExpSum(b, loc, x, max, op.getDims());
  return elementwise(
      b, loc, op.getType(), {max, sum},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        // An infinite maximum is the result itself (exp would give NaN).
        Value isInf = nb.create<arith::CmpFOp>(
            nloc, arith::CmpFPredicate::OEQ,
            nb.create<math::AbsFOp>(nloc, args[0]),
            scalar(nb, nloc, args[0].getType(),
                   std::numeric_limits<double>::infinity()));
        Value finite = nb.create<arith::AddFOp>(
            nloc, args[0], nb.create<math::LogOp>(nloc, args[1]));
        return nb.create<arith::SelectOp>(nloc, isInf, args[0], finite);
      });
}

/// softmax and log_softmax along one dimension.
template <typename OpTy>
Value softmaxLike(OpTy op, Value x, OpBuilder &b, bool log) {
  Location loc = op.getLoc();
  int64_t dim = op.getDim();
  RankedTensorType type = tensorType(x);
  Value max = reduceMax(b, loc, x, dim);
  Value sum = shiftedExpSum(b, loc, x, max, dim);
  AffineMap reduced = reducedMap(b, type.getRank(), dim);
  return generic(
      b, loc, type, {x, max, sum},
      {b.getMultiDimIdentityMap(type.getRank()), reduced, reduced},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value shifted = nb.create<arith::SubFOp>(nloc, args[0], args[1]);
        if (log)
          return nb.create<arith::SubFOp>(
              nloc, shifted, nb.create<math::LogOp>(nloc, args[2]));
        return nb.create<arith::DivFOp>(
            nloc, nb.create<math::ExpOp>(nloc, shifted), args[2]);
      });
}

template <>
FailureOr<Value> Lowering<SoftmaxOp>::lower(SoftmaxOp op, Adaptor adaptor,
                                            OpBuilder &b) const {
  return softmaxLike(op, adaptor.getOperand(), b, /*log=*/false);
}

template <>
FailureOr<Value> Lowering<LogSoftmaxOp>::lower(LogSoftmaxOp op,
                                               Adaptor adaptor,
                                               OpBuilder &b) const {
  return softmaxLike(op, adaptor.getOperand(), b, /*log=*/true);
}

/// einsum, tensordot and matmul: one linalg.generic over the output labels
/// (parallel) and the summed labels (reduction), in the shared einsum form.
template <typename OpTy>
FailureOr<Value> lowerContraction(OpTy op, Value lhs, Value rhs,
                                  OpBuilder &b) {
  FailureOr<EinsumForm> form = getEinsumForm(op);
  if (failed(form))
    return failure();
  Location loc = op.getLoc();
  auto dropped = [&](Value x, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> shape;
    for (auto [d, size] : llvm::enumerate(tensorType(x).getShape()))
      if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
        shape.push_back(size);
    return reshapeTo(b, loc, x,
                     RankedTensorType::get(shape,
                                           tensorType(x).getElementType()));
  };
  lhs = dropped(lhs, form->lhsDropped);
  rhs = dropped(rhs, form->rhsDropped);
  const EinsumSpec &spec = form->spec;
  std::string labels = spec.out;
  for (char c : spec.lhs + spec.rhs)
    if (labels.find(c) == std::string::npos)
      labels.push_back(c);
  auto mapOf = [&](StringRef operandLabels) {
    SmallVector<AffineExpr> exprs;
    for (char c : operandLabels)
      exprs.push_back(b.getAffineDimExpr(labels.find(c)));
    return AffineMap::get(labels.size(), 0, exprs, b.getContext());
  };
  SmallVector<utils::IteratorType> iterators;
  for (size_t i = 0; i < labels.size(); ++i)
    iterators.push_back(i < spec.out.size() ? utils::IteratorType::parallel
                                            : utils::IteratorType::reduction);
  RankedTensorType type = op.getType();
  Value init = filled(b, loc, type, 0);
  return b
      .create<linalg::GenericOp>(
          loc, type, ValueRange{lhs, rhs}, init,
          SmallVector<AffineMap>{mapOf(spec.lhs), mapOf(spec.rhs),
                                 mapOf(spec.out)},
          iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value product =
                isFloat(args[0].getType())
                    ? nb.create<arith::MulFOp>(nloc, args[0], args[1])
                          .getResult()
                    : nb.create<arith::MulIOp>(nloc, args[0], args[1])
                          .getResult();
            nb.create<linalg::YieldOp>(nloc,
                                       add(nb, nloc, args[2], product));
          })
      .getResult(0);
}

template <>
FailureOr<Value> Lowering<EinsumOp>::lower(EinsumOp op, Adaptor adaptor,
                                           OpBuilder &b) const {
  return lowerContraction(op, adaptor.getLhs(), adaptor.getRhs(), b);
}

template <>
FailureOr<Value> Lowering<TensordotOp>::lower(TensordotOp op, Adaptor adaptor,
                                              OpBuilder &b) const {
  return lowerContraction(op, adaptor.getLhs(), adaptor.getRhs(), b);
}

template <>
FailureOr<Value> Lowering<MatmulOp>::lower(MatmulOp op, Adaptor adaptor,
                                           OpBuilder &b) const {
  return lowerContraction(op, adaptor.getLhs(), adaptor.getRhs(), b);
}

//===----------------------------------------------------------------------===//
// Random numbers: Threefry-2x32 inline, as ref::threefry2x32
//===----------------------------------------------------------------------===//

/// Threefry-2x32 (20 rounds) of `key` and `counter` on i32 scalars.
std::pair<Value, Value> threefry(OpBuilder &b, Location loc,
                                 std::pair<Value, Value> key,
                                 std::pair<Value, Value> counter) {
  static constexpr int kRotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  Type i32 = b.getI32Type();
  auto c = [&](uint32_t value) {
    return b.create<arith::ConstantOp>(
        loc, b.getIntegerAttr(i32, static_cast<int32_t>(value)));
  };
  Value ks[3] = {key.first, key.second,
                 b.create<arith::XOrIOp>(
                     loc, b.create<arith::XOrIOp>(loc, key.first, key.second),
                     c(0x1BD11BDA))};
  Value x0 = b.create<arith::AddIOp>(loc, counter.first, ks[0]);
  Value x1 = b.create<arith::AddIOp>(loc, counter.second, ks[1]);
  for (uint32_t group = 0; group < 5; ++group) {
    for (int rotation : kRotations[group % 2]) {
      x0 = b.create<arith::AddIOp>(loc, x0, x1);
      x1 = b.create<arith::OrIOp>(
          loc, b.create<arith::ShLIOp>(loc, x1, c(rotation)),
          b.create<arith::ShRUIOp>(loc, x1, c(32 - rotation)));
      x1 = b.create<arith::XOrIOp>(loc, x1, x0);
    }
    x0 = b.create<arith::AddIOp>(loc, x0, ks[(group + 1) % 3]);
    x1 = b.create<arith::AddIOp>(
        loc, b.create<arith::AddIOp>(loc, x1, ks[(group + 2) % 3]),
        c(group + 1));
  }
  return {x0, x1};
}

/// The key at the leading indices `at` of a key tensor.
std::pair<Value, Value> keyAt(OpBuilder &b, Location loc, Value keys,
                              ArrayRef<Value> at) {
  SmallVector<Value> first(at), second(at);
  first.push_back(index(b, loc, 0));
  second.push_back(index(b, loc, 1));
  return {b.create<tensor::ExtractOp>(loc, keys, first),
          b.create<tensor::ExtractOp>(loc, keys, second)};
}

/// The row-major linear index of dims [from, rank) as i32.
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  ArrayRef<Value> at, int64_t from) {
  Value linear = index(b, loc, 0);
  for (int64_t d = from; d < static_cast<int64_t>(shape.size()); ++d)
    linear = b.create<arith::AddIOp>(
        loc, b.create<arith::MulIOp>(loc, linear, index(b, loc, shape[d])),
        at[d]);
  return b.create<arith::IndexCastOp>(loc, b.getI32Type(), linear);
}

SmallVector<Value> indices(OpBuilder &b, Location loc, int64_t rank) {
  SmallVector<Value> at;
  for (int64_t d = 0; d < rank; ++d)
    at.push_back(b.create<linalg::IndexOp>(loc, d));
  return at;
}

/// A uniform in [0, 1) from random bits, as ref::randomDraw.
Value uniformFromBits(OpBuilder &b, Location loc, Value w0, Value w1,
                      Type type) {
  if (type.isF64()) {
    Type i64 = b.getI64Type();
    Value high = b.create<arith::ShLIOp>(
        loc, b.create<arith::ExtUIOp>(loc, i64, w0),
        b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(32)));
    Value word = b.create<arith::OrIOp>(loc, high,
                                        b.create<arith::ExtUIOp>(loc, i64, w1));
    Value mantissa = b.create<arith::ShRUIOp>(
        loc, word, b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(12)));
    return b.create<arith::MulFOp>(
        loc, b.create<arith::UIToFPOp>(loc, type, mantissa),
        scalar(b, loc, type, 0x1p-52));
  }
  Value mantissa = b.create<arith::ShRUIOp>(
      loc, w0, b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(9)));
  Value value = b.create<arith::MulFOp>(
      loc, b.create<arith::UIToFPOp>(loc, b.getF64Type(), mantissa),
      scalar(b, loc, b.getF64Type(), 0x1p-23));
  return convertScalar(b, loc, value, type);
}

/// A standard normal from random bits by Box-Muller, in double as
/// ref::randomDraw, rounded to `type`.
Value normalFromBits(OpBuilder &b, Location loc, Value w0, Value w1,
                     Type type) {
  Type f64 = b.getF64Type();
  auto open = [&](Value word) -> Value {
    Value value = b.create<arith::UIToFPOp>(loc, f64, word);
    return b.create<arith::MulFOp>(
        loc, b.create<arith::AddFOp>(loc, value, scalar(b, loc, f64, 0.5)),
        scalar(b, loc, f64, 0x1p-32));
  };
  Value radius = b.create<math::SqrtOp>(
      loc, b.create<arith::MulFOp>(loc, scalar(b, loc, f64, -2),
                                   b.create<math::LogOp>(loc, open(w0))));
  Value angle = b.create<arith::MulFOp>(loc, scalar(b, loc, f64, 2 * M_PI),
                                        open(w1));
  return convertScalar(
      b, loc,
      b.create<arith::MulFOp>(loc, radius, b.create<math::CosOp>(loc, angle)),
      type);
}

template <typename OpTy>
Value lowerDraw(OpTy op, Value keys, OpBuilder &b, bool normal) {
  RankedTensorType type = op.getType();
  int64_t keyRank = tensorType(keys).getRank() - 1;
  return generic(
      b, op.getLoc(), type, {}, {},
      [&](OpBuilder &nb, Location loc, ValueRange) -> Value {
        SmallVector<Value> at = indices(nb, loc, type.getRank());
        auto key = keyAt(nb, loc, keys, ArrayRef<Value>(at).take_front(keyRank));
        Value counter = linearIndex(nb, loc, type.getShape(), at, keyRank);
        auto [w0, w1] = threefry(
            nb, loc, key,
            {scalar(nb, loc, nb.getI32Type(), 0), counter});
        Type element = type.getElementType();
        return normal ? normalFromBits(nb, loc, w0, w1, element)
                      : uniformFromBits(nb, loc, w0, w1, element);
      });
}

template <>
FailureOr<Value> Lowering<RandomUniformOp>::lower(RandomUniformOp op,
                                                  Adaptor adaptor,
                                                  OpBuilder &b) const {
  return lowerDraw(op, adaptor.getKey(), b, /*normal=*/false);
}

template <>
FailureOr<Value> Lowering<RandomNormalOp>::lower(RandomNormalOp op,
                                                 Adaptor adaptor,
                                                 OpBuilder &b) const {
  return lowerDraw(op, adaptor.getKey(), b, /*normal=*/true);
}

/// A key tensor whose key at the leading indices comes from
/// `derive(indices)`; the last dimension selects the word.
Value deriveKeys(OpBuilder &b, Location loc, RankedTensorType type,
                 function_ref<std::pair<Value, Value>(OpBuilder &, Location,
                                                      ArrayRef<Value>)>
                     derive) {
  return generic(b, loc, type, {}, {},
                 [&](OpBuilder &nb, Location nloc, ValueRange) -> Value {
                   SmallVector<Value> at = indices(nb, nloc, type.getRank());
                   auto [w0, w1] =
                       derive(nb, nloc, ArrayRef<Value>(at).drop_back());
                   Value second = nb.create<arith::CmpIOp>(
                       nloc, arith::CmpIPredicate::eq, at.back(),
                       index(nb, nloc, 1));
                   return nb.create<arith::SelectOp>(nloc, second, w1, w0);
                 });
}

template <>
FailureOr<Value> Lowering<RandomSplitOp>::lower(RandomSplitOp op,
                                                Adaptor adaptor,
                                                OpBuilder &b) const {
  Value keys = adaptor.getKey();
  return deriveKeys(b, op.getLoc(), op.getType(),
                    [&](OpBuilder &nb, Location loc, ArrayRef<Value> at) {
                      Value j = nb.create<arith::IndexCastOp>(
                          loc, nb.getI32Type(), at.back());
                      return threefry(nb, loc,
                                      keyAt(nb, loc, keys, at.drop_back()),
                                      {scalar(nb, loc, nb.getI32Type(), 1), j});
                    });
}

template <>
FailureOr<Value> Lowering<RandomFoldInOp>::lower(RandomFoldInOp op,
                                                 Adaptor adaptor,
                                                 OpBuilder &b) const {
  Value keys = adaptor.getKey(), data = adaptor.getData();
  return deriveKeys(b, op.getLoc(), op.getType(),
                    [&](OpBuilder &nb, Location loc, ArrayRef<Value> at) {
                      Value d = nb.create<tensor::ExtractOp>(loc, data, at);
                      return threefry(nb, loc, keyAt(nb, loc, keys, at),
                                      {scalar(nb, loc, nb.getI32Type(), 2), d});
                    });
}

struct ConvertEnsToLinalgPass
    : ens::impl::ConvertEnsToLinalgBase<ConvertEnsToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addIllegalDialect<EnsDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect, func::FuncDialect>();
    RewritePatternSet patterns(context);
    patterns.add<ElementwiseLowering, Lowering<ConstantOp>,
                 Lowering<BroadcastInDimOp>, Lowering<ReshapeOp>,
                 Lowering<TransposeOp>, Lowering<SliceOp>, Lowering<PadOp>,
                 Lowering<ConcatOp>, Lowering<TakeOp>, Lowering<ScatterAddOp>,
                 Lowering<OneHotOp>, Lowering<ReduceSumOp>,
                 Lowering<ReduceMaxOp>, Lowering<ReduceMeanOp>,
                 Lowering<LogsumexpOp>, Lowering<SoftmaxOp>,
                 Lowering<LogSoftmaxOp>, Lowering<EinsumOp>,
                 Lowering<TensordotOp>, Lowering<MatmulOp>,
                 Lowering<RandomUniformOp>, Lowering<RandomNormalOp>,
                 Lowering<RandomSplitOp>, Lowering<RandomFoldInOp>>(context);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
