//===- FuseElementwise.cpp - Fuse elementwise linalg ops ------------------===//
//
// Upstream elementwise fusion with a control that never computes an element
// twice and never fuses into a contraction.
//
//===----------------------------------------------------------------------===//

#include "ens/Fusion/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

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

/// Whether the producer of `operand` has uses besides its consumer, all of
/// them after the consumer in its block.
static bool isAlsoUsedAfter(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  Operation *consumer = operand->getOwner();
  if (producer->hasOneUse())
    return false;
  return llvm::all_of(producer->getUsers(), [&](Operation *user) {
    Operation *ancestor = consumer->getBlock()->findAncestorOpInBlock(*user);
    return user == consumer || (ancestor && consumer->isBeforeInBlock(ancestor));
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

namespace {
/// Fuses a producer whose results are also used after its consumer: the
/// fused op computes the producer's elements once and yields them for
/// those later uses, so the producer goes away.
struct FuseSharedProducer : OpRewritePattern<linalg::GenericOp> {
  FuseSharedProducer(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

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
          !isAlsoUsedAfter(&operand))
        continue;
      Operation *producer = operand.get().getDefiningOp();
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
};

struct FuseElementwisePass
    : ens::impl::EnsFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    patterns.add<FuseSharedProducer>(&getContext());
    // A reshape of an op computed from scalars becomes that op in the new
    // shape, which its consumers can then fuse.
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *operand) {
          return isComputedFromScalars(operand->get().getDefiningOp());
        });
    if (failed(applyBounded(getOperation(), std::move(patterns),
                            "elementwise fusion")))
      signalPassFailure();
  }
};
} // namespace
