//===- Epilogues.cpp - Elementwise ops fused into contractions ------------===//
//
// Decides which elementwise op a contraction applies to its accumulators in
// registers, as its epilogue, so that the contraction's result never
// reaches memory: the next op at the top level of a function, and in a
// loop over members any later op of the body that may move up to the
// contraction without changing what any op reads. In a loop over members
// it also joins an elementwise op to an earlier one whose output it reads
// at the same points, so that one phase computes both.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "mlir/IR/IRMapping.h"
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

/// Whether `value`, used by an op that moves up to an earlier one, may be
/// used there although the body defines it between the two: a temporary,
/// a view or a scalar, which kernels allocate, address and recompute
/// wherever they are used.
static bool isUsableEarlier(Value value) {
  Operation *def = value.getDefiningOp();
  return !def ||
         isa<memref::AllocOp, ViewLikeOpInterface, memref::CastOp>(def) ||
         isScalarOp(def);
}

/// Whether `later`, an op of the block of `earlier` after it, may move up
/// to `earlier` and run point by point with it, taking `inRegisters`, which
/// `earlier` writes and `later` reads, from it in registers: what `later`
/// uses must exist at `earlier` (or be a temporary, a view or a scalar),
/// and no op from `earlier` on may write what `later` reads, or touch what
/// it writes.
static bool canMoveUpTo(Operation *later, Operation *earlier,
                        Value inRegisters) {
  llvm::SetVector<Value> used;
  for (Region &region : later->getRegions())
    getUsedValuesDefinedAbove(region, used);
  used.insert(later->operand_begin(), later->operand_end());
  for (Value value : used)
    if (Operation *def = value.getDefiningOp();
        def && def->getBlock() == earlier->getBlock() &&
        earlier->isBeforeInBlock(def) && !isUsableEarlier(value))
      return false;
  // `earlier` writes `inRegisters` for `later`; no op after it may.
  Value passed = getViewedMemref(inRegisters);
  MemoryTouched moved, between;
  if (!moved.add(later))
    return false;
  for (Operation *other = earlier->getNextNode(); other != later;
       other = other->getNextNode())
    if (!between.add(other))
      return false;
  if (between.written.contains(passed))
    return false;
  moved.read.erase(passed);
  if (!between.add(earlier))
    return false;
  between.written.erase(passed);
  auto meets = [](const DenseSet<Value> &a, const DenseSet<Value> &b) {
    return llvm::any_of(a, [&](Value value) { return b.contains(value); });
  };
  bool touched = meets(between.written, moved.read) ||
                 meets(between.written, moved.written) ||
                 meets(between.read, moved.written);
  LLVM_DEBUG(if (touched) llvm::dbgs()
             << "do not move " << getSourceOps(later) << " up to "
             << getSourceOps(earlier)
             << ": the ops between them touch its memory\n");
  return !touched;
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
  if (!canApplyEpilogue(op, epilogue, foldedFills) ||
      !canMoveUpTo(epilogue, op, result))
    return nullptr;
  return epilogue;
}

/// Whether `generic` is elementwise: parallel loops only, none of them
/// read through linalg.index.
static bool isElementwise(linalg::GenericOp generic) {
  return generic.getNumReductionLoops() == 0 &&
         generic.getBody()->getOps<linalg::IndexOp>().empty();
}

/// The op that computes `producer` and then `consumer` at each point of
/// their common loops, in one body, with the consumer's operand `chained`
/// (an output of the producer) taken from the producer's value; the
/// producer still writes every output.
static linalg::GenericOp mergeChain(linalg::GenericOp producer,
                                    linalg::GenericOp consumer,
                                    OpOperand *chained) {
  OpOperand *written = nullptr;
  for (OpOperand &init : producer.getDpsInitsMutable())
    if (init.get() == chained->get())
      written = &init;
  SmallVector<Value> inputs = producer.getDpsInputs();
  SmallVector<AffineMap> inputMaps, outputMaps;
  for (OpOperand *input : producer.getDpsInputOperands())
    inputMaps.push_back(producer.getMatchingIndexingMap(input));
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input != chained) {
      inputs.push_back(input->get());
      inputMaps.push_back(consumer.getMatchingIndexingMap(input));
    }
  SmallVector<Value> outputs = producer.getDpsInits();
  llvm::append_range(outputs, consumer.getDpsInits());
  for (OpOperand &init : producer.getDpsInitsMutable())
    outputMaps.push_back(producer.getMatchingIndexingMap(&init));
  for (OpOperand &init : consumer.getDpsInitsMutable())
    outputMaps.push_back(consumer.getMatchingIndexingMap(&init));
  SmallVector<AffineMap> maps = inputMaps;
  llvm::append_range(maps, outputMaps);
  OpBuilder builder(producer);
  auto merged = builder.create<linalg::GenericOp>(
      builder.getFusedLoc({producer.getLoc(), consumer.getLoc()}), TypeRange{},
      inputs, outputs, maps, producer.getIteratorTypesArray());
  // The body's arguments: the inputs in the order above, then the outputs.
  Block *body = builder.createBlock(&merged.getRegion());
  auto argument = [&](BlockArgument arg) {
    return body->addArgument(arg.getType(), arg.getLoc());
  };
  IRMapping mapping;
  for (OpOperand *input : producer.getDpsInputOperands())
    mapping.map(producer.getMatchingBlockArgument(input),
                argument(producer.getMatchingBlockArgument(input)));
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input != chained)
      mapping.map(consumer.getMatchingBlockArgument(input),
                  argument(consumer.getMatchingBlockArgument(input)));
  for (OpOperand &init : producer.getDpsInitsMutable())
    mapping.map(producer.getMatchingBlockArgument(&init),
                argument(producer.getMatchingBlockArgument(&init)));
  for (OpOperand &init : consumer.getDpsInitsMutable())
    mapping.map(consumer.getMatchingBlockArgument(&init),
                argument(consumer.getMatchingBlockArgument(&init)));
  builder.setInsertionPointToEnd(body);
  SmallVector<Value> yielded;
  for (Operation &op : producer.getBody()->without_terminator())
    builder.clone(op, mapping);
  for (Value value : producer.getBody()->getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  mapping.map(
      consumer.getMatchingBlockArgument(chained),
      yielded[written->getOperandNumber() - producer.getNumDpsInputs()]);
  for (Operation &op : consumer.getBody()->without_terminator())
    builder.clone(op, mapping);
  for (Value value : consumer.getBody()->getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  builder.create<linalg::YieldOp>(consumer.getLoc(), yielded);
  return merged;
}

/// The input of elementwise `consumer` that elementwise `producer`, an
/// earlier op of its block, writes at the same points, where the consumer
/// may move up to the producer and run with it; or null.
static OpOperand *getChainedInput(linalg::GenericOp producer,
                                  linalg::GenericOp consumer) {
  if (producer.getStaticLoopRanges() != consumer.getStaticLoopRanges())
    return nullptr;
  for (OpOperand *input : consumer.getDpsInputOperands())
    for (OpOperand &init : producer.getDpsInitsMutable())
      if (input->get() == init.get() &&
          !consumer.getMatchingBlockArgument(input).use_empty() &&
          consumer.getMatchingIndexingMap(input) ==
              producer.getMatchingIndexingMap(&init) &&
          !llvm::is_contained(consumer.getDpsInits(), input->get()) &&
          canMoveUpTo(consumer, producer, input->get()))
        return input;
  return nullptr;
}

/// Moves the ops between `producer` and `consumer` in their block that
/// define what `consumer` uses, and what those use in turn, up before
/// `producer` in their order, so that the op merging the two at the
/// producer's place sees them defined. canMoveUpTo allows only temporaries,
/// views and scalars there, whose place the kernels do not follow.
static void moveOperandsAbove(Operation *consumer, Operation *producer) {
  SmallVector<Value> worklist;
  consumer->walk(
      [&](Operation *op) { llvm::append_range(worklist, op->getOperands()); });
  llvm::SetVector<Operation *> moved;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != producer->getBlock() ||
        !producer->isBeforeInBlock(def) || !moved.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered = moved.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    op->moveBefore(producer);
}

void cuda::mergeElementwiseChains(Block &body) {
  // Each merge erases two ops: the search starts again after it.
  auto mergeOne = [&] {
    for (auto consumer : body.getOps<linalg::GenericOp>()) {
      if (!isElementwise(consumer))
        continue;
      for (Operation *earlier = consumer->getPrevNode(); earlier;
           earlier = earlier->getPrevNode()) {
        auto producer = dyn_cast<linalg::GenericOp>(earlier);
        if (!producer || !isElementwise(producer))
          continue;
        OpOperand *chained = getChainedInput(producer, consumer);
        if (!chained)
          continue;
        LLVM_DEBUG(llvm::dbgs()
                   << "merge " << getSourceOps({consumer.getOperation()})
                   << " into " << getSourceOps({producer.getOperation()})
                   << "\n");
        moveOperandsAbove(consumer, producer);
        mergeChain(producer, consumer, chained);
        producer->erase();
        consumer->erase();
        return true;
      }
    }
    return false;
  };
  while (mergeOne()) {
  }
}
