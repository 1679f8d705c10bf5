//===- SplitReductions.cpp - Partial results along vector loops ----------===//
//
// Gives a reduction along the loop a vector would run partial results per
// lane, and a convolution with a wide window one per tap
// (ens-cpu-split-reductions).
//
//===----------------------------------------------------------------------===//

#include "OpAnalysis.h"

#include "ens/Backend/Cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// Replaces `op` by a convolution with `tap` parallel, writing a partial
/// result per tap, and the sum of those into `op`'s accumulator.
static void splitTap(RewriterBase &rewriter, linalg::GenericOp op,
                     unsigned tap) {
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  Value accumulator = op.getDpsInitOperand(0)->get();
  auto type = cast<RankedTensorType>(accumulator.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(op.getStaticLoopRanges()[tap]);
  auto partialType = RankedTensorType::get(shape, type.getElementType());

  rewriter.setInsertionPoint(op);
  Value zero = rewriter.create<arith::ConstantOp>(
      loc, rewriter.getZeroAttr(type.getElementType()));
  Value zeros =
      rewriter
          .create<linalg::FillOp>(
              loc, zero,
              rewriter
                  .create<tensor::EmptyOp>(loc, shape, type.getElementType())
                  .getResult())
          .getResult(0);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.back() = maps.back().insertResult(getAffineDimExpr(tap, context), rank);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators[tap] = utils::IteratorType::parallel;
  auto partial = rewriter.create<linalg::GenericOp>(
      loc, partialType, op.getDpsInputs(), zeros, maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), partial.getRegion(),
                             partial.getRegion().begin());

  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank + 1, context);
  SmallVector<AffineMap> sumMaps{identity, identity.getMajorSubMap(rank)};
  SmallVector<utils::IteratorType> sumIterators(rank,
                                                utils::IteratorType::parallel);
  sumIterators.push_back(utils::IteratorType::reduction);
  auto sum = rewriter.create<linalg::GenericOp>(
      loc, type, partial.getResult(0), accumulator, sumMaps, sumIterators,
      [](OpBuilder &b, Location nloc, ValueRange args) {
        b.create<linalg::YieldOp>(
            nloc, b.create<arith::AddFOp>(nloc, args[1], args[0]).getResult());
      });
  rewriter.replaceOp(op, sum.getResults());
}

/// The lanes to split the reduction of `op` into, if a vector would run
/// along its one reduction loop: the loop reads the contiguous innermost
/// dimension of `op`'s largest operand, and its extent is a multiple of the
/// lanes and at least two vectors.
static std::optional<int64_t> lanesToSplit(linalg::LinalgOp op,
                                           unsigned vectorBytes) {
  if (op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1)
    return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  std::optional<unsigned> bits = cpu::widestElementBits(op);
  std::optional<unsigned> vectorLoop =
      cpu::pickVectorLoop(op, linalg::isaContractionOpInterface(op));
  if (ShapedType::isDynamicShape(extents) || !bits || !vectorLoop ||
      op.getIteratorTypesArray()[*vectorLoop] != utils::IteratorType::reduction)
    return std::nullopt;
  int64_t lanes = vectorBytes * 8 / *bits;
  int64_t extent = extents[*vectorLoop];
  if (lanes < 2 || extent % lanes != 0 || extent < 2 * lanes)
    return std::nullopt;
  return lanes;
}

namespace {
struct SplitReductionsPass
    : ens::impl::EnsCpuSplitReductionsBase<SplitReductionsPass> {
  using EnsCpuSplitReductionsBase::EnsCpuSplitReductionsBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, unsigned>> windows;
    SmallVector<std::pair<linalg::GenericOp, int64_t>> rows;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      if (std::optional<cpu::WindowOp> window = cpu::WindowOp::match(op)) {
        if (std::optional<unsigned> tap = tapToSplit(*window)) {
          LLVM_DEBUG(llvm::dbgs() << "partial sums along tap loop " << *tap
                                  << " of " << op << "\n");
          windows.emplace_back(op, *tap);
        }
        return;
      }
      if (std::optional<int64_t> lanes = lanesToSplit(op, vectorBytes)) {
        LLVM_DEBUG(llvm::dbgs() << "partial results per lane of " << *lanes
                                << " of " << op << "\n");
        rows.emplace_back(op, *lanes);
      }
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, tap] : windows)
      splitTap(rewriter, op, tap);
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
