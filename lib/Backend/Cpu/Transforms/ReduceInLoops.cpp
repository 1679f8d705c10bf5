//===- ReduceInLoops.cpp - Reductions inside their operand's loop --------===//
//
// Computes a reduction over the slices that an scf.forall writes, one
// partial result per iteration, inside that loop, while each slice is in
// cache (ens-cpu-reduce-in-loops).
//
//===----------------------------------------------------------------------===//

#include "PartialResults.h"

#include "ens/Backend/Cpu/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cpu-reduce-in-loops"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUREDUCEINLOOPS
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
/// A reduction whose input is the result of an scf.forall that writes its
/// iteration `i` into slice `i` of that result's first dimension, a
/// dimension the reduction reduces.
struct LoopReduction {
  linalg::GenericOp op;
  cpu::Combiner combiner;
  scf::ForallOp loop;
  /// The result of `loop` that `op` reduces, and the insertion of each
  /// iteration's slice into it.
  unsigned result;
  tensor::ParallelInsertSliceOp insert;
  /// The collapse of that result that `op` reads, if any; it keeps the
  /// first dimension alone.
  tensor::CollapseShapeOp collapse;
};
} // namespace

/// The insertion of the slice of `loop`'s iteration into its result
/// `result`: a one-dimensional loop from 0 by 1 to the extent of the
/// result's first dimension, whose single insertion into that result writes
/// a slice of extent 1 at the induction variable in the first dimension and
/// the whole of every other dimension.
static tensor::ParallelInsertSliceOp iterationSlice(scf::ForallOp loop,
                                                    unsigned result) {
  if (loop.getRank() != 1 ||
      !isConstantIntValue(loop.getMixedLowerBound()[0], 0) ||
      !isConstantIntValue(loop.getMixedStep()[0], 1))
    return {};
  SmallVector<Operation *> combining =
      loop.getCombiningOps(loop.getRegionIterArgs()[result]);
  if (combining.size() != 1)
    return {};
  auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(combining.front());
  if (!insert ||
      insert.getSourceType().getRank() != insert.getDestType().getRank() ||
      !insert.getDestType().hasStaticShape() ||
      !isConstantIntValue(loop.getMixedUpperBound()[0],
                          insert.getDestType().getDimSize(0)))
    return {};
  for (auto [dim, offset, size, stride] :
       llvm::enumerate(insert.getMixedOffsets(), insert.getMixedSizes(),
                       insert.getMixedStrides())) {
    int64_t extent = dim == 0 ? 1 : insert.getDestType().getDimSize(dim);
    if (!isConstantIntValue(size, extent) || !isConstantIntValue(stride, 1))
      return {};
    if (dim == 0 ? getAsOpFoldResult(loop.getInductionVars()[0]) != offset
                 : !isConstantIntValue(offset, 0))
      return {};
  }
  return insert;
}

/// `op` as a reduction of a loop's slices, if it is one that reduces each
/// slice to fewer elements: besides the loop's dimension it reduces another
/// loop of more than one iteration. A reduction over the loop's dimension
/// alone would write partial results as large as the slices it reads.
static std::optional<LoopReduction> matchLoopReduction(linalg::GenericOp op) {
  std::optional<cpu::Combiner> combiner = cpu::Combiner::match(op);
  if (!combiner || op.getNumDpsInputs() != 1 || !op.hasPureTensorSemantics() ||
      !cast<ShapedType>(op.getDpsInitOperand(0)->get().getType())
           .hasStaticShape())
    return std::nullopt;
  Value input = op.getDpsInputOperand(0)->get();
  auto collapse = input.getDefiningOp<tensor::CollapseShapeOp>();
  if (collapse) {
    if (collapse.getReassociationIndices().front().size() != 1)
      return std::nullopt;
    input = collapse.getSrc();
  }
  auto result = dyn_cast<OpResult>(input);
  auto loop = input.getDefiningOp<scf::ForallOp>();
  if (!loop)
    return std::nullopt;
  tensor::ParallelInsertSliceOp insert =
      iterationSlice(loop, result.getResultNumber());
  if (!insert)
    return std::nullopt;

  AffineMap read = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (!read.isProjectedPermutation() || !isa<AffineDimExpr>(read.getResult(0)))
    return std::nullopt;
  unsigned loopDim = read.getDimPosition(0);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (iterators[loopDim] != utils::IteratorType::reduction)
    return std::nullopt;
  bool reducesMore = false;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    reducesMore |= dim != loopDim &&
                   iterator == utils::IteratorType::reduction &&
                   extents[dim] != 1;
  if (!reducesMore)
    return std::nullopt;
  return LoopReduction{op,     *combiner, loop, result.getResultNumber(),
                       insert, collapse};
}

/// Rewrites `reduction`: its loop gains a result of one partial result per
/// iteration, which the iteration computes from its slice after writing it,
/// and the reduction becomes the combination of those partial results.
static void reduceInLoop(RewriterBase &rewriter, LoopReduction reduction) {
  linalg::GenericOp op = reduction.op;
  scf::ForallOp loop = reduction.loop;
  Location loc = op.getLoc();
  Value accumulator = op.getDpsInitOperand(0)->get();
  auto accumulatorType = cast<RankedTensorType>(accumulator.getType());
  Type elementType = accumulatorType.getElementType();
  int64_t iterations = *getConstantIntValue(loop.getMixedUpperBound()[0]);
  SmallVector<int64_t> partialShape{iterations};
  llvm::append_range(partialShape, accumulatorType.getShape());

  // The loop, with the partial results as one more shared output.
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> outputs(loop.getOutputs());
  outputs.push_back(
      rewriter.create<tensor::EmptyOp>(loc, partialShape, elementType));
  auto newLoop = rewriter.create<scf::ForallOp>(
      loop.getLoc(), loop.getMixedLowerBound(), loop.getMixedUpperBound(),
      loop.getMixedStep(), outputs, loop.getMapping());
  Block *body = newLoop.getBody();
  rewriter.eraseOp(newLoop.getTerminator());
  rewriter.mergeBlocks(loop.getBody(), body, body->getArguments().drop_back());

  // This iteration's partial result, from the slice it writes.
  rewriter.setInsertionPoint(newLoop.getTerminator());
  Value slice = reduction.insert.getSource();
  if (tensor::CollapseShapeOp collapse = reduction.collapse) {
    SmallVector<int64_t> shape(collapse.getResultType().getShape());
    shape.front() = 1;
    slice = rewriter.create<tensor::CollapseShapeOp>(
        collapse.getLoc(), RankedTensorType::get(shape, elementType), slice,
        collapse.getReassociationIndices());
  }
  SmallVector<int64_t> sliceShape{1};
  llvm::append_range(sliceShape, accumulatorType.getShape());
  Value start =
      reduction.combiner.createNeutral(rewriter, loc, sliceShape, elementType);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned loopDim = maps.front().getDimPosition(0);
  maps.back() =
      maps.back().insertResult(getAffineDimExpr(loopDim, op.getContext()), 0);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators[loopDim] = utils::IteratorType::parallel;
  auto partial = rewriter.create<linalg::GenericOp>(loc, start.getType(), slice,
                                                    start, maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), partial.getRegion(),
                             partial.getRegion().begin());

  rewriter.setInsertionPointToEnd(newLoop.getTerminator().getBody());
  SmallVector<OpFoldResult> offsets(partialShape.size(),
                                    rewriter.getIndexAttr(0));
  offsets.front() = newLoop.getInductionVars().front();
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(op.getContext(), sliceShape);
  SmallVector<OpFoldResult> strides(partialShape.size(),
                                    rewriter.getIndexAttr(1));
  rewriter.create<tensor::ParallelInsertSliceOp>(loc, partial.getResult(0),
                                                 body->getArguments().back(),
                                                 offsets, sizes, strides);

  rewriter.replaceOp(loop, newLoop.getResults().drop_back());
  rewriter.setInsertionPoint(op);
  rewriter.replaceOp(op, reduction.combiner.combine(rewriter, loc,
                                                    newLoop.getResults().back(),
                                                    /*dim=*/0, accumulator));
}

namespace {
struct ReduceInLoopsPass
    : ens::impl::EnsCpuReduceInLoopsBase<ReduceInLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (matchLoopReduction(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // Matched again: an earlier rewrite may have replaced the loop, by one
    // that writes the same slices.
    for (linalg::GenericOp op : ops) {
      std::optional<LoopReduction> reduction = matchLoopReduction(op);
      assert(reduction && "a rewrite keeps every other slice of its loop");
      LLVM_DEBUG(llvm::dbgs()
                 << "partial results per iteration of "
                 << reduction->loop.getLoc() << " for " << op << "\n");
      reduceInLoop(rewriter, *reduction);
    }
  }
};
} // namespace
