//===- LowerVectors.cpp - Vector ops to what LLVM handles well ------------===//
//
// Lowers vector ops to 1-D vector ops and FMAs (ens-cpu-lower-vectors).
//
//===----------------------------------------------------------------------===//

#include "OpAnalysis.h"

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

/// The accumulator of `contract` if it sums float products into a vector
/// of at least `minRank` dimensions, outside any mask; null otherwise.
static VectorType getSummedVectorAccumulator(vector::ContractionOp contract,
                                             int64_t minRank) {
  auto accType = dyn_cast<VectorType>(contract.getAccType());
  if (contract.getKind() != vector::CombiningKind::ADD || !accType ||
      !isa<FloatType>(accType.getElementType()) ||
      accType.getRank() < minRank ||
      isa<vector::MaskOp>(contract->getParentOp()))
    return nullptr;
  return accType;
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
    VectorType accType = getSummedVectorAccumulator(contract, 3);
    if (!accType)
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

namespace {
/// Lowers a contraction of two operands that both read the accumulator's
/// vector (innermost) dimension innermost, with every reduction dimension
/// of one iteration, where each input reads a dimension of the accumulator
/// that the other does not (a filter gradient's tile of output channels by
/// row taps, as partial results per column tap, each the product of an
/// output gradient vector and an image vector): one FMA per row of the
/// accumulator, of the rows of the inputs that it reads. Upstream's
/// lowering would take such a tile apart through its middle dimensions.
struct ProductRowsToFma : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp contract,
                                PatternRewriter &rewriter) const override {
    VectorType accType = getSummedVectorAccumulator(contract, 2);
    if (!accType)
      return failure();
    std::optional<SmallVector<int64_t>> shape = contract.getShapeForUnroll();
    SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
    AffineExpr vector = maps[2].getResults().back();
    if (!shape || llvm::any_of(ArrayRef(maps).take_front(2), [&](AffineMap m) {
          return m.getNumResults() == 0 || m.getResults().back() != vector;
        }))
      return failure();
    bool lhsOnly = false, rhsOnly = false;
    for (auto [dim, iterator] :
         llvm::enumerate(contract.getIteratorTypesArray())) {
      int64_t extent = (*shape)[dim];
      if (iterator == vector::IteratorType::reduction && extent != 1)
        return failure();
      bool lhs = maps[0].isFunctionOfDim(dim),
           rhs = maps[1].isFunctionOfDim(dim);
      lhsOnly |= extent > 1 && lhs && !rhs;
      rhsOnly |= extent > 1 && rhs && !lhs;
    }
    if (!lhsOnly || !rhsOnly)
      return failure();

    // The position in an operand read through `map` of the row where the
    // loops are at `dims`, without the vector dimension.
    auto position = [](AffineMap map, ArrayRef<int64_t> dims) {
      SmallVector<int64_t> at;
      for (AffineExpr expr : map.getResults().drop_back())
        at.push_back(dims[cast<AffineDimExpr>(expr).getPosition()]);
      return at;
    };
    Location loc = contract.getLoc();
    auto row = [&](Value operand, ArrayRef<int64_t> at) -> Value {
      return at.empty() ? operand
                        : rewriter.create<vector::ExtractOp>(loc, operand, at);
    };
    ArrayRef<int64_t> rows = accType.getShape().drop_back();
    Value tile = contract.getAcc();
    // Every row of the accumulator, the loops of its dimensions at its
    // position and every other loop (the unit reductions) at 0.
    SmallVector<int64_t> at(rows.size(), 0);
    for (int64_t count = ShapedType::getNumElements(rows); count > 0; --count) {
      SmallVector<int64_t> dims(shape->size(), 0);
      for (auto [index, expr] :
           llvm::enumerate(maps[2].getResults().drop_back()))
        dims[cast<AffineDimExpr>(expr).getPosition()] = at[index];
      Value sum = rewriter.create<vector::FMAOp>(
          loc, row(contract.getLhs(), position(maps[0], dims)),
          row(contract.getRhs(), position(maps[1], dims)), row(tile, at));
      tile = rewriter.create<vector::InsertOp>(loc, sum, tile, at);
      for (int64_t index = rows.size() - 1; index >= 0; --index) {
        if (++at[index] < rows[index])
          break;
        at[index] = 0;
      }
    }
    rewriter.replaceOp(contract, tile);
    return success();
  }
};
} // namespace

/// Whether `type` is an n-D vector whose rows are narrower than a register:
/// the tile of an elementwise op that runs along two loops of its result
/// (ens-cpu-tile-and-vectorize), as [8, 2] for a pooling window's columns.
static bool hasNarrowRows(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getRank() >= 2 && !vector.isScalable() &&
         vector.getShape().back() * vector.getElementTypeBitWidth() <
             cpu::kNarrowRowBits;
}

namespace {
/// Computes an elementwise op on vectors with narrow rows on their 1-D
/// form: LLVM would otherwise compute each row on its own, a few lanes at a
/// time. The shape_casts around it fold with those of the flattened
/// transfers and of its neighbours.
struct FlattenNarrowElementwise : RewritePattern {
  FlattenNarrowElementwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!OpTrait::hasElementwiseMappableTraits(op) ||
        op->getNumResults() != 1 || !hasNarrowRows(op->getResult(0).getType()))
      return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<VectorType>(operand.getType());
      if (!type)
        return failure();
      auto flat =
          VectorType::get({type.getNumElements()}, type.getElementType());
      operands.push_back(
          rewriter.create<vector::ShapeCastOp>(op->getLoc(), flat, operand));
    }
    auto type = cast<VectorType>(op->getResult(0).getType());
    OperationState state(
        op->getLoc(), op->getName(), operands,
        VectorType::get({type.getNumElements()}, type.getElementType()),
        op->getAttrs());
    Operation *flat = rewriter.create(state);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, type,
                                                     flat->getResult(0));
    return success();
  }
};
} // namespace

namespace {
/// Reads a 1-D vector of n elements 2 apart (one tap of each 2-wide pooling
/// window, a slice with stride 2) as two loads of n contiguous elements and
/// one shuffle that picks them, instead of the element-at-a-time loop that
/// VectorToSCF gives a read at a stride. The loads cover the run of
/// 2n - 1 elements from the first to the last one read: the first n, and
/// the n that end at the last (they overlap by one), so neither reads past
/// what the strided read covers. They read a view of the same buffer with
/// a unit innermost stride.
struct StrideTwoReadToShuffle : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(read.getSource().getType());
    VectorType type = read.getVectorType();
    if (!memref || !memref.hasStaticShape() || type.getRank() != 1 ||
        type.isScalable() || type.getNumElements() < 2 ||
        memref.getShape().back() < type.getNumElements() || read.getMask() ||
        !read.getInBounds()[0] || !read.getPermutationMap().isMinorIdentity())
      return failure();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getStridesAndOffset(memref, strides, offset)) ||
        ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic) || strides.back() != 2)
      return failure();

    Location loc = read.getLoc();
    int64_t lanes = type.getNumElements();
    SmallVector<int64_t> sizes(memref.getShape());
    sizes.back() = 2 * sizes.back() - 1;
    strides.back() = 1;
    auto contiguous = MemRefType::get(
        sizes, memref.getElementType(),
        StridedLayoutAttr::get(read.getContext(), offset, strides),
        memref.getMemorySpace());
    Value view = rewriter.create<memref::ReinterpretCastOp>(
        loc, contiguous, read.getSource(), offset, sizes, strides);
    SmallVector<Value> indices(read.getIndices());
    Value first = rewriter.create<arith::MulIOp>(
        loc, indices.back(), rewriter.create<arith::ConstantIndexOp>(loc, 2));
    indices.back() = first;
    Value low = rewriter.create<vector::LoadOp>(loc, type, view, indices);
    indices.back() = rewriter.create<arith::AddIOp>(
        loc, first, rewriter.create<arith::ConstantIndexOp>(loc, lanes - 1));
    Value high = rewriter.create<vector::LoadOp>(loc, type, view, indices);
    // Element 2i of the run is lane 2i of `low` or lane 2i - (n - 1) of
    // `high`, which the shuffle numbers n + 2i - (n - 1).
    SmallVector<int64_t> picked;
    for (int64_t lane = 0; lane < lanes; ++lane)
      picked.push_back(2 * lane < lanes ? 2 * lane : 2 * lane + 1);
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(read, low, high, picked);
    return success();
  }
};
} // namespace

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
    // Before the unrolling, which would cut such a tile through its middle.
    unrolling.add<ProductRowsToFma>(context, /*benefit=*/2);
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

    // Tiles of narrow rows become 1-D vectors before their transfers are
    // cut into rows. Only their ops and those the rewrite creates are
    // rewritten: the other transfers, with rows as wide as a register, stay.
    SmallVector<Operation *> narrowOps;
    function.walk([&](Operation *op) {
      if (llvm::any_of(op->getOperandTypes(), hasNarrowRows) ||
          llvm::any_of(op->getResultTypes(), hasNarrowRows))
        narrowOps.push_back(op);
    });
    RewritePatternSet narrow(context);
    vector::populateFlattenVectorTransferPatterns(narrow,
                                                  cpu::kNarrowRowBits - 1);
    narrow.add<FlattenNarrowElementwise>(context);
    // Upstream flattens a transfer only where the memref is contiguous
    // along all of the vector's dimensions, unit ones included: a tile
    // written into a padded image's interior is contiguous along its last
    // dimensions alone.
    vector::populateCastAwayVectorLeadingOneDimPatterns(narrow);
    vector::ShapeCastOp::getCanonicalizationPatterns(narrow, context);
    GreedyRewriteConfig config = boundedRewrites();
    config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
    if (failed(applyOpPatternsAndFold(narrowOps, std::move(narrow), config))) {
      function.emitError() << "flattening narrow vectors did not converge "
                              "within "
                           << kMaxRewrites << " rewrites";
      return signalPassFailure();
    }

    RewritePatternSet transfers(context);
    populateVectorToSCFConversionPatterns(
        transfers,
        VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(1));
    vector::populateVectorTransferLoweringPatterns(transfers,
                                                   /*maxTransferRank=*/1);
    transfers.add<StrideTwoReadToShuffle>(context, /*benefit=*/2);
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
