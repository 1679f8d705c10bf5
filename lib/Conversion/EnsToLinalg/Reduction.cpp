//===- Reduction.cpp - Lowering ens reductions and softmax to linalg ------===//
//
// A reduction is a linalg.generic with reduction iterators over the reduced
// dimensions, accumulating into a tensor filled with the combiner's
// identity. logsumexp, softmax and log_softmax are computed stably from a
// maximum and a sum of shifted exponentials (docs/semantics.md).
//
//===----------------------------------------------------------------------===//

#include "MapEnsToScalarOp.h"
#include "Patterns.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

/// Reduces `x` over `dims` starting from `initValue` with `combine`.
static Value
reduce(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims,
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

/// The identity of the maximum: -inf, or the least i32 (the only integer
/// element type).
static double lowest(Type elementType) {
  return isa<FloatType>(elementType) ? -std::numeric_limits<double>::infinity()
                                     : std::numeric_limits<int32_t>::min();
}

static Value reduceSum(OpBuilder &b, Location loc, Value x,
                       ArrayRef<int64_t> dims) {
  return reduce(b, loc, x, dims, 0, addScalar);
}

static Value reduceMax(OpBuilder &b, Location loc, Value x,
                       ArrayRef<int64_t> dims) {
  return reduce(b, loc, x, dims, lowest(tensorType(x).getElementType()),
                maxScalar);
}

static FailureOr<Value>
lowerReduceSum(ReduceSumOp op, ReduceSumOp::Adaptor adaptor, OpBuilder &b) {
  return reduceSum(b, op.getLoc(), adaptor.getOperand(), op.getDims());
}

static FailureOr<Value>
lowerReduceMax(ReduceMaxOp op, ReduceMaxOp::Adaptor adaptor, OpBuilder &b) {
  return reduceMax(b, op.getLoc(), adaptor.getOperand(), op.getDims());
}

/// The sum divided by the number of elements reduced into each result.
static FailureOr<Value>
lowerReduceMean(ReduceMeanOp op, ReduceMeanOp::Adaptor adaptor, OpBuilder &b) {
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
static Value shiftedExpSum(OpBuilder &b, Location loc, Value x, Value max,
                           ArrayRef<int64_t> dims) {
  RankedTensorType type = tensorType(x);
  Value shifted =
      generic(b, loc, type, {x, max},
              {b.getMultiDimIdentityMap(type.getRank()),
               reducedMap(b, type.getRank(), dims)},
              [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                return nb.create<math::ExpOp>(
                    nloc, nb.create<arith::SubFOp>(nloc, args[0], args[1]));
              });
  return reduceSum(b, loc, shifted, dims);
}

/// max + log(sum(exp(x - max))).
static FailureOr<Value>
lowerLogsumexp(LogsumexpOp op, LogsumexpOp::Adaptor adaptor, OpBuilder &b) {
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

/// softmax (`exp(x - max) / sum`) or, with `log`, log_softmax
/// (`x - max - log(sum)`) along one dimension.
template <typename OpTy>
static Value softmaxLike(OpTy op, Value x, OpBuilder &b, bool log) {
  Location loc = op.getLoc();
  int64_t dim = op.getDim();
  RankedTensorType type = tensorType(x);
  Value max = reduceMax(b, loc, x, dim);
  Value sum = shiftedExpSum(b, loc, x, max, dim);
  AffineMap reduced = reducedMap(b, type.getRank(), dim);
  return generic(b, loc, type, {x, max, sum},
                 {b.getMultiDimIdentityMap(type.getRank()), reduced, reduced},
                 [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                   Value shifted =
                       nb.create<arith::SubFOp>(nloc, args[0], args[1]);
                   if (log)
                     return nb.create<arith::SubFOp>(
                         nloc, shifted, nb.create<math::LogOp>(nloc, args[2]));
                   return nb.create<arith::DivFOp>(
                       nloc, nb.create<math::ExpOp>(nloc, shifted), args[2]);
                 });
}

static FailureOr<Value> lowerSoftmax(SoftmaxOp op, SoftmaxOp::Adaptor adaptor,
                                     OpBuilder &b) {
  return softmaxLike(op, adaptor.getOperand(), b, /*log=*/false);
}

static FailureOr<Value>
lowerLogSoftmax(LogSoftmaxOp op, LogSoftmaxOp::Adaptor adaptor, OpBuilder &b) {
  return softmaxLike(op, adaptor.getOperand(), b, /*log=*/true);
}

void lowering::populateEnsToLinalgReductionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<OpLowering<ReduceSumOp, lowerReduceSum>,
               OpLowering<ReduceMaxOp, lowerReduceMax>,
               OpLowering<ReduceMeanOp, lowerReduceMean>,
               OpLowering<LogsumexpOp, lowerLogsumexp>,
               OpLowering<SoftmaxOp, lowerSoftmax>,
               OpLowering<LogSoftmaxOp, lowerLogSoftmax>>(
      patterns.getContext());
}
