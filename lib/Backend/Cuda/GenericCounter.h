//===- GenericCounter.h - Counts of one linalg.generic phase ----*- C++ -*-===//
//
// Private to the CUDA backend's performance model: the counter of one
// linalg.generic phase of a loop over members, which PhaseCounts.cpp
// (staging, points, tiles, epilogues) and ReductionCounts.cpp (block
// reductions) implement.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_GENERICCOUNTER_H
#define ENS_LIB_BACKEND_CUDA_GENERICCOUNTER_H

#include "PhaseCounts.h"
#include "PhaseWork.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::ens::cuda::phase {

/// Counts one linalg.generic phase.
class GenericCounter {
public:
  GenericCounter(linalg::GenericOp generic, const PhaseConfig &phase,
                 const PhaseContext &context)
      : generic(generic), phase(phase), context(context),
        ranges(generic.getStaticLoopRanges()) {
    for (auto [i, iterator] : llvm::enumerate(generic.getIteratorTypesArray()))
      (iterator == utils::IteratorType::parallel ? parallel : reduction)
          .push_back(i);
    for (const StagedOperand &operand : phase.staged)
      staged.insert(operand.operand);
  }

  /// The input is read at each step or point (not hoisted: a map of loops
  /// of extent 1 only), and the body uses it.
  bool isRead(OpOperand *input) const {
    if (generic.getMatchingBlockArgument(input).use_empty() ||
        !isa<MemRefType>(input->get().getType()))
      return false;
    AffineMap map = generic.getMatchingIndexingMap(input);
    return llvm::any_of(llvm::seq(map.getNumDims()), [&](unsigned d) {
      return ranges[d] != 1 && map.isFunctionOfDim(d);
    });
  }

  Space spaceOf(OpOperand &operand) const {
    if (staged.contains(operand.getOperandNumber()))
      return Space::Shared;
    return getSpace(operand.get(), context.views);
  }

  /// The per-lane loop variables of a warp whose lanes walk `loops` with
  /// `walked` ranges (a tile's loops in tiles).
  SmallVector<SmallVector<int64_t>> lanes(ArrayRef<unsigned> loops,
                                          ArrayRef<int64_t> walked,
                                          int64_t width = 32) const {
    SmallVector<SmallVector<int64_t>> result;
    for (int64_t lane = 0; lane < width; ++lane)
      result.push_back(getLaneDims(walked, loops, lane));
    return result;
  }

  AccessCost cost(OpOperand &operand,
                  ArrayRef<SmallVector<int64_t>> laneDims) const {
    if (staged.contains(operand.getOperandNumber()))
      return getOperandCost(generic, operand, laneDims, spaceOf(operand),
                            Layout::RowMajor);
    return memoryCost(generic, operand, laneDims, spaceOf(operand));
  }

  /// The cost of `operand` of `op` (the phase's op or its epilogue), not
  /// staged, in `space`: laid out as its buffer is (getLayout).
  AccessCost memoryCost(linalg::GenericOp op, OpOperand &operand,
                        ArrayRef<SmallVector<int64_t>> laneDims,
                        Space space) const {
    return getOperandCost(op, operand, laneDims, space,
                          getLayout(operand.get(), context.views));
  }

  /// The elements of `input` that ptxas loads at once where the steps of a
  /// single unrolled reduction loop read it at consecutive addresses (from
  /// the start of a chunk, if split): a 128-bit or 64-bit load, else 1.
  int64_t getVectorWidth(OpOperand &input) const {
    if (reduction.size() != 1)
      return 1;
    SmallVector<int64_t> starts = {ranges[reduction[0]]};
    if (int64_t chunks = std::max<int64_t>(phase.chunks, 1); chunks > 1)
      starts.push_back(getChunkSteps(ranges[reduction[0]], chunks,
                                     phase.tile.unroll,
                                     context.strategy != Strategy::Tiled));
    return getWidth(generic, input, reduction[0], starts, spaceOf(input),
                    staged.contains(input.getOperandNumber()));
  }

  /// getAccessWidth of an operand in `space` (none in registers).
  int64_t getWidth(linalg::GenericOp op, OpOperand &operand, unsigned loop,
                   ArrayRef<int64_t> starts, Space space, bool staged) const {
    if (space == Space::Registers)
      return 1;
    return getAccessWidth(op, operand, loop, starts, space == Space::Global,
                          staged, context.views);
  }

  /// The elements of epilogue operand `operand` that ptxas accesses at
  /// once: a tile loads every point's epilogue operands before its first
  /// store (emitTiles), so ptxas merges the loads of consecutive points;
  /// so does a block tile for its row groups of `rowGroup` points
  /// (emitBlockTiles), stores included.
  int64_t getEpilogueWidth(linalg::GenericOp epilogue, OpOperand &operand,
                           int64_t rowGroup) const {
    AffineMap resultMap =
        generic.getMatchingIndexingMap(&generic.getDpsInitsMutable()[0]);
    AffineMap map = epilogue.getMatchingIndexingMap(&operand);
    SmallVector<int64_t> epilogueRanges = epilogue.getStaticLoopRanges();
    Space space = getSpace(operand.get(), context.views);
    const TileConfig &tile = phase.tile;
    // Split within the block, a thread finishes a share of its tile's
    // points (countBlockPartials): the seed step's dW2, 2 points of a row
    // of 4, loads and stores 64 bits at a time (SASS sm_90).
    int64_t share = 1;
    for (int64_t size : tile.sizes)
      share *= size;
    if (phase.chunks > 1 && context.strategy != Strategy::Tiled)
      share = llvm::divideCeil(share, phase.chunks);
    for (unsigned k = 0; k < tile.loops.size(); ++k) {
      bool consecutive = rowGroup > 1 ? k == 1 : tile.isConsecutive(k);
      int64_t group = rowGroup > 1 ? rowGroup : tile.sizes[k];
      if (rowGroup == 1 && k + 1 == tile.loops.size())
        group = std::min(group, share);
      else if (rowGroup == 1)
        group = std::min(group, std::max<int64_t>(1, share / tile.sizes[1]));
      std::optional<unsigned> loop = resultMap.getResultPosition(
          getAffineDimExpr(tile.loops[k], generic.getContext()));
      if (!consecutive || !loop || !map.isFunctionOfDim(*loop))
        continue;
      if (int64_t width = getWidth(epilogue, operand, *loop,
                                   {group, epilogueRanges[*loop]}, space,
                                   /*staged=*/false);
          width > 1)
        return width;
    }
    return 1;
  }

  /// The elements of `input` that ptxas loads at once for a thread's
  /// consecutive points along the tile's loop `k` (from a multiple of the
  /// tile's size, every point inside the loop), else 1.
  int64_t getTileWidth(OpOperand &input, unsigned k) const {
    const TileConfig &tile = phase.tile;
    if (!tile.isConsecutive(k))
      return 1;
    return getWidth(generic, input, tile.loops[k],
                    {tile.sizes[k], ranges[tile.loops[k]]}, spaceOf(input),
                    staged.contains(input.getOperandNumber()));
  }

  /// The bytes of `input` that `width` consecutive work items (tiles of
  /// points, lanes' order) read over `steps` steps of the reduction: what
  /// a block of that many threads fetches from L2 when its L1 keeps the
  /// lines its warps share (the block's threads step through the
  /// reduction together). Other blocks fetch their own: re-reads across
  /// blocks are L2 traffic.
  double footprint(OpOperand &input, ArrayRef<int64_t> walked, int64_t width,
                   int64_t steps) const {
    auto type = cast<MemRefType>(input.get().getType());
    SmallVector<int64_t> strides = getStrides(type);
    AffineMap map = generic.getMatchingIndexingMap(&input);
    const TileConfig &tile = phase.tile;
    llvm::DenseSet<int64_t> offsets;
    int64_t points = 1;
    for (int64_t size : tile.sizes)
      points *= size;
    for (int64_t item = 0; item < width; ++item) {
      SmallVector<int64_t> dims = getLaneDims(walked, parallel, item);
      for (int64_t point = 0; point < points; ++point) {
        SmallVector<int64_t> at = dims;
        int64_t rest = point;
        for (unsigned k = tile.loops.size(); k-- > 0;) {
          unsigned loop = tile.loops[k];
          int64_t size = tile.sizes[k];
          at[loop] = std::min(ranges[loop] - 1,
                              tile.isConsecutive(k)
                                  ? dims[loop] * size + rest % size
                                  : dims[loop] + rest % size * walked[loop]);
          rest /= size;
        }
        int64_t offset = 0;
        for (auto [index, stride] : llvm::zip(map.compose(at), strides))
          offset += index * stride;
        offsets.insert(offset);
      }
    }
    // The reduction loops it follows multiply what it reads.
    double reads = offsets.size();
    for (unsigned d : reduction)
      if (map.isFunctionOfDim(d))
        reads *= std::min(ranges[d], steps);
    return reads * type.getElementTypeBitWidth() / 8;
  }

  /// The copies of the staged operands into shared memory, before the
  /// phase's barrier: one load and one store per element, the block's
  /// threads on consecutive elements.
  WorkCounts countStaging() const;
  WorkCounts countPoints() const;
  /// FFMA block tiles (countBlockTiles), with each point's output and
  /// epilogue for the lanes of a warp at its threads' first points.
  WorkCounts countBlockTiles() const;
  WorkCounts countBlockReduction() const;
  /// A step of a block reduction for a warp whose lanes are at `laneDims`:
  /// its inputs' loads and its float arithmetic.
  Work countReductionStep(ArrayRef<SmallVector<int64_t>> laneDims) const;
  /// A block reduction with its lanes along the outputs
  /// (PhaseConfig::lanesAlongOutputs).
  WorkCounts countColumnReduction() const;
  /// The epilogue's work per point whose contraction loop variables
  /// `laneDims` are, its stores among it. With `rowGroup`, a thread's
  /// points come in groups of that many consecutive steps of the tile's
  /// second loop, whose epilogue loads go first and whose loads and
  /// stores ptxas merges (FFMA block tiles whose columns are all inside
  /// the op).
  Work countEpilogue(linalg::GenericOp epilogue,
                     ArrayRef<SmallVector<int64_t>> laneDims,
                     int64_t rowGroup = 1) const;

  // Mutable: an op's accessors are not const.
  mutable linalg::GenericOp generic;
  const PhaseConfig &phase;
  const PhaseContext &context;
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> parallel, reduction;
  llvm::DenseSet<unsigned> staged;
  linalg::GenericOp epilogue;
};

} // namespace mlir::ens::cuda::phase

#endif // ENS_LIB_BACKEND_CUDA_GENERICCOUNTER_H
