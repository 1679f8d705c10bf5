//===- TileAndVectorize.cpp - Register tiles as vector code ---------------===//
//
// Cuts every linalg op on tensors into tiles for threads and registers, as
// planTiles (RegisterTiles.h) plans them, and vectorizes the register tiles
// (ens-cpu-tile-and-vectorize).
//
//===----------------------------------------------------------------------===//

#include "OpAnalysis.h"
#include "RegisterTiles.h"

#include "ens/Backend/Cpu/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cpu-tile-and-vectorize"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUTILEANDVECTORIZE
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;
using cpu::TilePlan;
using cpu::TileTarget;

/// Tiles `op` by `sizes` (0: not tiled) with loops of `loopType`, with the
/// reduction loops innermost. Returns the tiled op.
static FailureOr<linalg::LinalgOp>
tileOp(RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
       scf::SCFTilingOptions::LoopType loopType) {
  SmallVector<int64_t> interchange;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [loop, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      interchange.push_back(loop);
  for (auto [loop, iterator] : llvm::enumerate(iterators))
    if (iterator != utils::IteratorType::parallel)
      interchange.push_back(loop);

  scf::SCFTilingOptions options;
  options.setLoopType(loopType);
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(*op), options);
  if (failed(tiled))
    return op->emitError("cannot tile this op for the CPU");
  rewriter.replaceOp(op, tiled->replacements);
  return cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

/// The fill of zeros or another constant that `op` accumulates into, if
/// `op` is its only user: the register tiles can start from the constant
/// rather than read it from a buffer that a pass of its own filled.
static linalg::FillOp accumulatorFill(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return {};
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill || !fill->hasOneUse() || fill->getBlock() != op->getBlock() ||
      !fill.hasPureTensorSemantics())
    return {};
  return fill;
}

/// Tiles `op` by `sizes` as tileOp does, with its accumulator's `fill`
/// computed in each tile: the parallel loops are tiled first, with the
/// fill's tile in them, then the reduction loops inside, which the fill's
/// tile must not be in. The fill's tile is vectorized. Returns the tiled op.
static FailureOr<linalg::LinalgOp> tileWithFill(RewriterBase &rewriter,
                                                linalg::LinalgOp op,
                                                linalg::FillOp fill,
                                                ArrayRef<int64_t> sizes) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> parallelSizes(sizes), reductionSizes(sizes);
  for (auto [loop, iterator] : llvm::enumerate(iterators)) {
    if (iterator == utils::IteratorType::parallel)
      reductionSizes[loop] = 0;
    else
      parallelSizes[loop] = 0;
  }
  scf::SCFTilingOptions tiling;
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  tiling.setTileSizes(getAsIndexOpFoldResult(op.getContext(), parallelSizes));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn([&](tensor::ExtractSliceOp, OpResult producer,
                                 bool) {
    return std::make_tuple(producer.getOwner() == fill.getOperation(), false);
  });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(*op), options);
  if (failed(tiled))
    return op->emitError("cannot tile this op for the CPU");
  for (OpResult result : op->getResults())
    rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
  rewriter.eraseOp(op);
  auto tiledOp = cast<linalg::LinalgOp>(tiled->tiledAndFusedOps.front());
  for (Operation *fused : tiled->tiledAndFusedOps) {
    auto tiledFill = dyn_cast<linalg::FillOp>(fused);
    if (!tiledFill)
      continue;
    rewriter.setInsertionPoint(tiledFill);
    if (failed(linalg::vectorize(rewriter, tiledFill)))
      return tiledFill->emitError("cannot vectorize this fill for the CPU");
  }
  if (llvm::all_of(reductionSizes, [](int64_t size) { return size == 0; }))
    return tiledOp;
  return tileOp(rewriter, tiledOp, reductionSizes,
                scf::SCFTilingOptions::LoopType::ForOp);
}

namespace {
/// Remembers the last linalg op a rewrite creates.
struct LastLinalgOp : RewriterBase::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      last = linalgOp;
  }
  linalg::LinalgOp last;
};
} // namespace

/// `op` without the loops of one iteration that its operands read in sums
/// (linalg's dropUnitDims, reducing the operands' ranks by slices, which
/// vector transfers then absorb). The other unit loops stay: a reduction
/// loop of one iteration is what makes the vectorizer emit a contraction,
/// whose outer products become FMAs. With `keepLoopOfUnitSums`, a sum of
/// unit loops alone (a filter gradient's image row and tap, when its vector
/// reads the filter) keeps its parallel loop, which it then reads alone:
/// dropping them all would leave the dimension read at a constant, which
/// the vectorizer rejects.
static FailureOr<linalg::LinalgOp> dropUnitLoops(RewriterBase &rewriter,
                                                 linalg::LinalgOp op,
                                                 bool keepLoopOfUnitSums) {
  auto generic = dyn_cast<linalg::GenericOp>(*op);
  if (!generic)
    return op;
  linalg::ControlDropUnitDims control;
  control.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  control.controlFn = [keepLoopOfUnitSums](Operation *target) {
    auto linalgOp = cast<linalg::LinalgOp>(target);
    SmallVector<int64_t> extents = linalgOp.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators =
        linalgOp.getIteratorTypesArray();
    SmallVector<unsigned> inSums, kept;
    for (AffineMap map : linalgOp.getIndexingMapsArray()) {
      for (AffineExpr expr : map.getResults()) {
        if (isa<AffineDimExpr>(expr))
          continue;
        SmallVector<unsigned> unit;
        bool allUnit = true;
        for (unsigned loop = 0; loop < extents.size(); ++loop) {
          if (!expr.isFunctionOfDim(loop))
            continue;
          if (extents[loop] == 1)
            unit.push_back(loop);
          else
            allUnit = false;
        }
        auto parallel = llvm::find_if(unit, [&](unsigned loop) {
          return iterators[loop] == utils::IteratorType::parallel;
        });
        if (keepLoopOfUnitSums && allUnit && parallel != unit.end() &&
            !llvm::is_contained(kept, *parallel))
          kept.push_back(*parallel);
        for (unsigned loop : unit)
          if (!llvm::is_contained(inSums, loop))
            inSums.push_back(loop);
      }
    }
    llvm::erase_if(
        inSums, [&](unsigned loop) { return llvm::is_contained(kept, loop); });
    llvm::sort(inSums);
    return inSums;
  };
  LastLinalgOp created;
  OpBuilder::Listener *listener = rewriter.getListener();
  rewriter.setListener(&created);
  rewriter.setInsertionPoint(op);
  LogicalResult dropped = linalg::dropUnitDims(rewriter, generic, control);
  rewriter.setListener(listener);
  // dropUnitDims fails when there is nothing to drop.
  if (failed(dropped) || !created.last)
    return op;
  return created.last;
}

/// Rows of a contraction's result from which one of its operands that is
/// read an element at a time along the vector loop (W in dX = dY * W^T) is
/// first transposed: a copy of the operand costs about as much as a tile's
/// gathers for this many rows.
static constexpr int64_t kMinRowsToTranspose = 16;

/// For a contraction that reads no operand contiguously along its vector
/// loop: the op reading, in place of an input that has the vector loop in
/// another dimension, a transposed copy of it (linalg.transpose) with that
/// dimension innermost, and the transpose; nothing if it has no such input.
static FailureOr<std::pair<linalg::LinalgOp, linalg::LinalgOp>>
transposeGatheredOperand(RewriterBase &rewriter, linalg::LinalgOp op,
                         unsigned vectorLoop) {
  MLIRContext *context = op.getContext();
  AffineExpr vectorDim = getAffineDimExpr(vectorLoop, context);
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    std::optional<unsigned> position = map.getResultPosition(vectorDim);
    if (!map.isProjectedPermutation() || !position ||
        *position + 1 == map.getNumResults())
      continue;
    // Dimension i of the copy is dimension permutation[i] of the operand.
    SmallVector<int64_t> permutation;
    for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
      if (dim != *position)
        permutation.push_back(dim);
    permutation.push_back(*position);
    auto type = cast<RankedTensorType>(operand->get().getType());
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> reads;
    for (int64_t dim : permutation) {
      shape.push_back(type.getDimSize(dim));
      reads.push_back(map.getResult(dim));
    }
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value empty =
        rewriter.create<tensor::EmptyOp>(loc, shape, type.getElementType());
    auto transpose = rewriter.create<linalg::TransposeOp>(loc, operand->get(),
                                                          empty, permutation);
    unsigned number = operand->getOperandNumber();
    FailureOr<linalg::GenericOp> generic =
        isa<linalg::GenericOp>(*op) ? cast<linalg::GenericOp>(*op)
                                    : linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return failure();
    SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
    maps[number] = AffineMap::get(map.getNumDims(), 0, reads, context);
    rewriter.modifyOpInPlace(*generic, [&] {
      generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      (*generic)->setOperand(number, transpose.getResult()[0]);
    });
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] contraction at " << loc << ": operand "
               << number << " transposed for the vector loop\n");
    return std::make_pair(linalg::LinalgOp(*generic),
                          cast<linalg::LinalgOp>(*transpose));
  }
  return failure();
}

/// Tiles `op` for threads and registers and vectorizes its register tiles,
/// as planned by planTiles. Ops with dynamic shapes or no loops are left
/// alone; they become loops later.
static LogicalResult tileAndVectorize(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      const TileTarget &options) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (extents.empty() || ShapedType::isDynamicShape(extents) ||
      llvm::is_contained(extents, 0))
    return success();
  // A contraction that would gather an operand along its vector loop for
  // many rows reads a transposed copy of it instead.
  if (linalg::isaContractionOpInterface(op) && cpu::widestElementBits(op) &&
      succeeded(linalg::vectorizeOpPrecondition(op))) {
    std::optional<unsigned> vectorLoop = cpu::pickVectorLoop(op, true);
    std::optional<unsigned> rowLoop = cpu::rowLoop(op);
    if (vectorLoop && rowLoop && *rowLoop != *vectorLoop &&
        extents[*rowLoop] >= kMinRowsToTranspose &&
        !cpu::readsContiguouslyAlong(op, *vectorLoop)) {
      FailureOr<std::pair<linalg::LinalgOp, linalg::LinalgOp>> transposed =
          transposeGatheredOperand(rewriter, op, *vectorLoop);
      if (succeeded(transposed)) {
        auto [contraction, transpose] = *transposed;
        if (failed(tileAndVectorize(rewriter, transpose, options)))
          return failure();
        return tileAndVectorize(rewriter, contraction, options);
      }
    }
  }
  TilePlan plan = cpu::planTiles(op, extents, options);

  if (plan.split) {
    auto [loop, point] = *plan.split;
    rewriter.setInsertionPoint(op);
    auto [whole, rest] = linalg::splitOp(rewriter, cast<TilingInterface>(*op),
                                         loop, rewriter.getIndexAttr(point));
    if (!whole || !rest)
      return op->emitError("cannot split this op into register tiles");
    for (TilingInterface part : {whole, rest})
      if (failed(tileAndVectorize(rewriter, cast<linalg::LinalgOp>(*part),
                                  options)))
        return failure();
    return success();
  }

  if (plan.parallelLoop) {
    SmallVector<int64_t> sizes(extents.size(), 0);
    sizes[*plan.parallelLoop] = plan.chunk;
    FailureOr<linalg::LinalgOp> tiled =
        tileOp(rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
    if (failed(tiled))
      return failure();
    op = *tiled;
    extents[*plan.parallelLoop] = plan.chunk;
  }
  if (!plan.vectorize)
    return success();

  SmallVector<int64_t> sizes;
  for (auto [extent, tile] : llvm::zip_equal(extents, plan.tile))
    sizes.push_back(tile < extent ? tile : 0);
  if (llvm::any_of(sizes, [](int64_t size) { return size != 0; })) {
    linalg::FillOp fill = accumulatorFill(op);
    FailureOr<linalg::LinalgOp> tiled =
        fill ? tileWithFill(rewriter, op, fill, sizes)
             : tileOp(rewriter, op, sizes,
                      scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(tiled))
      return failure();
    op = *tiled;
  }
  if (plan.dropUnitLoops) {
    FailureOr<linalg::LinalgOp> dropped =
        dropUnitLoops(rewriter, op, plan.keepLoopOfUnitSums);
    if (failed(dropped))
      return failure();
    op = *dropped;
    // A tile that still reads at a sum of loops (a strided image) stays
    // scalar.
    if (failed(linalg::vectorizeOpPrecondition(op)))
      return success();
  }
  rewriter.setInsertionPoint(op);
  if (failed(linalg::vectorize(rewriter, op)))
    return op->emitError("cannot vectorize this op for the CPU");
  return success();
}

namespace {
struct TileAndVectorizePass
    : ens::impl::EnsCpuTileAndVectorizeBase<TileAndVectorizePass> {
  using EnsCpuTileAndVectorizeBase::EnsCpuTileAndVectorizeBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    IRRewriter rewriter(&getContext());
    // Ops in a loop over the members are tiled for registers only; the loop
    // is what runs on several threads.
    SmallVector<linalg::LinalgOp> ops;
    function.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    TileTarget target{threads, vectorBytes};
    TileTarget inLoop{1, vectorBytes};
    // Consumers first, so that a fill that one takes into its tiles
    // (tileWithFill) is left unused rather than tiled on its own.
    for (linalg::LinalgOp op : llvm::reverse(ops)) {
      if (isa<linalg::FillOp>(*op) && op->use_empty()) {
        rewriter.eraseOp(op);
        continue;
      }
      bool nested = op->getParentOfType<scf::ForallOp>() != nullptr;
      if (failed(tileAndVectorize(rewriter, op, nested ? inLoop : target)))
        return signalPassFailure();
    }

    // What vectorize_children_and_apply_patterns applies after vectorizing:
    // multiplications reduced along a dimension become vector.contract, and
    // reads through slices read the whole tensor at an offset.
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorBroadcastPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    // Slices of empty tensors become empty tensors in the loops, where
    // bufferization can put them into the loops' results.
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyBounded(function, std::move(patterns),
                            "vectorization cleanup")))
      signalPassFailure();
  }
};
} // namespace
