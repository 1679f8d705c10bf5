//===- LowerVectors.cpp - Vector ops to what LLVM handles well ------------===//
//
// Lowers vector ops to 1-D vector ops and FMAs (ens-cpu-lower-vectors).
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPULOWERVECTORS
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

/// The accumulator's vector (innermost) dimension of a contraction, which
/// input reads it (`along`; 0 or 1) and the maps of that input and the other.
struct VectorOperands {
  unsigned dim, input;
  AffineMap along, across;
};

/// The VectorOperands of `contract`, whose accumulator has a dimension.
static VectorOperands getVectorOperands(vector::ContractionOp contract) {
  SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
  unsigned dim = cast<AffineDimExpr>(maps[2].getResults().back()).getPosition();
  unsigned input = maps[0].isFunctionOfDim(dim) ? 0 : 1;
  return {dim, input, maps[input], maps[1 - input]};
}

/// The shape of the contractions that `contract` is cut into: extent 1
/// for each dimension of the accumulator other than its innermost (the
/// vector) that only the operand reading the vector reads (the image rows
/// of a convolution's tile), and the full extent for every other; nothing
/// for a contraction without such dimensions (a matrix product).
static std::optional<SmallVector<int64_t>>
rowsByOneVector(vector::ContractionOp contract) {
  std::optional<SmallVector<int64_t>> shape = contract.getShapeForUnroll();
  SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
  if (!shape || maps[2].getNumResults() == 0)
    return std::nullopt;
  VectorOperands vector = getVectorOperands(contract);
  SmallVector<int64_t> native(*shape);
  for (unsigned dim = 0; dim < native.size(); ++dim)
    if (dim != vector.dim && maps[2].isFunctionOfDim(dim) &&
        vector.along.isFunctionOfDim(dim) &&
        !vector.across.isFunctionOfDim(dim))
      native[dim] = 1;
  if (native == *shape)
    return std::nullopt;
  return native;
}

namespace {
/// Lowers a contraction of a vector by a column of broadcast elements into
/// a tile of rows by one vector (every other dimension of one iteration,
/// the reductions included) to one FMA per row, where the accumulator has
/// a unit dimension between the rows and the vector (a convolution's image
/// row): upstream's lowering would unroll such a contraction along the
/// vector's lanes instead, giving FMAs along the rows.
struct RowsByVectorToFma : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp contract,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<VectorType>(contract.getAccType());
    if (contract.getKind() != vector::CombiningKind::ADD || !accType ||
        !isa<FloatType>(accType.getElementType()) || accType.getRank() < 3 ||
        isa<vector::MaskOp>(contract->getParentOp()))
      return failure();
    std::optional<SmallVector<int64_t>> shape = contract.getShapeForUnroll();
    SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
    auto [vectorDim, vectorInput, along, across] = getVectorOperands(contract);
    if (!shape || across.isFunctionOfDim(vectorDim))
      return failure();
    std::optional<unsigned> rowDim;
    for (auto [dim, extent] : llvm::enumerate(*shape)) {
      if (dim == vectorDim || extent == 1)
        continue;
      if (rowDim || along.isFunctionOfDim(dim) || !across.isFunctionOfDim(dim))
        return failure();
      rowDim = dim;
    }
    // The vector is the innermost dimension of its operand, and an image
    // row lies between the rows and the vector in the accumulator, or the
    // first input reads the vector (a convolution over flattened image
    // rows): upstream's outer products run along the second input.
    if (!rowDim || along.getResults().back() != maps[2].getResults().back() ||
        (vectorInput != 0 && *maps[2].getResultPosition(getAffineDimExpr(
                                 *rowDim, contract.getContext())) +
                                     2 >=
                                 accType.getRank()))
      return failure();

    // Positions of row `row` in the operands and the accumulator: the row
    // where `rowDim` is, 0 in every other (unit) dimension.
    auto position = [&](AffineMap map, int64_t row, unsigned rank) {
      SmallVector<int64_t> at;
      for (AffineExpr expr : map.getResults().take_front(rank)) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        at.push_back(dim && dim.getPosition() == *rowDim ? row : 0);
      }
      return at;
    };
    Location loc = contract.getLoc();
    Value column = contract->getOperand(1 - vectorInput);
    Value vector = rewriter.create<vector::ExtractOp>(
        loc, contract->getOperand(vectorInput),
        position(along, 0, along.getNumResults() - 1));
    Value tile = contract.getAcc();
    for (int64_t row = 0; row < (*shape)[*rowDim]; ++row) {
      Value scalar = rewriter.create<vector::ExtractOp>(
          loc, column, position(across, row, across.getNumResults()));
      Value broadcast =
          rewriter.create<vector::SplatOp>(loc, vector.getType(), scalar);
      SmallVector<int64_t> at = position(maps[2], row, accType.getRank() - 1);
      Value accumulator = rewriter.create<vector::ExtractOp>(loc, tile, at);
      Value sum =
          rewriter.create<vector::FMAOp>(loc, vector, broadcast, accumulator);
      tile = rewriter.create<vector::InsertOp>(loc, sum, tile, at);
    }
    rewriter.replaceOp(contract, tile);
    return success();
  }
};

/// Lowers vector ops in three stages, each a bounded rewrite of its own:
/// contractions (to outer products) and reductions, then transfers (to 1-D),
/// then the rest. No canonicalization is mixed in: together with these
/// patterns it can rewrite without end.
struct LowerVectorsPass : ens::impl::EnsCpuLowerVectorsBase<LowerVectorsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    func::FuncOp function = getOperation();
    vector::VectorTransformsOptions lowering;
    lowering.setVectorTransformsOptions(
        vector::VectorContractLowering::OuterProduct);
    lowering.setVectorMultiReductionLowering(
        vector::VectorMultiReductionLowering::InnerParallel);
    lowering.setVectorTransposeLowering(
        vector::VectorTransposeLowering::Shuffle1D);

    // A convolution's tile of output channels by image rows by columns is
    // first cut into one contraction per image row, which all read the same
    // column of filter taps, and each becomes one FMA per channel
    // (RowsByVectorToFma); LLVM then broadcasts each tap once for them all.
    RewritePatternSet unrolling(context);
    vector::UnrollVectorOptions unroll;
    unroll.setFilterConstraint(
        [](Operation *op) { return success(isa<vector::ContractionOp>(op)); });
    unroll.setNativeShapeFn(
        [](Operation *op) -> std::optional<SmallVector<int64_t>> {
          auto contract = cast<vector::ContractionOp>(op);
          return rowsByOneVector(contract);
        });
    vector::populateVectorUnrollPatterns(unrolling, unroll);
    unrolling.add<RowsByVectorToFma>(context);
    if (failed(applyBounded(function, std::move(unrolling),
                            "unrolling vector contractions")))
      return signalPassFailure();

    RewritePatternSet contractions(context);
    vector::populateVectorContractLoweringPatterns(contractions, lowering);
    vector::populateVectorTransferPermutationMapLoweringPatterns(contractions);
    vector::populateVectorMultiReductionLoweringPatterns(
        contractions, lowering.vectorMultiReductionLowering);
    if (failed(applyBounded(function, std::move(contractions),
                            "lowering vector contractions")))
      return signalPassFailure();

    RewritePatternSet transfers(context);
    populateVectorToSCFConversionPatterns(
        transfers,
        VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(1));
    vector::populateVectorTransferLoweringPatterns(transfers,
                                                   /*maxTransferRank=*/1);
    if (failed(applyBounded(function, std::move(transfers),
                            "lowering vector transfers")))
      return signalPassFailure();

    RewritePatternSet rest(context);
    vector::populateVectorOuterProductLoweringPatterns(rest);
    vector::populateVectorBroadcastLoweringPatterns(rest);
    vector::populateVectorShapeCastLoweringPatterns(rest);
    vector::populateVectorTransposeLoweringPatterns(rest, lowering);
    vector::populateVectorMaskOpLoweringPatterns(rest);
    if (failed(applyBounded(function, std::move(rest), "lowering vector ops")))
      signalPassFailure();
  }
};
} // namespace
