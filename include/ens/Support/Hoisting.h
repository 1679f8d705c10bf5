//===- Hoisting.h - Ops moved before a point of their block -----*- C++ -*-===//
//
// Which ops compute a value after a point of a block, to move them before
// that point: the rewrites that make a value available earlier than it is
// computed (ens-write-into-slices, ens-cpu-reduce-in-loops) share it.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_HOISTING_H
#define ENS_SUPPORT_HOISTING_H

#include "mlir/IR/Operation.h"

namespace mlir::ens {

/// The ops of `point`'s block after it that compute `value`, with those
/// that compute their operands and the values their regions use, in block
/// order: moved before `point`, in that order, they compute `value` there.
/// Fails unless they are all free of memory effects (so that computing them
/// earlier changes nothing) and none of them is `point` or `barrier`, which
/// must stay where they are.
FailureOr<SmallVector<Operation *>>
getOpsToHoistBefore(Value value, Operation *point,
                    Operation *barrier = nullptr);

} // namespace mlir::ens

#endif // ENS_SUPPORT_HOISTING_H
