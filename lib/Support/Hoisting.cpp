//===- Hoisting.cpp - Ops moved before a point of their block -------------===//

#include "ens/Support/Hoisting.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

FailureOr<SmallVector<Operation *>>
ens::getOpsToHoistBefore(Value value, Operation *point, Operation *barrier) {
  Block *block = point->getBlock();
  SetVector<Operation *> ops;
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value needed = worklist.pop_back_val();
    Operation *def = needed.getDefiningOp();
    if (!def) {
      // A block argument of `point`'s block or of one around it.
      if (!cast<BlockArgument>(needed).getOwner()->findAncestorOpInBlock(
              *point))
        return failure();
      continue;
    }
    // Values used in `point`'s block or in the regions of its ops, but
    // defined outside them, are defined in a block around it, before it.
    if (!block->findAncestorOpInBlock(*def) ||
        (def->getBlock() == block && def->isBeforeInBlock(point)))
      continue;
    if (def->getBlock() != block || def == point || def == barrier ||
        !isMemoryEffectFree(def))
      return failure();
    if (!ops.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(def->getRegions(), captured);
    llvm::append_range(worklist, captured);
  }
  SmallVector<Operation *> ordered = ops.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}
