//===- BlockTileCounts.cpp - What the model counts of FFMA block tiles ----===//
//
// Counts a contraction's FFMA block tiles as BlockTileEmitter.cpp and
// FfmaTileEmitter.cpp write them: per block tile and warp, each stage's
// asynchronous copies of both operands (their lanes' global lines and
// sectors, and the banks their shared writes take) and its products (the
// 128-bit shared loads of a step and its FFMA), then each point's
// epilogue; the L2 bytes of every block's copies (each block tile reads
// its rows' and columns' steps once: the re-reads across blocks); the
// round trips the pipeline leaves exposed; and the barriers.
//
//===----------------------------------------------------------------------===//

#include "BlockTiles.h"
#include "PhaseWork.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cuda-model"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;
using namespace mlir::ens::cuda::phase;

/// Instructions of each copy besides its LDGSTS: its point and step, the
/// guards, the clamped source and both addresses; fitted to the SASS of
/// wide_relu's and tanh_256's block-tile loops (6 to 9 a copy, sm_90, CUDA
/// 13.0) with the copy loops' share of the stage loop's overhead.
static constexpr double kCopyOverhead = 10;

WorkCounts phase::countBlockTiles(linalg::GenericOp generic,
                                  const PhaseConfig &phase,
                                  const PhaseContext &context,
                                  const Work &point, int64_t epilogueWords) {
  const MmaConfig &mma = phase.mma;
  auto [blockRows, blockCols] = getMmaBlockTile(mma, phase.threads);
  MmaStaging staging = getMmaStaging(mma, phase.threads);
  auto [a, b] = *getMultiplyAddOperands(generic);
  unsigned rows = phase.tile.loops[0], cols = phase.tile.loops[1];
  if (!generic.getMatchingIndexingMap(a).isFunctionOfDim(rows))
    std::swap(a, b);
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  unsigned reduction = 0;
  int64_t blockTiles = 1;
  for (auto [d, iterator] : llvm::enumerate(generic.getIteratorTypesArray())) {
    if (iterator == utils::IteratorType::reduction) {
      reduction = d;
      continue;
    }
    int64_t size = d == rows ? blockRows : d == cols ? blockCols : 1;
    blockTiles *= llvm::divideCeil(ranges[d], size);
  }
  int64_t steps = mma.stepsStaged,
          stages = llvm::divideCeil(ranges[reduction], steps);
  int64_t threads = phase.threads, warps = threads / 32;
  int64_t pointRows = mma.warpRows / kFfmaThreadRows,
          pointCols = mma.warpCols / kFfmaThreadCols;

  // One stage of a warp: each operand's copies, lane l of the warp copying
  // element l of the block's order (along the operand's contiguous loop).
  Work stage;
  double copies = 0;
  struct Staged {
    OpOperand *operand;
    unsigned loop;
    int64_t extent, ld;
    bool byPoints;
  };
  for (const Staged &staged :
       {Staged{a, rows, blockRows, staging.strideA, staging.aByRows},
        Staged{b, cols, blockCols, staging.strideB, false}}) {
    bool alongSteps = isStagedAlongSteps(generic, *staged.operand, staged.loop);
    int64_t inner = alongSteps ? steps : staged.extent;
    SmallVector<SmallVector<int64_t>> laneDims;
    SmallVector<int64_t> sharedOffsets;
    for (int64_t lane = 0; lane < 32; ++lane) {
      int64_t ip = alongSteps ? lane / inner : lane % inner,
              is = alongSteps ? lane % inner : lane / inner;
      SmallVector<int64_t> dims(ranges.size(), 0);
      dims[staged.loop] = std::min(ip, ranges[staged.loop] - 1);
      dims[reduction] = std::min(is, ranges[reduction] - 1);
      laneDims.push_back(dims);
      sharedOffsets.push_back(staged.byPoints ? ip * staged.ld + is
                                              : is * staged.ld + ip);
    }
    double perThread = llvm::divideCeil(staged.extent * steps, threads);
    copies += perThread;
    stage.add(getOperandCost(generic, *staged.operand, laneDims, Space::Global,
                             Layout::Typed),
              perThread, false);
    stage.wavefronts +=
        perThread * getCost(sharedOffsets, 4, Space::Shared).wavefronts;
  }
  // The products of a step: a thread's rows and columns, 4 at a time, with
  // 128-bit loads (lane l reads 4 words from row or column (l / 8) * 4 or
  // (l % 8) * 4), and an FFMA per point.
  SmallVector<int64_t> rowWords, colWords;
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t e = 0; e < 4; ++e) {
      rowWords.push_back(lane / kFfmaThreadCols * 4 + e);
      colWords.push_back(lane % kFfmaThreadCols * 4 + e);
    }
  stage.add(widen(getCost(rowWords, 4, Space::Shared), 4),
            steps * pointRows / 4.0, false);
  stage.add(widen(getCost(colWords, 4, Space::Shared), 4),
            steps * pointCols / 4.0, false);
  stage.fp += steps * pointRows * pointCols;
  stage.ffma += steps * pointRows * pointCols;

  // A warp's block tile: its stages, then its points.
  Work tile;
  tile.add(stage, stages);
  tile.add(point, pointRows * pointCols);
  double overhead = kPointOverhead + kPerLoopVariable * (ranges.size() - 1) +
                    stages * (kIterationOverhead + kCopyOverhead * copies);
  WorkCounts counts = total(tile, double(warps) * blockTiles,
                            double(threads) * blockTiles, overhead, context);
  // L2: each block tile copies its rows' and its columns' steps once (the
  // operands' re-reads across blocks), and its points' accesses.
  double stepBytes =
      4.0 * ranges[reduction] *
      (std::min(blockRows, ranges[rows]) + std::min(blockCols, ranges[cols]));
  counts.l2Bytes =
      double(context.members) * blockTiles *
      (stepBytes + warps * pointRows * pointCols * point.sectors * 32);
  // Each round of block tiles waits for the stages the pipeline does not
  // cover (stages - 1 of them in flight behind the one multiplied), then
  // for its epilogue's loads, a round trip for each group of points whose
  // loads go together (emitBlockTiles).
  int64_t rounds = llvm::divideCeil(blockTiles, phase.blocksPerMember);
  BlockTileThreads shares = mma.enabled()
                                ? getMmaThreads(mma, staging, blockCols)
                                : getFfmaThreads(mma, staging, blockCols);
  bool columnsInside = hasColumnsInside(mma, ranges[cols], blockCols);
  int64_t epilogueRounds =
      point.global
          ? int64_t(
                getEpilogueBatches(shares, columnsInside, epilogueWords).size())
          : 0;
  int64_t chain =
      llvm::divideCeil(stages, std::max<int64_t>(mma.stages - 1, 1)) +
      epilogueRounds;
  counts.dependentLoads = rounds * chain;
  counts.l2DependentLoads = rounds * (chain - 1);
  counts.barriersPerBlock = rounds * (mma.stages > 1 ? stages + 1 : 2 * stages);
  // The hot loop: a stage's products and copies (ens-sass counts the
  // LDGSTS apart from the loads); where a single stage holds every step,
  // ptxas drops the loop over stages, and the loop over the block's tiles,
  // points and all, is the hot one.
  bool whole = stages == 1;
  Work loop = whole ? tile : stage;
  double loopInstructions = whole ? tile.instructions() + overhead
                                  : stage.instructions() + kIterationOverhead +
                                        kCopyOverhead * copies;
  // A stage's copies are asynchronous (no load waits in the loop); where
  // the loop is over block tiles, the epilogue's loads wait.
  counts.hotLoops.push_back({int64_t(loop.loads - copies), int64_t(loop.stores),
                             int64_t(loop.ffma), int64_t(loopInstructions),
                             whole ? epilogueRounds : 0,
                             whole ? rounds : rounds * stages});
  LLVM_DEBUG(llvm::dbgs() << "block tiles of " << phase.sourceOps << ": "
                          << blockTiles << " a member, " << stages
                          << " stages of " << copies << " copies and "
                          << stage.ffma << " FFMA a thread\n");
  return counts;
}
