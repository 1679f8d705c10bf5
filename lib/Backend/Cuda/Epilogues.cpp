//===- Epilogues.cpp - Elementwise ops fused into contractions ------------===//
//
// Decides which elementwise op a contraction applies to its accumulators in
// registers, as its epilogue, so that the contraction's result never
// reaches memory: the next op at the top level of a function, and in a
// loop over members any later op of the body that may move up to the
// contraction without changing what any op reads.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// Whether `next` can be the epilogue of contraction `op`: an elementwise
/// linalg.generic that reads the result of `op` once per element, when that
/// result is a temporary that nothing else but `foldedFills` uses.
static bool canApplyEpilogue(linalg::GenericOp op, linalg::GenericOp next,
                             const DenseSet<Operation *> &foldedFills) {
  if (!next || op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return false;
  Value result = op.getDpsInits()[0];
  AffineMap written = op.getIndexingMapsArray().back();
  if (!written.isProjectedPermutation() ||
      written.getNumResults() != op.getNumParallelLoops())
    return false;
  for (AffineExpr expr : written.getResults())
    if (op.getIteratorTypesArray()[cast<AffineDimExpr>(expr).getPosition()] !=
        utils::IteratorType::parallel)
      return false;
  // The result must be a private temporary: not the caller's buffer, not a
  // slice of a loop's result, not read through a view.
  if (!result.getDefiningOp<memref::AllocOp>() ||
      next.getNumReductionLoops() != 0)
    return false;
  if (llvm::Error unsupported = checkGeneric(next)) {
    llvm::consumeError(std::move(unsupported));
    return false;
  }
  OpOperand *read = nullptr;
  for (OpOperand &operand : next->getOpOperands())
    if (operand.get() == result) {
      if (read || next.isDpsInit(&operand))
        return false;
      read = &operand;
    }
  if (!read || !next.getMatchingIndexingMap(read).isPermutation())
    return false;
  for (Operation *user : result.getUsers())
    if (user != op && user != next && !foldedFills.contains(user) &&
        !isa<memref::DeallocOp>(user))
      return false;
  LLVM_DEBUG(llvm::dbgs() << "fuse " << getSourceOps(next.getOperation())
                          << " into " << getSourceOps(op.getOperation())
                          << " as its epilogue\n");
  return true;
}

linalg::GenericOp cuda::getEpilogue(linalg::GenericOp op,
                                    const DenseSet<Operation *> &foldedFills) {
  auto next = dyn_cast_or_null<linalg::GenericOp>(getNextComputeOp(op));
  return canApplyEpilogue(op, next, foldedFills) ? next : nullptr;
}

/// The memref that `memref` is a view of, through any views; itself if it
/// is none.
static Value getViewedMemref(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      memref = view.getViewSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      memref = cast.getSource();
    else
      break;
  }
  return memref;
}

namespace {
/// The memory that ops read and write, as the memrefs that their operands
/// are views of.
struct MemoryTouched {
  /// Adds the memory of `op` and the ops nested in it; false if some of it
  /// is not known.
  bool add(Operation *op) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects)
      return false;
    for (const MemoryEffects::EffectInstance &effect : *effects) {
      if (isa<MemoryEffects::Allocate>(effect.getEffect()))
        continue;
      Value value = effect.getValue();
      if (!value)
        return false;
      (isa<MemoryEffects::Read>(effect.getEffect()) ? read : written)
          .insert(getViewedMemref(value));
    }
    return true;
  }

  DenseSet<Value> read, written;
};
} // namespace

/// Whether `value`, used by an epilogue, may be used where its contraction
/// is although the body defines it between the two: a temporary, a view or
/// a scalar, which kernels allocate, address and recompute wherever they
/// are used.
static bool isUsableEarlier(Value value) {
  Operation *def = value.getDefiningOp();
  return !def ||
         isa<memref::AllocOp, ViewLikeOpInterface, memref::CastOp>(def) ||
         isScalarOp(def);
}

linalg::GenericOp
cuda::getEpilogueInLoop(linalg::GenericOp op,
                        const DenseSet<Operation *> &foldedFills) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Value result = op.getDpsInits()[0];
  // The first later op that uses the result.
  linalg::GenericOp epilogue;
  for (Operation *next = op->getNextNode(); next && !epilogue;
       next = next->getNextNode())
    if (llvm::is_contained(result.getUsers(), next)) {
      epilogue = dyn_cast<linalg::GenericOp>(next);
      if (!epilogue)
        return nullptr;
    }
  if (!canApplyEpilogue(op, epilogue, foldedFills))
    return nullptr;
  // What the epilogue uses must exist at the contraction.
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(epilogue.getRegion(), used);
  used.insert(epilogue->operand_begin(), epilogue->operand_end());
  for (Value value : used)
    if (Operation *def = value.getDefiningOp();
        def && def->getBlock() == op->getBlock() && op->isBeforeInBlock(def) &&
        !isUsableEarlier(value))
      return nullptr;
  // Moved up to the contraction, the epilogue reads and writes its memory
  // before the ops between them (and the contraction itself, point by
  // point): none of them may write what it reads, or touch what it writes.
  MemoryTouched moved, between;
  if (!moved.add(epilogue))
    return nullptr;
  moved.read.erase(result);
  for (Operation *other = op; other != epilogue; other = other->getNextNode())
    if (!between.add(other))
      return nullptr;
  between.written.erase(result);
  auto meets = [](const DenseSet<Value> &a, const DenseSet<Value> &b) {
    return llvm::any_of(a, [&](Value value) { return b.contains(value); });
  };
  if (meets(between.written, moved.read) ||
      meets(between.written, moved.written) ||
      meets(between.read, moved.written)) {
    LLVM_DEBUG(llvm::dbgs()
               << "do not fuse " << getSourceOps(epilogue.getOperation())
               << " into " << getSourceOps(op.getOperation())
               << ": the ops between them touch its memory\n");
    return nullptr;
  }
  return epilogue;
}
