//===- TileAndVectorize.cpp - Register tiles as vector code ---------------===//
//
// Cuts every linalg op on tensors into tiles for threads and registers and
// vectorizes the register tiles (ens-cpu-tile-and-vectorize).
//
//===----------------------------------------------------------------------===//

#include "OpAnalysis.h"
#include "WindowTile.h"

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
  /// Whether the register tile's unit loops go before it is vectorized: a
  /// convolution's tile reads the image at `position + tap`, which the
  /// vectorizer takes only once the unit tap loops are gone.
  bool dropUnitLoops = false;
  /// Whether a sum of unit loops alone keeps its parallel loop when the
  /// unit loops go (dropUnitLoops).
  bool keepLoopOfUnitSums = false;
  /// A loop that the register tile does not divide, and the iteration at
  /// which the op is split in two along it: the first part is a whole
  /// number of tiles, and the second is planned again on its own.
  std::optional<std::pair<unsigned, int64_t>> split;
};
} // namespace

/// Rows of the result in one register tile of a convolution with one image
/// row, and vectors side by side in a column sum: 8 accumulators stay in
/// registers while the reduction runs.
static constexpr int64_t kRegisterRows = 8;

/// The most vectors side by side in one row of a contraction's register
/// tile, as in BLIS's AVX-512 and AVX2 kernels (two to four).
static constexpr int64_t kMaxTileVectors = 4;

/// The largest divisor of `extent` that is at most `bound`, so that tiles
/// divide their loops evenly and keep static shapes.
static int64_t largestDivisor(int64_t extent, int64_t bound) {
  for (int64_t divisor = std::min(extent, bound); divisor > 1; --divisor)
    if (extent % divisor == 0)
      return divisor;
  return 1;
}

/// The vector registers of a target whose widest vectors have `vectorBytes`
/// bytes: AVX-512 has 32, AVX and SSE have 16.
static int64_t vectorRegisters(unsigned vectorBytes) {
  return vectorBytes >= 64 ? 32 : 16;
}

namespace {
/// The register tile of a contraction: `rows` of the result by `vectors`
/// vectors of `width` lanes. Each step of the reduction then does
/// rows * vectors FMAs, reading `vectors` vectors of the operand that runs
/// along the vector loop and broadcasting `rows` elements of the other.
struct ContractionTile {
  int64_t rows = 1;
  int64_t vectors = 1;
  int64_t width = 1;
};
} // namespace

/// Chooses the register tile of a contraction whose result has `rowExtent`
/// rows and `vectorExtent` columns, on a target with `lanes` lanes per
/// vector and `registers` vector registers. Each step of the reduction
/// costs a tile of r rows and v vectors r + v loads when the operand read
/// along the vector loop is `contiguous`, and r + v * lanes otherwise (a
/// transposed operand, as in dX = dY * W^T, is read an element at a time:
/// such tiles are one vector wide and as tall as the registers allow). The
/// tile chosen needs the fewest loads per step over the whole result,
/// counting the tiles of what it leaves over (split off by planTiles and
/// tiled on their own), with its rows * vectors accumulators, the vectors of
/// a step (a gathered one takes four) and one broadcast in registers; on a
/// tie, the one with more accumulators, which keep more FMAs in flight.
static ContractionTile planContractionTile(int64_t rowExtent,
                                           int64_t vectorExtent, int64_t lanes,
                                           int64_t registers, bool contiguous) {
  ContractionTile best;
  best.width = std::min(vectorExtent, lanes);
  int64_t columnVectors = llvm::divideCeil(vectorExtent, best.width);
  int64_t maxVectors =
      contiguous ? std::min(kMaxTileVectors, vectorExtent / best.width) : 1;
  int64_t loadsPerVector = contiguous ? 1 : best.width;
  // A vector gathered from single elements is assembled in quarters, which
  // take registers of their own.
  int64_t vectorTemporaries = contiguous ? 1 : 4;
  // The loads of one reduction step over `extent` cut into tiles of `size`
  // (the last perhaps smaller), a tile of n costing tileLoads(n).
  auto loadsOver = [](int64_t extent, int64_t size, auto tileLoads) {
    int64_t loads = extent / size * tileLoads(size);
    if (extent % size != 0)
      loads += tileLoads(extent % size);
    return loads;
  };
  int64_t fewest = std::numeric_limits<int64_t>::max();
  for (int64_t vectors = 1; vectors <= maxVectors; ++vectors) {
    for (int64_t rows = 1; rows <= rowExtent; ++rows) {
      if (rows * vectors + vectors * vectorTemporaries + 1 > registers)
        break;
      int64_t loads = loadsOver(rowExtent, rows, [&](int64_t tileRows) {
        return loadsOver(columnVectors, vectors, [&](int64_t tileVectors) {
          return tileRows + tileVectors * loadsPerVector;
        });
      });
      if (loads < fewest ||
          (loads == fewest && rows * vectors > best.rows * best.vectors)) {
        fewest = loads;
        best.rows = rows;
        best.vectors = vectors;
      }
    }
  }
  return best;
}

/// Whether some input of `op` reads along `loop` contiguously: the loop
/// indexes its innermost dimension.
static bool readsContiguouslyAlong(linalg::LinalgOp op, unsigned loop) {
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *operand) {
    return cpu::innermostLoop(op, *operand) == loop;
  });
}

/// Chooses the tiles of `op`, whose loops have the static `extents`.
static TilePlan planTiles(linalg::LinalgOp op, ArrayRef<int64_t> extents,
                          const TileTarget &options) {
  unsigned numLoops = extents.size();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  TilePlan plan;
  plan.tile.assign(extents.begin(), extents.end());

  bool contraction = linalg::isaContractionOpInterface(op);
  std::optional<unsigned> bits = cpu::widestElementBits(op);
  std::optional<unsigned> vectorLoop;
  // A reduction to a scalar would vectorize to a vector.contract with a
  // 0-d accumulator, which the vector dialect rejects; it stays scalar.
  bool scalarResult =
      cast<ShapedType>(op.getDpsInitOperand(0)->get().getType()).getRank() == 0;
  std::optional<unsigned> rowLoop;
  std::optional<cpu::WindowTile> window;
  if (bits && !scalarResult) {
    if ((window = cpu::planWindowTile(op))) {
      vectorLoop = window->vectorLoop;
      rowLoop = window->rows;
      plan.dropUnitLoops = true;
      plan.keepLoopOfUnitSums = window->vectorReadsFilter;
    } else if (succeeded(linalg::vectorizeOpPrecondition(op))) {
      vectorLoop = cpu::pickVectorLoop(op, contraction);
      if (contraction)
        rowLoop = cpu::rowLoop(op);
    }
  }
  if (vectorLoop) {
    plan.vectorize = true;
    plan.tile.assign(numLoops, 1);
    int64_t lanes = std::max<int64_t>(1, options.vectorBytes * 8 / *bits);
    plan.tile[*vectorLoop] = largestDivisor(extents[*vectorLoop], lanes);
    if (contraction) {
      bool hasRows = rowLoop && rowLoop != vectorLoop;
      bool contiguous = readsContiguouslyAlong(op, *vectorLoop);
      ContractionTile tile = planContractionTile(
          hasRows ? extents[*rowLoop] : 1, extents[*vectorLoop], lanes,
          vectorRegisters(options.vectorBytes), contiguous);
      int64_t columns = tile.vectors * tile.width;
      plan.tile[*vectorLoop] = columns;
      if (hasRows)
        plan.tile[*rowLoop] = tile.rows;
      if (hasRows && extents[*rowLoop] % tile.rows != 0)
        plan.split = {*rowLoop,
                      extents[*rowLoop] - extents[*rowLoop] % tile.rows};
      else if (extents[*vectorLoop] % columns != 0)
        plan.split = {*vectorLoop,
                      extents[*vectorLoop] - extents[*vectorLoop] % columns};
      LLVM_DEBUG({
        llvm::dbgs() << "[" DEBUG_TYPE "] contraction at " << op.getLoc()
                     << ": " << tile.rows << " rows x " << tile.vectors
                     << " vectors of " << tile.width << " lanes, "
                     << (contiguous ? "contiguous" : "gathered") << ", "
                     << vectorRegisters(options.vectorBytes) << " registers";
        if (plan.split)
          llvm::dbgs() << "; split at " << plan.split->second << " along loop "
                       << plan.split->first;
        llvm::dbgs() << "\n";
      });
      // The parts of a split op are tiled on their own.
      if (plan.split)
        return plan;
    } else if (window && window->imageRows) {
      auto [rows, imageRows] = cpu::planWindowRows(
          extents[*rowLoop], extents[*window->imageRows], kMaxTileVectors,
          vectorRegisters(options.vectorBytes));
      plan.tile[*rowLoop] = rows;
      plan.tile[*window->imageRows] = imageRows;
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] convolution at " << op.getLoc() << ": "
                 << rows << " rows x " << imageRows << " image rows x "
                 << plan.tile[*vectorLoop] << " lanes\n");
    } else if (rowLoop && rowLoop != vectorLoop) {
      int64_t rows = largestDivisor(extents[*rowLoop], kRegisterRows);
      plan.tile[*rowLoop] = rows;
      // A convolution whose vector reads the image along one loop with no
      // image rows to span (one over flattened image rows) takes two
      // vectors side by side where they fit, so that each broadcast filter
      // tap serves two FMAs.
      int64_t twoVectors = 2 * plan.tile[*vectorLoop];
      if (window && !window->vectorReadsFilter &&
          plan.tile[*vectorLoop] == lanes &&
          extents[*vectorLoop] % twoVectors == 0 &&
          rows * 2 + 2 + 1 <= vectorRegisters(options.vectorBytes))
        plan.tile[*vectorLoop] = twoVectors;
    } else if (extents[*vectorLoop] * *bits < cpu::kNarrowRowBits) {
      // An innermost dimension narrower than a vector (a pooling window's
      // columns in its adjoint's [rows, window rows, columns, window
      // columns] view) would leave most lanes idle: the vector runs along
      // the next dimension too, which the result holds contiguously after it.
      if (std::optional<unsigned> outer =
              cpu::contiguousOuterLoop(op, *vectorLoop)) {
        plan.tile[*outer] =
            largestDivisor(extents[*outer], lanes / extents[*vectorLoop]);
        LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] narrow elementwise op at "
                                << op.getLoc() << ": " << plan.tile[*outer]
                                << " x " << extents[*vectorLoop] << " lanes\n");
      }
    } else if (isa<linalg::TransposeOp>(*op)) {
      // A transpose that moves its input's innermost dimension reads a
      // vector's worth of it per step too, a tile of rows that the vector
      // lowering transposes in registers: a vector of the result alone
      // would gather an element per lane.
      std::optional<unsigned> inputLoop =
          cpu::innermostLoop(op, *op.getDpsInputOperand(0));
      if (inputLoop && *inputLoop != *vectorLoop)
        plan.tile[*inputLoop] = largestDivisor(extents[*inputLoop], lanes);
    }
    // A reduction across the vector loop (a column sum) reads one vector
    // per step at a stride of a whole row: a tile of up to 8 vectors side
    // by side reads 8 times as much contiguous memory per row, with 8
    // accumulators in registers.
    if (!contraction && !rowLoop && plan.tile[*vectorLoop] == lanes &&
        iterators[*vectorLoop] == utils::IteratorType::parallel &&
        op.getNumReductionLoops() > 0) {
      int64_t wide =
          largestDivisor(extents[*vectorLoop], lanes * kRegisterRows);
      if (wide % lanes == 0)
        plan.tile[*vectorLoop] = wide;
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
        !readsContiguouslyAlong(op, *vectorLoop)) {
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
  TilePlan plan = planTiles(op, extents, options);

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
