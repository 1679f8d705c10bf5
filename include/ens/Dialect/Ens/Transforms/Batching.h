//===- Batching.h - Batching rules and their helpers ------------*- C++ -*-===//
//
// The batching rules of ens ops (attached through BatchingOpInterface) and
// the axis helpers that rules and the batching transform share.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_BATCHING_H
#define ENS_DIALECT_ENS_TRANSFORMS_BATCHING_H

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/Interfaces/BatchingOpInterface.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::ens {

/// Attaches the batching rule of every ens op to the ops.
void registerBatchingRules(DialectRegistry &registry);

/// `type` with a dimension of `size` inserted at `axis`.
RankedTensorType insertBatchDim(Type type, int64_t axis, int64_t size);

/// Moves the batch axis of `value` from `from` to `to` with a transpose (a
/// broadcast_in_dim in the new order if `value` is a broadcast), or returns
/// `value` when they are equal.
Value moveBatchAxis(OpBuilder &builder, Location loc, Value value, int64_t from,
                    int64_t to);

/// Gives a shared `value` a batch axis at `axis` with broadcast_in_dim.
Value broadcastToBatch(OpBuilder &builder, Location loc, Value value,
                       int64_t axis, int64_t size);

/// Splits dimension `dim` of `value` into (`factor`, size / `factor`), the
/// factor major, both at `dim`. A reshape, which moves no element.
Value splitDim(OpBuilder &builder, Location loc, Value value, int64_t dim,
               int64_t factor);

/// Merges dimension `from` of `value` into dimension `into` as its major
/// part: a transpose that puts `from` just before `into` (none when it is
/// there already), then a reshape. The result numbers its dimensions as
/// `value` does without `from`.
Value mergeDimInto(OpBuilder &builder, Location loc, Value value, int64_t from,
                   int64_t into);

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_TRANSFORMS_BATCHING_H
