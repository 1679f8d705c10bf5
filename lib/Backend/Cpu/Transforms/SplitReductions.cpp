//===- SplitReductions.cpp - Partial results along vector loops ----------===//
//
// Gives a reduction along the loop a vector would run partial results per
// lane (or per iteration of that loop, where other loops reduce too), and a
// convolution with a wide window one per tap, or, for a filter gradient
// with enough channels or a forward convolution with narrow images, its
// output channels innermost (ens-cpu-split-reductions).
//
//===----------------------------------------------------------------------===//

#include "ImageRows.h"
#include "OpAnalysis.h"
#include "PartialResults.h"

#include "ens/Backend/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cpu-split-reductions"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUSPLITREDUCTIONS
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

/// The tap loop of `window` to make parallel, if any: the reduction loop
/// that reads the image's innermost dimension at coefficient 1, with the
/// filter reading it innermost, and longer than the result's innermost
/// loop, which a vector would otherwise run along.
static std::optional<unsigned> tapToSplit(const cpu::WindowOp &window) {
  linalg::LinalgOp op = window.op;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(extents))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [loop, factor] : window.innermostRead) {
    if (iterators[loop] != utils::IteratorType::reduction ||
        extents[loop] <= extents[window.innermostResultLoop] ||
        !window.readsContiguouslyAlong(loop))
      continue;
    return loop;
  }
  return std::nullopt;
}

/// Whether `window` runs its vector along the image's columns
/// (WindowTile.h), as a forward convolution or an input gradient does, with
/// fewer than `lanes` of them: its output channels, if a whole number of
/// vectors, then make the wider vector. Not where the image is read at a
/// stride or dilation (a coefficient other than 1), whose tile along the
/// output channels does not vectorize.
static bool narrowerThanVector(const cpu::WindowOp &window, int64_t lanes) {
  linalg::LinalgOp op = window.op;
  int64_t extent = op.getStaticLoopRanges()[window.innermostResultLoop];
  if (ShapedType::isDynamic(extent) || extent >= lanes ||
      !window.readsContiguouslyAlong(window.innermostResultLoop))
    return false;
  return llvm::all_of(window.image.getResults(), [](AffineExpr expr) {
    std::optional<llvm::SmallDenseMap<unsigned, int64_t, 4>> terms =
        cpu::loopCoefficients(expr);
    return terms &&
           llvm::all_of(*terms, [](auto term) { return term.second == 1; });
  });
}

/// The fewest rows of a convolution vectorized along its output channels:
/// a row of accumulators each.
static constexpr int64_t kMinRows = 8;

/// The output-channel loop of a convolution `window` to vectorize along, if
/// any: a parallel loop of the result of at least `lanes` iterations, a
/// multiple of them, that the image does not read and the filter reads as
/// a dimension alone, where the tile's rows can run along a loop of the
/// result of at least kMinRows iterations that the filter does not read (a
/// filter gradient's input channel, a forward convolution's image column).
/// Along it each step of the reduction is a whole vector of the filter by
/// one broadcast image element per row (the form of a matrix product),
/// where partial results per tap multiply two vectors of a filter
/// gradient's output gradient columns, and a forward convolution's vector
/// along narrow image rows would leave lanes idle.
static std::optional<unsigned> channelsToVectorize(const cpu::WindowOp &window,
                                                   int64_t lanes) {
  linalg::LinalgOp op = window.op;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // The tile's rows run along the longest loop that the filter does not
  // read (WindowTile.h): with fewer than kMinRows, its accumulators could
  // not hide the FMAs' latency, and partial results per tap (or vectors
  // along the image's columns) do better.
  bool enoughRows =
      llvm::any_of(window.result.getResults(), [&](AffineExpr expr) {
        unsigned loop = cast<AffineDimExpr>(expr).getPosition();
        return extents[loop] >= kMinRows &&
               !window.filter.isFunctionOfDim(loop);
      });
  if (!enoughRows)
    return std::nullopt;
  for (AffineExpr expr : llvm::reverse(window.result.getResults())) {
    unsigned loop = cast<AffineDimExpr>(expr).getPosition();
    if (iterators[loop] != utils::IteratorType::parallel ||
        window.image.isFunctionOfDim(loop) ||
        !window.filter.getResultPosition(expr) || extents[loop] < lanes ||
        extents[loop] % lanes != 0)
      continue;
    return loop;
  }
  return std::nullopt;
}

/// `map` with the result that is dim `loop` moved last, and the permutation
/// of a linalg.transpose that moves an operand read through `map` so.
static std::pair<AffineMap, SmallVector<int64_t>>
moveResultLast(AffineMap map, unsigned loop) {
  unsigned position =
      *map.getResultPosition(getAffineDimExpr(loop, map.getContext()));
  SmallVector<int64_t> permutation;
  SmallVector<AffineExpr> results;
  for (unsigned dim = 0; dim < map.getNumResults(); ++dim) {
    if (dim == position)
      continue;
    permutation.push_back(dim);
    results.push_back(map.getResult(dim));
  }
  permutation.push_back(position);
  results.push_back(map.getResult(position));
  return {AffineMap::get(map.getNumDims(), 0, results, map.getContext()),
          permutation};
}

/// `value` transposed by `permutation`: a linalg.fill of the new shape if
/// `value` is a fill (an accumulator's zeros need no copy), otherwise a
/// linalg.transpose, placed right after `value` is defined, so that one
/// defined outside the loops around the insertion point (a forward
/// convolution's filter, inside a loop over the batch) is transposed once,
/// not once an iteration.
static Value transposed(RewriterBase &rewriter, Location loc, Value value,
                        ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(type.getDimSize(dim));
  OpBuilder::InsertionGuard guard(rewriter);
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    Value empty =
        rewriter.create<tensor::EmptyOp>(loc, shape, type.getElementType());
    return rewriter.create<linalg::FillOp>(loc, fill.value(), empty)
        .getResult(0);
  }
  rewriter.setInsertionPointAfterValue(value);
  Value empty =
      rewriter.create<tensor::EmptyOp>(loc, shape, type.getElementType());
  return rewriter.create<linalg::TransposeOp>(loc, value, empty, permutation)
      .getResult()[0];
}

/// Replaces the convolution `op` by one that reads its filter (a filter
/// gradient's output gradient) and writes its result with the dimension of
/// `loop` innermost, through transposed copies, and a transpose of that
/// result back: a filter gradient's output gradient is copied once, where
/// partial results per tap would read it once per tap; a forward
/// convolution's filter is small beside its image.
static void moveChannelsInnermost(RewriterBase &rewriter, linalg::GenericOp op,
                                  unsigned loop) {
  Location loc = op.getLoc();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto [filterMap, filterPermutation] = moveResultLast(maps[1], loop);
  auto [resultMap, resultPermutation] = moveResultLast(maps[2], loop);
  rewriter.setInsertionPoint(op);
  Value filter =
      transposed(rewriter, loc, op.getDpsInputs()[1], filterPermutation);
  Value init = transposed(rewriter, loc, op.getDpsInitOperand(0)->get(),
                          resultPermutation);
  auto moved = rewriter.create<linalg::GenericOp>(
      loc, init.getType(), ValueRange{op.getDpsInputs()[0], filter}, init,
      SmallVector<AffineMap>{maps[0], filterMap, resultMap},
      op.getIteratorTypesArray());
  rewriter.cloneRegionBefore(op.getRegion(), moved.getRegion(),
                             moved.getRegion().begin());
  SmallVector<int64_t> back(resultPermutation.size());
  for (auto [position, dim] : llvm::enumerate(resultPermutation))
    back[dim] = position;
  rewriter.replaceOp(op, transposed(rewriter, loc, moved.getResult(0), back));
}

/// Replaces `op` by one with its reduction loop `loop` parallel, writing a
/// partial result per iteration of `loop` (a new innermost dimension of the
/// result), and the combination of those into `op`'s accumulator. Fails,
/// changing nothing, unless `op` combines into its one result with an op
/// that has a neutral element (an add, a max): the partial results start
/// from it.
static LogicalResult splitLoop(RewriterBase &rewriter, linalg::GenericOp op,
                               unsigned loop) {
  std::optional<cpu::Combiner> combiner = cpu::Combiner::match(op);
  if (!combiner)
    return failure();

  Location loc = op.getLoc();
  Value accumulator = op.getDpsInitOperand(0)->get();
  auto type = cast<RankedTensorType>(accumulator.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(op.getStaticLoopRanges()[loop]);
  auto partialType = RankedTensorType::get(shape, type.getElementType());

  rewriter.setInsertionPoint(op);
  Value start =
      combiner->createNeutral(rewriter, loc, shape, type.getElementType());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.back() =
      maps.back().insertResult(getAffineDimExpr(loop, op.getContext()), rank);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators[loop] = utils::IteratorType::parallel;
  auto partial = rewriter.create<linalg::GenericOp>(
      loc, partialType, op.getDpsInputs(), start, maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), partial.getRegion(),
                             partial.getRegion().begin());
  rewriter.replaceOp(op, combiner->combine(rewriter, loc, partial.getResult(0),
                                           rank, accumulator));
  return success();
}

/// The loop a vector would run along in `op`, if it is a reduction loop:
/// the loop that reads the contiguous innermost dimension of `op`'s
/// largest operand, with the lanes of a vector of `vectorBytes` and the
/// loop's extent.
struct ReductionVector {
  unsigned loop;
  int64_t lanes, extent;
};
static std::optional<ReductionVector> getReductionVector(linalg::LinalgOp op,
                                                         unsigned vectorBytes) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  std::optional<unsigned> bits = cpu::widestElementBits(op);
  std::optional<unsigned> vectorLoop =
      cpu::pickVectorLoop(op, linalg::isaContractionOpInterface(op));
  if (ShapedType::isDynamicShape(extents) || !bits || !vectorLoop ||
      op.getIteratorTypesArray()[*vectorLoop] != utils::IteratorType::reduction)
    return std::nullopt;
  return ReductionVector{*vectorLoop, vectorBytes * 8 / *bits,
                         extents[*vectorLoop]};
}

/// The lanes to split the reduction of `op` into, if a vector would run
/// along its one reduction loop (getReductionVector) whose extent is a
/// multiple of the lanes and at least two vectors.
static std::optional<int64_t> lanesToSplit(linalg::LinalgOp op,
                                           unsigned vectorBytes) {
  if (op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1)
    return std::nullopt;
  std::optional<ReductionVector> vector = getReductionVector(op, vectorBytes);
  if (!vector || vector->lanes < 2 || vector->extent % vector->lanes != 0 ||
      vector->extent < 2 * vector->lanes)
    return std::nullopt;
  return vector->lanes;
}

/// The most iterations, in vectors, of a reduction loop that
/// innermostReductionToSplit gives partial results: each element of the
/// result then has at most this many vectors of them.
static constexpr int64_t kMaxPartialVectors = 4;

/// The reduction loop of `op` to give partial results, if a vector would
/// run along it (getReductionVector) and `op` has other reduction loops
/// (with one, lanesToSplit applies), and it has at most
/// kMaxPartialVectors vectors of iterations. A vector then runs along the
/// partial results, adding a whole vector a step, where it would otherwise
/// reduce each vector to one element, a chain of dependent adds (a bias
/// gradient: a sum over the batch and the image's rows and columns).
static std::optional<unsigned> innermostReductionToSplit(linalg::LinalgOp op,
                                                         unsigned vectorBytes) {
  if (op.getNumReductionLoops() < 2 || op.getNumDpsInits() != 1 ||
      !op.hasOnlyProjectedPermutations())
    return std::nullopt;
  std::optional<ReductionVector> vector = getReductionVector(op, vectorBytes);
  if (!vector || vector->lanes < 2 || vector->extent < 2 ||
      vector->extent > kMaxPartialVectors * vector->lanes)
    return std::nullopt;
  return vector->loop;
}

namespace {
struct SplitReductionsPass
    : ens::impl::EnsCpuSplitReductionsBase<SplitReductionsPass> {
  using EnsCpuSplitReductionsBase::EnsCpuSplitReductionsBase;

  void runOnOperation() override {
    // Loops made parallel whole (a window's tap, a reduction's innermost
    // loop), and ops whose one reduction loop is split into lanes.
    SmallVector<std::pair<linalg::GenericOp, unsigned>> loops;
    // Filter gradients vectorized along their output channels.
    SmallVector<std::pair<linalg::GenericOp, unsigned>> channelLoops;
    // Convolutions over narrow images whose rows are flattened.
    SmallVector<std::pair<linalg::GenericOp, cpu::ImageRows>> imageRows;
    SmallVector<std::pair<linalg::GenericOp, int64_t>> rows;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      if (std::optional<cpu::WindowOp> window = cpu::WindowOp::match(op)) {
        // A window op multiplies floats, whose width gives the lanes.
        std::optional<unsigned> bits = cpu::widestElementBits(op);
        if (!bits)
          return;
        int64_t lanes = vectorBytes * 8 / *bits;
        std::optional<unsigned> tap = tapToSplit(*window);
        if (!tap && !narrowerThanVector(*window, lanes))
          return;
        if (std::optional<unsigned> channels =
                channelsToVectorize(*window, lanes)) {
          LLVM_DEBUG(llvm::dbgs() << "output channels (loop " << *channels
                                  << ") innermost in " << op << "\n");
          channelLoops.emplace_back(op, *channels);
          return;
        }
        if (!tap) {
          if (std::optional<cpu::ImageRows> rows =
                  cpu::matchImageRows(*window, lanes)) {
            LLVM_DEBUG(llvm::dbgs()
                       << "image rows flattened in " << op << "\n");
            imageRows.emplace_back(op, *rows);
          }
          return;
        }
        LLVM_DEBUG(llvm::dbgs() << "partial sums along tap loop " << *tap
                                << " of " << op << "\n");
        loops.emplace_back(op, *tap);
        return;
      }
      if (std::optional<int64_t> lanes = lanesToSplit(op, vectorBytes)) {
        LLVM_DEBUG(llvm::dbgs() << "partial results per lane of " << *lanes
                                << " of " << op << "\n");
        rows.emplace_back(op, *lanes);
        return;
      }
      if (std::optional<unsigned> loop =
              innermostReductionToSplit(op, vectorBytes)) {
        LLVM_DEBUG(llvm::dbgs() << "partial results along reduction loop "
                                << *loop << " of " << op << "\n");
        loops.emplace_back(op, *loop);
      }
    });
    IRRewriter rewriter(&getContext());
    // splitLoop fails, leaving the op as it is, on a body it cannot combine
    // (no neutral element); a window's multiply-accumulate always splits.
    for (auto [op, loop] : loops)
      (void)splitLoop(rewriter, op, loop);
    for (auto [op, loop] : channelLoops)
      moveChannelsInnermost(rewriter, op, loop);
    for (auto [op, rows] : imageRows)
      cpu::flattenImageRows(rewriter, op, rows);
    for (auto [op, lanes] : rows) {
      // The lanes become the innermost dimension of the partial results,
      // which the vectors then write whole.
      int64_t rank =
          cast<ShapedType>(op.getDpsInitOperand(0)->get().getType()).getRank();
      auto control = [&, lanes = lanes](linalg::LinalgOp) {
        return linalg::SplitReductionOptions{lanes, static_cast<unsigned>(rank),
                                             /*innerParallel=*/true};
      };
      rewriter.setInsertionPoint(op);
      // splitReduction fails, leaving the op as it is, on a body it cannot
      // combine (no neutral element); the op then reduces lane by lane.
      (void)linalg::splitReduction(rewriter, op, control);
    }
  }
};
} // namespace
