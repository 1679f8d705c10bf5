//===- HoistTransfers.cpp - Accumulators out of reduction loops -----------===//
//
// Keeps the accumulators of reduction loops in registers
// (ens-cpu-hoist-transfers).
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/Passes.h"

#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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

/// A read and a write of the same vector in every iteration of a loop move
/// out of the loop, which then carries the vector.
struct HoistTransfersPass
    : ens::impl::EnsCpuHoistTransfersBase<HoistTransfersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WriteWithoutUnitDims>(&getContext());
    if (failed(applyBounded(getOperation(), std::move(patterns),
                            "unit dimensions of written vectors")))
      return signalPassFailure();
    linalg::hoistRedundantVectorTransfers(getOperation());
  }
};
} // namespace
