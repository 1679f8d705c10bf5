//===- BatchingOpInterface.h - Per-op batching rules ------------*- C++ -*-===//

#ifndef ENS_DIALECT_ENS_INTERFACES_BATCHINGOPINTERFACE_H
#define ENS_DIALECT_ENS_INTERFACES_BATCHINGOPINTERFACE_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"

namespace mlir::ens {

/// The axis of a value that is the same for every member.
inline constexpr int64_t kUnbatched = -1;

/// A value of a batched computation and the axis along which it holds one
/// slice per member (`kUnbatched` if all members share it).
struct BatchedValue {
  Value value;
  int64_t axis = kUnbatched;

  bool isBatched() const { return axis != kUnbatched; }
};

} // namespace mlir::ens

#include "ens/Dialect/Ens/Interfaces/BatchingOpInterface.h.inc"

#endif // ENS_DIALECT_ENS_INTERFACES_BATCHINGOPINTERFACE_H
