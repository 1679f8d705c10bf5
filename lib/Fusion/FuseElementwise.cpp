//===- FuseElementwise.cpp - Fuse elementwise linalg ops ------------------===//
//
// Upstream elementwise fusion with a control that never computes an element
// twice and never fuses into a contraction.
//
//===----------------------------------------------------------------------===//

#include "ens/Fusion/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-fuse-elementwise"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSFUSEELEMENTWISE
#include "ens/Fusion/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

/// Whether `op` only moves elements: a linalg.generic whose body yields some
/// of its inputs unchanged (a broadcast, transpose or copy). Fusing such an
/// op into each of its consumers costs no arithmetic.
static bool onlyMovesElements(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic)
    return false;
  Block *body = generic.getBody();
  return llvm::all_of(body->getTerminator()->getOperands(), [&](Value value) {
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && argument.getOwner() == body &&
           argument.getArgNumber() < generic.getNumDpsInputs();
  });
}

/// Whether `op` computes its result from scalars alone: a linalg.generic
/// without reductions whose inputs are all 0-d (a fill, or a broadcast of a
/// hyperparameter). Recomputing such an element wherever it is read costs
/// less than reading it from memory.
static bool isComputedFromScalars(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumReductionLoops() != 0)
    return false;
  // An op that reads its outputs' initial values reads tensors.
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (!generic.getMatchingBlockArgument(&init).use_empty())
      return false;
  return llvm::all_of(generic.getDpsInputs(), [](Value input) {
    auto type = dyn_cast<ShapedType>(input.getType());
    return !type || type.getRank() == 0;
  });
}

/// Whether an elementwise consumer should take the collapse_shape that it
/// reads through `operand` into its own loops (upstream's fold by
/// expansion), so that the collapsed op's producer fuses into it: the
/// consumer has no reductions and reads the collapsed tensor element by
/// element, and the collapse is the only use of a producer that fusion would
/// take in (one without reductions and without other uses). A relu's mask
/// after a max pooling's routing, which writes its result in the windows'
/// shape, is one such consumer: otherwise it runs as a pass of its own.
static bool expandsOverCollapsedProducer(OpOperand *operand) {
  auto collapse = operand->get().getDefiningOp<tensor::CollapseShapeOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!collapse || !consumer || consumer.getNumReductionLoops() != 0 ||
      !consumer.getMatchingIndexingMap(operand).isPermutation() ||
      !collapse->hasOneUse())
    return false;
  auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
  return producer && producer->hasOneUse() &&
         producer.getNumReductionLoops() == 0;
}

/// Whether the producer of `operand` has uses besides its consumer, all of
/// them after the consumer in its block, and the consumer reads the
/// producer through `operand` alone. Upstream fuses one operand: the
/// producer would stay for the consumer's other operands and be fused again
/// later, computing its elements twice (and, along a chain of such ops,
/// doubling the fused body at each step).
static bool isAlsoUsedAfter(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  Operation *consumer = operand->getOwner();
  if (producer->hasOneUse())
    return false;
  bool readOnce = llvm::count_if(consumer->getOperands(), [&](Value value) {
                    return value.getDefiningOp() == producer;
                  }) == 1;
  return readOnce && llvm::all_of(producer->getUsers(), [&](Operation *user) {
           if (user == consumer)
             return true;
           Operation *ancestor =
               consumer->getBlock()->findAncestorOpInBlock(*user);
           return ancestor && consumer->isBeforeInBlock(ancestor);
         });
}

/// Whether to fuse the producer of `operand` into its consumer, upstream's
/// way: the fused op recomputes the producer's elements, so the producer
/// must have no other use or only move elements, and the consumer must read
/// each element of it once. A producer computed from scalars alone may be
/// recomputed anywhere but inside a reduction loop. Other producers of
/// contractions are never fused: they are read through projections, and
/// the contraction stays a contraction.
static bool shouldFuse(OpOperand *operand) {
  auto consumer = cast<linalg::LinalgOp>(operand->getOwner());
  Operation *producer = operand->get().getDefiningOp();
  if (!consumer.getMatchingIndexingMap(operand).isPermutation())
    return consumer.getNumReductionLoops() == 0 &&
           isComputedFromScalars(producer);
  return producer->hasOneUse() || onlyMovesElements(producer);
}

/// Whether `op` reads no result of another linalg.generic: a leaf of the
/// trees that fusion contracts.
static bool isLeaf(Operation *op) {
  return llvm::none_of(op->getOperands(), [](Value operand) {
    return isa_and_present<linalg::GenericOp>(operand.getDefiningOp());
  });
}

namespace {
/// Fusion in rounds, in O(n log n) time for a program of n ops. Each fusion
/// clones the bodies of both ops into a new op, so fusing that op again at
/// once, as a greedy rewrite does, clones a chain of n ops n times over.
/// Within a round, ops created in it are not fused again, so a round pairs
/// up neighbours in time linear in the program, and a chain fuses in log n
/// rounds. A consumer fuses a leaf producer before the rest of a chain:
/// otherwise the chain would fuse first and then take up the leaves hanging
/// off it one per round, each round cloning the whole chain.
struct RoundOfFusion : RewriterBase::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    created.insert(op);
  }
  void notifyOperationErased(Operation *op) override { created.erase(op); }

  /// Whether the producer of `operand` and its consumer both predate the
  /// round.
  bool mayFuse(OpOperand *operand) const {
    return !created.contains(operand->getOwner()) &&
           !created.contains(operand->get().getDefiningOp());
  }

  /// Whether to fuse the producer of `operand` into its consumer in this
  /// round, given that upstream can fuse them.
  bool fuseNow(OpOperand *operand) const {
    if (!mayFuse(operand) || !shouldFuse(operand))
      return false;
    bool now = isLeaf(operand->get().getDefiningOp()) ||
               llvm::none_of(
                   operand->getOwner()->getOpOperands(), [&](OpOperand &other) {
                     return linalg::areElementwiseOpsFusable(&other) &&
                            isLeaf(other.get().getDefiningOp()) &&
                            mayFuse(&other) && shouldFuse(&other);
                   });
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] operand " << operand->getOperandNumber()
               << " of the op at " << operand->getOwner()->getLoc() << ": "
               << (now ? "fuse its producer now"
                       : "a leaf producer first, this one in a later round")
               << "\n");
    return now;
  }

  DenseSet<Operation *> created;
};

/// Fuses a producer whose results are also used after its consumer: the
/// fused op computes the producer's elements once and yields them for
/// those later uses, so the producer goes away.
struct FuseSharedProducer : OpRewritePattern<linalg::GenericOp> {
  FuseSharedProducer(MLIRContext *context, const RoundOfFusion &round)
      : OpRewritePattern(context, /*benefit=*/2), round(round) {}

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    // In a reduction, the producer's results would be written at every
    // step of the reduction loops.
    if (consumer.getNumReductionLoops() != 0)
      return failure();
    for (OpOperand &operand : consumer->getOpOperands()) {
      if (!linalg::areElementwiseOpsFusable(&operand) ||
          !consumer.getMatchingIndexingMap(&operand).isPermutation() ||
          onlyMovesElements(operand.get().getDefiningOp()) ||
          !round.mayFuse(&operand) || !isAlsoUsedAfter(&operand))
        continue;
      Operation *producer = operand.get().getDefiningOp();
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] producer at " << producer->getLoc()
                 << " also used later: fused, its results "
                    "yielded for those uses\n");
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        continue;
      Operation *fusedOp = fused->fusedOp;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          Operation *ancestor =
              fusedOp->getBlock()->findAncestorOpInBlock(*use.getOwner());
          return ancestor && fusedOp->isBeforeInBlock(ancestor);
        });
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }

private:
  const RoundOfFusion &round;
};

struct FuseElementwisePass
    : ens::impl::EnsFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    RoundOfFusion round;
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [&](OpOperand *operand) { return round.fuseNow(operand); });
    patterns.add<FuseSharedProducer>(&getContext(), round);
    // A reshape of an op computed from scalars becomes that op in the new
    // shape, which its consumers can then fuse; an elementwise consumer of a
    // collapsed producer runs in the producer's shape, which fuses them.
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *operand) {
          return isComputedFromScalars(operand->get().getDefiningOp()) ||
                 expandsOverCollapsedProducer(operand);
        });
    FrozenRewritePatternSet frozen(std::move(patterns));
    GreedyRewriteConfig config = boundedRewrites();
    config.listener = &round;
    // Rounds until one changes nothing. Each is bounded like any greedy
    // rewrite; a round that fuses nothing ends them.
    for (bool changed = true; changed;) {
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] a round of fusion\n");
      round.created.clear();
      if (failed(applyPatternsAndFoldGreedily(getOperation(), frozen, config,
                                              &changed))) {
        getOperation()->emitError()
            << "elementwise fusion did not converge within " << kMaxRewrites
            << " rewrites";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
