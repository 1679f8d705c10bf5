//===- TileAndVectorize.cpp - Register tiles as vector code ---------------===//
//
// Cuts every linalg op on tensors into tiles for threads and registers and
// vectorizes the register tiles (ens-cpu-tile-and-vectorize).
//
//===----------------------------------------------------------------------===//

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

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUTILEANDVECTORIZE
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;
using cpu::kMinParallelWork;

namespace {
/// The machine that code is tiled for.
struct TileTarget {
  /// Threads that will run the tiles of one op.
  unsigned threads;
  /// The width of the widest vector registers in bytes.
  unsigned vectorBytes;
};

/// How one linalg op is cut into tiles.
struct TilePlan {
  /// The extent of each loop in one register tile. Equal to the loop's
  /// extent for loops that are not tiled.
  SmallVector<int64_t> tile;
  /// Whether the register tiles become vector code.
  bool vectorize = false;
  /// The loop whose tiles run on different threads, if any, and how many
  /// of its iterations each such tile covers.
  std::optional<unsigned> parallelLoop;
  int64_t chunk = 0;
};
} // namespace

/// Rows of the result in one register tile of a contraction: with one vector
/// per row, 8 accumulators stay in registers while the reduction runs.
static constexpr int64_t kRegisterRows = 8;

/// The largest divisor of `extent` that is at most `bound`, so that tiles
/// divide their loops evenly and keep static shapes.
static int64_t largestDivisor(int64_t extent, int64_t bound) {
  for (int64_t divisor = std::min(extent, bound); divisor > 1; --divisor)
    if (extent % divisor == 0)
      return divisor;
  return 1;
}

/// The loop that indexes the innermost (contiguous) dimension of `operand`,
/// if it is indexed by a loop alone.
static std::optional<unsigned> innermostLoop(linalg::LinalgOp op,
                                             OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return dim.getPosition();
  return std::nullopt;
}

/// The loop to vectorize along: for a contraction, the innermost dimension
/// of the result (each step of the reduction is then an outer product);
/// otherwise the innermost dimension of the largest operand, so that most
/// memory is read and written as whole vectors. Results win ties.
static std::optional<unsigned> pickVectorLoop(linalg::LinalgOp op,
                                              bool contraction) {
  if (contraction)
    return innermostLoop(op, *op.getDpsInitOperand(0));
  OpOperand *largest = nullptr;
  int64_t most = 0;
  for (OpOperand &operand : llvm::reverse(op->getOpOperands())) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (type && type.getRank() > 0 && type.getNumElements() > most) {
      most = type.getNumElements();
      largest = &operand;
    }
  }
  if (!largest)
    return std::nullopt;
  return innermostLoop(op, *largest);
}

/// The widest element type among the operands of `op` in bits, or nothing
/// if some operand cannot be vectorized: i1 is stored a byte per element,
/// but a vector of i1 would be stored a bit per element.
static std::optional<unsigned> widestElementBits(linalg::LinalgOp op) {
  unsigned widest = 0;
  for (Value operand : op->getOperands()) {
    Type type = getElementTypeOrSelf(operand.getType());
    if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() < 8)
      return std::nullopt;
    widest = std::max(widest, type.getIntOrFloatBitWidth());
  }
  return widest;
}

/// Chooses the tiles of `op`, whose loops have the static `extents`.
static TilePlan planTiles(linalg::LinalgOp op, ArrayRef<int64_t> extents,
                          const TileTarget &options) {
  unsigned numLoops = extents.size();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  TilePlan plan;
  plan.tile.assign(extents.begin(), extents.end());

  bool contraction = linalg::isaContractionOpInterface(op);
  std::optional<unsigned> bits = widestElementBits(op);
  std::optional<unsigned> vectorLoop;
  // A reduction to a scalar would vectorize to a vector.contract with a
  // 0-d accumulator, which the vector dialect rejects; it stays scalar.
  bool scalarResult =
      cast<ShapedType>(op.getDpsInitOperand(0)->get().getType()).getRank() == 0;
  if (bits && !scalarResult && succeeded(linalg::vectorizeOpPrecondition(op)))
    vectorLoop = pickVectorLoop(op, contraction);
  if (vectorLoop) {
    plan.vectorize = true;
    plan.tile.assign(numLoops, 1);
    int64_t lanes = std::max<int64_t>(1, options.vectorBytes * 8 / *bits);
    plan.tile[*vectorLoop] = largestDivisor(extents[*vectorLoop], lanes);
    AffineMap result = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (contraction && result.getNumResults() >= 2) {
      auto row =
          dyn_cast<AffineDimExpr>(result.getResult(result.getNumResults() - 2));
      if (row && row.getPosition() != *vectorLoop)
        plan.tile[row.getPosition()] =
            largestDivisor(extents[row.getPosition()], kRegisterRows);
    }
  }

  int64_t work = 1;
  for (int64_t extent : extents)
    work *= extent;
  if (options.threads <= 1 || work < kMinParallelWork)
    return plan;
  // The first parallel loop of more than one iteration runs on threads, one
  // register tile per iteration; the vector loop only if there is no other,
  // cut into about one chunk per thread.
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (iterators[loop] != utils::IteratorType::parallel || loop == vectorLoop)
      continue;
    if (extents[loop] == 1)
      continue;
    plan.parallelLoop = loop;
    break;
  }
  if (!plan.parallelLoop && vectorLoop &&
      iterators[*vectorLoop] == utils::IteratorType::parallel)
    plan.parallelLoop = vectorLoop;
  if (!plan.parallelLoop)
    return plan;
  unsigned loop = *plan.parallelLoop;
  int64_t extent = extents[loop];
  if (plan.tile[loop] < extent && loop != vectorLoop) {
    plan.chunk = plan.tile[loop];
    return plan;
  }
  // Whole vectors per chunk, as close to one chunk per thread as divides
  // the loop.
  int64_t step = loop == vectorLoop ? plan.tile[loop] : 1;
  int64_t chunk =
      llvm::alignTo(llvm::divideCeil(extent, options.threads), step);
  while (extent % chunk != 0)
    chunk += step;
  if (chunk == extent)
    plan.parallelLoop.reset();
  else
    plan.chunk = chunk;
  return plan;
}

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
  TilePlan plan = planTiles(op, extents, options);

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
    FailureOr<linalg::LinalgOp> tiled =
        tileOp(rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(tiled))
      return failure();
    op = *tiled;
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
    for (linalg::LinalgOp op : ops) {
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
