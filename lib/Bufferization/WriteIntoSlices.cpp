//===- WriteIntoSlices.cpp - Compute inserted values in their slice -------===//
//
// Gives the producer of a value that tensor.insert_slice puts into a larger
// tensor that tensor's slice as its destination, through the reshapes
// between them, so that bufferization copies nothing.
//
//===----------------------------------------------------------------------===//

#include "ens/Bufferization/Passes.h"
#include "ens/Support/Hoisting.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSWRITEINTOSLICES
#include "ens/Bufferization/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

/// The destination of the op that produces `result` (an `scf.forall`, the
/// initial value of an `scf.for`, or a destination-style op), or null.
static OpOperand *getTiedDestination(OpResult result) {
  Operation *producer = result.getOwner();
  if (auto forall = dyn_cast<scf::ForallOp>(producer))
    return forall.getTiedOpOperand(result);
  if (auto loop = dyn_cast<scf::ForOp>(producer))
    return loop.getTiedLoopInit(result);
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(producer))
    return dps.getTiedOpOperand(result);
  return nullptr;
}

/// Moves the ops of `point`'s block after it that compute `value` before
/// it (getOpsToHoistBefore). Fails, moving nothing, where they cannot all
/// move, or one of them is the producer `barrier`, which must stay after its
/// destination `point`.
static LogicalResult hoistBefore(Value value, Operation *point,
                                 Operation *barrier) {
  FailureOr<SmallVector<Operation *>> ops =
      getOpsToHoistBefore(value, point, barrier);
  if (failed(ops))
    return failure();
  for (Operation *op : *ops)
    op->moveBefore(point);
  return success();
}

/// Makes the producer of `insert`'s source compute it in the slice of the
/// destination that `insert` writes, where the pass's description allows.
static void writeIntoSlice(tensor::InsertSliceOp insert) {
  // The source is the producer's result, seen through collapses each used
  // only by the next.
  Value source = insert.getSource();
  SmallVector<tensor::CollapseShapeOp> collapses;
  while (source.hasOneUse()) {
    auto collapse = source.getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      break;
    collapses.push_back(collapse);
    source = collapse.getSrc();
  }
  auto result = dyn_cast<OpResult>(source);
  OpOperand *destination = result ? getTiedDestination(result) : nullptr;
  // Offsets, sizes and strides that are values would have to be hoisted
  // as well; padding has constant ones.
  if (!destination || !destination->get().hasOneUse() ||
      !insert.getOffsets().empty() || !insert.getSizes().empty() ||
      !insert.getStrides().empty())
    return;
  // The insert's destination must be computed here (the padding's zeros):
  // an argument's buffer may be one that bufferization must not write, and
  // would then be copied together with the slice.
  auto empty = destination->get().getDefiningOp<tensor::EmptyOp>();
  Operation *producer = result.getOwner();
  Block *block = insert->getBlock();
  if (!empty || empty->getBlock() != block || producer->getBlock() != block ||
      !insert.getDest().getDefiningOp())
    return;
  // One-shot analysis does not see that the insert leaves the values it
  // inserts where they were: where the producer's result is read after the
  // insert, it would copy the result out of the slice before the insert
  // and back, two copies instead of one.
  Operation *chainUser = collapses.empty() ? insert.getOperation()
                                           : collapses.back().getOperation();
  for (Operation *user : result.getUsers())
    if (user != chainUser &&
        !block->findAncestorOpInBlock(*user)->isBeforeInBlock(insert))
      return;
  if (failed(hoistBefore(insert.getDest(), empty, producer)))
    return;

  OpBuilder builder(empty);
  Location loc = insert.getLoc();
  Value slice = builder.create<tensor::ExtractSliceOp>(
      loc, insert.getSourceType(), insert.getDest(), insert.getMixedOffsets(),
      insert.getMixedSizes(), insert.getMixedStrides());
  for (tensor::CollapseShapeOp collapse : collapses)
    slice = builder.create<tensor::ExpandShapeOp>(
        loc, collapse.getSrcType(), slice, collapse.getReassociationIndices());
  empty.replaceAllUsesWith(slice);
  empty.erase();
}

namespace {
struct WriteIntoSlicesPass
    : ens::impl::EnsWriteIntoSlicesBase<WriteIntoSlicesPass> {
  void runOnOperation() override {
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation().walk(
        [&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    for (tensor::InsertSliceOp insert : inserts)
      writeIntoSlice(insert);
  }
};
} // namespace
