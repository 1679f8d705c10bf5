//===- HoistTransfers.cpp - Accumulators out of reduction loops -----------===//
//
// Keeps the accumulators of reduction loops in registers
// (ens-cpu-hoist-transfers).
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/Passes.h"

#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUHOISTTRANSFERS
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
/// A write of a vector that only gained unit dimensions, by a broadcast
/// that adds leading ones and a transpose, writes the vector itself through
/// the write's map without those dimensions. A convolution's register tile
/// reads its accumulator through such a map, and writes it back in this
/// longer form (the vectorizer writes the tile's full rank); once both
/// match, the accumulator can leave the loop.
struct WriteWithoutUnitDims : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    auto transpose = write.getVector().getDefiningOp<vector::TransposeOp>();
    if (!transpose || write.getMask() ||
        llvm::any_of(write.getInBoundsValues(), [](bool b) { return !b; }))
      return failure();
    auto broadcast = transpose.getVector().getDefiningOp<vector::BroadcastOp>();
    auto source = broadcast ? dyn_cast<VectorType>(broadcast.getSourceType())
                            : VectorType();
    if (!source)
      return failure();
    // The broadcast may only prepend ones.
    ArrayRef<int64_t> widened = broadcast.getResultVectorType().getShape();
    int64_t added = widened.size() - source.getRank();
    if (llvm::any_of(widened.take_front(added),
                     [](int64_t size) { return size != 1; }) ||
        widened.drop_front(added) != source.getShape())
      return failure();
    // Source dimension k sits at the written vector's dimension that the
    // transpose takes from the broadcast's dimension added + k.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    AffineMap map = write.getPermutationMap();
    SmallVector<AffineExpr> results;
    for (int64_t k = 0; k < source.getRank(); ++k) {
      auto position = llvm::find(permutation, added + k) - permutation.begin();
      results.push_back(map.getResult(position));
    }
    AffineMap narrowed =
        AffineMap::get(map.getNumDims(), 0, results, rewriter.getContext());
    if (!narrowed.isProjectedPermutation())
      return failure();
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        write, broadcast.getSource(), write.getSource(), write.getIndices(),
        AffineMapAttr::get(narrowed),
        rewriter.getBoolArrayAttr(SmallVector<bool>(source.getRank(), true)));
    return success();
  }
};

/// A transfer through a subview of unit strides and the same rank as its
/// source reads or writes the source itself, at the subview's offsets plus
/// its own indices. The accumulator of a register tile in one part of a
/// contraction split at a remainder (ens-cpu-tile-and-vectorize) lives in
/// such a subview, and upstream's hoisting leaves transfers through views
/// alone. Only subviews used by nothing but transfers are looked through,
/// so that every access to the memory they view ends up on the source,
/// where the hoisting sees it.
template <typename TransferOp>
struct TransferThroughSubview : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(TransferOp transfer,
                                PatternRewriter &rewriter) const override {
    auto subview =
        transfer.getSource().template getDefiningOp<memref::SubViewOp>();
    if (!subview ||
        subview.getSourceType().getRank() != subview.getType().getRank() ||
        !llvm::all_of(subview.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }) ||
        !llvm::all_of(subview->getUsers(), [](Operation *user) {
          return isa<vector::TransferReadOp, vector::TransferWriteOp>(user);
        }))
      return failure();
    SmallVector<Value> indices;
    AffineExpr offset, index;
    bindSymbols(rewriter.getContext(), offset, index);
    for (auto [start, at] :
         llvm::zip_equal(subview.getMixedOffsets(), transfer.getIndices()))
      indices.push_back(getValueOrCreateConstantIndexOp(
          rewriter, transfer.getLoc(),
          affine::makeComposedFoldedAffineApply(rewriter, transfer.getLoc(),
                                                offset + index, {start, at})));
    rewriter.modifyOpInPlace(transfer, [&] {
      transfer.getSourceMutable().assign(subview.getSource());
      transfer.getIndicesMutable().assign(indices);
    });
    return success();
  }
};

/// A read and a write of the same vector in every iteration of a loop move
/// out of the loop, which then carries the vector.
struct HoistTransfersPass
    : ens::impl::EnsCpuHoistTransfersBase<HoistTransfersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WriteWithoutUnitDims,
                 TransferThroughSubview<vector::TransferReadOp>,
                 TransferThroughSubview<vector::TransferWriteOp>>(
        &getContext());
    if (failed(applyBounded(getOperation(), std::move(patterns),
                            "unit dimensions and subviews of transfers")))
      return signalPassFailure();
    // A read and a write through the same subview now compute their indices
    // each for itself; the hoisting matches them only as the same values.
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    linalg::hoistRedundantVectorTransfers(getOperation());
    // An accumulator that its tile filled (ens-cpu-tile-and-vectorize) is
    // now read right after the fill's write: the read takes the written
    // vector, and the write, which the accumulator's own write after the
    // loop overwrites, goes.
    vector::transferOpflowOpt(rewriter, getOperation());
  }
};
} // namespace
