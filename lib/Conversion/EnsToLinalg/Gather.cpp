//===- Gather.cpp - Lowering ens indexing ops to linalg -------------------===//
//
// Ops that address elements by index. An index out of range is clamped to
// the nearest row for take and scatter_add, and gives a row of zeros for
// one_hot (docs/semantics.md), so no lowering here reads or writes out of
// bounds.
//
//===----------------------------------------------------------------------===//

#include "MapEnsToScalarOp.h"
#include "Patterns.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

/// The index of `indices` at `position`, clamped to [0, rows - 1].
static Value clampedRow(OpBuilder &b, Location loc, Value indices,
                        ValueRange position, int64_t rows) {
  Value row = b.create<arith::IndexCastOp>(
      loc, b.getIndexType(),
      b.create<tensor::ExtractOp>(loc, indices, position));
  row = b.create<arith::MaxSIOp>(loc, row, index(b, loc, 0));
  return b.create<arith::MinSIOp>(loc, row, index(b, loc, rows - 1));
}

/// A generic with no inputs: each result element reads the table through
/// tensor.extract, at its own indices with the `axis` one replaced by the
/// clamped index that the index dimensions select.
static FailureOr<Value> lowerTake(TakeOp op, TakeOp::Adaptor adaptor,
                                  OpBuilder &b) {
  int64_t axis = op.getAxis();
  int64_t indexRank = tensorType(adaptor.getIndices()).getRank();
  int64_t rows = tensorType(adaptor.getTable()).getDimSize(axis);
  Value table = adaptor.getTable(), indices = adaptor.getIndices();
  return generic(b, op.getLoc(), op.getType(), {}, {},
                 [&](OpBuilder &nb, Location loc, ValueRange) -> Value {
                   SmallVector<Value> at =
                       loopIndices(nb, loc, op.getType().getRank());
                   ArrayRef<Value> all(at);
                   SmallVector<Value> source(all.take_front(axis));
                   source.push_back(clampedRow(
                       nb, loc, indices, all.slice(axis, indexRank), rows));
                   source.append(all.begin() + axis + indexRank, all.end());
                   return nb.create<tensor::ExtractOp>(loc, table, source);
                 });
}

/// An scf.for nest over `updates` that adds each element into zeros at the
/// position take would have read it from.
static FailureOr<Value>
lowerScatterAdd(ScatterAddOp op, ScatterAddOp::Adaptor adaptor, OpBuilder &b) {
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
        target.push_back(
            clampedRow(nb, nloc, indices, at.slice(axis, indexRank), rows));
        target.append(at.begin() + axis + indexRank, at.end());
        Value sum = addScalar(
            nb, nloc,
            nb.create<tensor::ExtractOp>(nloc, accumulated[0], target),
            nb.create<tensor::ExtractOp>(nloc, updates, at));
        return {nb.create<tensor::InsertOp>(nloc, sum, accumulated[0], target)};
      });
  return nest.results.front();
}

/// Compares each index with the position along the last dimension, which
/// an out-of-range index never equals.
static FailureOr<Value> lowerOneHot(OneHotOp op, OneHotOp::Adaptor adaptor,
                                    OpBuilder &b) {
  RankedTensorType type = op.getType();
  int64_t rank = type.getRank();
  AffineMap map = reducedMap(b, rank, {rank - 1});
  return generic(
      b, op.getLoc(), type, adaptor.getIndices(), map,
      [&](OpBuilder &nb, Location loc, ValueRange args) -> Value {
        Value hot =
            nb.create<arith::IndexCastOp>(loc, nb.getIndexType(), args[0]);
        Value position = nb.create<linalg::IndexOp>(loc, rank - 1);
        Value isHot = nb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                               hot, position);
        Type element = type.getElementType();
        return nb.create<arith::SelectOp>(loc, isHot,
                                          scalar(nb, loc, element, 1),
                                          scalar(nb, loc, element, 0));
      });
}

void lowering::populateEnsToLinalgGatherPatterns(RewritePatternSet &patterns) {
  patterns.add<OpLowering<TakeOp, lowerTake>,
               OpLowering<ScatterAddOp, lowerScatterAdd>,
               OpLowering<OneHotOp, lowerOneHot>>(patterns.getContext());
}
