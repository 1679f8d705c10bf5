//===- BlockTileCounts.cpp - What the model counts of block tiles ---------===//
//
// Counts a contraction's block tiles as BlockTileEmitter.cpp,
// FfmaTileEmitter.cpp and MmaEmitter.cpp write them: per block tile and
// warp, each stage's asynchronous copies of both operands (their lanes'
// global lines and sectors, and the banks their shared writes take) and
// its products (in FFMA, the 128-bit shared loads of a step and its FFMA;
// on tensor cores, each fragment element's shared load, address and
// conversion, and the HMMAs), then each point's epilogue; the L2 bytes of
// every block's copies (each block tile reads its rows' and columns' steps
// once: the re-reads across blocks); the round trips the pipeline leaves
// exposed; and the barriers.
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

/// Instructions of each fragment element besides its LDS on tensor cores
/// (whose address is a constant offset from the thread's first element,
/// which ptxas folds into the LDS): its conversion to TF32 (an FSETP and
/// a predicated IMAD: cvt.rna.tf32.f32 on sm_90), or with 3xTF32 its split
/// (both conversions and the FADD between). Read from the SASS of
/// mnist_mlp's tensor-core loops (sm_90, CUDA 13.0).
static constexpr double kFragmentConvert = 2, kFragmentSplit = 5;

/// One step of FFMA block tiles for a warp (FfmaTileEmitter.cpp): a
/// thread's rows and columns, 4 at a time, with 128-bit shared loads (lane
/// l reads 4 words from row or column (l / 8) * 4 or (l % 8) * 4), and an
/// FFMA per point.
static Work countFfmaProducts(int64_t pointRows, int64_t pointCols) {
  SmallVector<int64_t> rowWords, colWords;
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t e = 0; e < 4; ++e) {
      rowWords.push_back(lane / kFfmaThreadCols * 4 + e);
      colWords.push_back(lane % kFfmaThreadCols * 4 + e);
    }
  Work step;
  step.add(widen(getCost(rowWords, 4, Space::Shared), 4), pointRows / 4.0,
           false);
  step.add(widen(getCost(colWords, 4, Space::Shared), 4), pointCols / 4.0,
           false);
  step.fp += pointRows * pointCols;
  step.ffma += pointRows * pointCols;
  return step;
}

/// One mma step (kMmaK steps) of tensor-core block tiles for a warp
/// (MmaEmitter.cpp) of `fragRows` x `fragCols` fragments: each fragment
/// element loaded alone from the staged operands (group g = lane / 4 and
/// t = lane % 4 read a's row g, step t, by rows or by steps, and b's step
/// t, column g),
/// converted, and an HMMA per pair of fragments and pass (3 with 3xTF32).
static Work countMmaProducts(const MmaConfig &mma, const MmaStaging &staging,
                             int64_t fragRows, int64_t fragCols) {
  SmallVector<int64_t> aWords, bWords;
  for (int64_t lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    aWords.push_back(staging.aByRows ? g * staging.strideA + t
                                     : t * staging.strideA + g);
    bWords.push_back(staging.bByCols ? g * staging.strideB + t
                                     : t * staging.strideB + g);
  }
  bool split = mma.precision == Precision::Tf32x3;
  Work step;
  step.add(getCost(aWords, 4, Space::Shared), 4.0 * fragRows, false);
  step.add(getCost(bWords, 4, Space::Shared), 2.0 * fragCols, false);
  step.other += (4.0 * fragRows + 2.0 * fragCols) *
                (split ? kFragmentSplit : kFragmentConvert);
  step.tensor += double(fragRows) * fragCols * (split ? 3 : 1);
  return step;
}

WorkCounts phase::countBlockTiles(linalg::GenericOp generic,
                                  const PhaseConfig &phase,
                                  const PhaseContext &context,
                                  const Work &point, int64_t epilogueWords) {
  const MmaConfig &mma = phase.mma;
  auto [blockRows, blockCols] = getMmaBlockTile(mma, phase.threads);
  MmaStaging staging = getMmaStaging(mma, phase.threads);
  auto [a, b] = getBlockTileOperands(generic, phase.tile);
  unsigned rows = phase.tile.loops[0], cols = phase.tile.loops[1],
           reduction = getReductionLoop(generic);
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  int64_t blockTiles = 1;
  for (auto [d, range] : llvm::enumerate(ranges)) {
    if (d == reduction)
      continue;
    int64_t size = d == rows ? blockRows : d == cols ? blockCols : 1;
    blockTiles *= llvm::divideCeil(range, size);
  }
  int64_t steps = mma.stepsStaged,
          stages = llvm::divideCeil(ranges[reduction], steps);
  int64_t threads = phase.threads, warps = threads / 32;
  // A thread's points: FFMA's micro-tile, or 4 of each mma.sync fragment
  // that may hold a point of the op. A fragment whose rows or columns start
  // past the op's in every warp (the op narrower than a warp tile) holds
  // none: nothing stores its accumulators, and ptxas drops its loads,
  // conversions and HMMAs.
  int64_t pointRows = mma.warpRows / kFfmaThreadRows,
          pointCols = mma.warpCols / kFfmaThreadCols;
  int64_t fragRows = std::min<int64_t>(mma.warpRows / kMmaM,
                                       llvm::divideCeil(ranges[rows], kMmaM));
  int64_t fragCols = std::min<int64_t>(mma.warpCols / kMmaN,
                                       llvm::divideCeil(ranges[cols], kMmaN));
  int64_t points =
      mma.enabled() ? 4 * fragRows * fragCols : pointRows * pointCols;

  // One stage of a warp: each operand's copies, lane l of the warp copying
  // the l-th `words` elements of the block's order (along the operand's
  // contiguous loop).
  Work stage;
  double copies = 0;
  struct Staged {
    OpOperand *operand;
    unsigned loop;
    int64_t extent, ld;
    bool byPoints;
    int64_t words;
  };
  for (const Staged &staged : {Staged{a, rows, blockRows, staging.strideA,
                                      staging.aByRows, mma.copyWords[0]},
                               Staged{b, cols, blockCols, staging.strideB,
                                      staging.bByCols, mma.copyWords[1]}}) {
    bool alongSteps = isStagedAlongSteps(generic, *staged.operand, staged.loop);
    int64_t words = staged.words,
            inner = (alongSteps ? steps : staged.extent) / words;
    SmallVector<SmallVector<int64_t>> laneDims;
    SmallVector<int64_t> sharedOffsets;
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t w = 0; w < words; ++w) {
        int64_t ip = alongSteps ? lane / inner : lane % inner * words + w,
                is = alongSteps ? lane % inner * words + w : lane / inner;
        SmallVector<int64_t> dims(ranges.size(), 0);
        dims[staged.loop] = std::min(ip, ranges[staged.loop] - 1);
        dims[reduction] = std::min(is, ranges[reduction] - 1);
        laneDims.push_back(dims);
        sharedOffsets.push_back(staged.byPoints ? ip * staged.ld + is
                                                : is * staged.ld + ip);
      }
    double perThread = llvm::divideCeil(staged.extent * steps / words, threads);
    copies += perThread;
    stage.add(getOperandCost(generic, *staged.operand, laneDims, Space::Global,
                             Layout::Typed),
              perThread, false);
    stage.wavefronts +=
        perThread *
        widen(getCost(sharedOffsets, 4, Space::Shared), words).wavefronts;
  }
  if (mma.enabled())
    stage.add(countMmaProducts(mma, staging, fragRows, fragCols),
              steps / double(kMmaK));
  else
    stage.add(countFfmaProducts(pointRows, pointCols), steps);

  // A warp's block tile: its stages, then its points.
  Work tile;
  tile.add(stage, stages);
  tile.add(point, points);
  double overhead = kPointOverhead + kPerLoopVariable * (ranges.size() - 1) +
                    stages * (kIterationOverhead + kCopyOverhead * copies);
  WorkCounts counts = total(tile, double(warps) * blockTiles,
                            double(threads) * blockTiles, overhead, context);
  // L2: each block tile copies its rows' and its columns' steps once (the
  // operands' re-reads across blocks), and its points' accesses.
  double stepBytes =
      4.0 * ranges[reduction] *
      (std::min(blockRows, ranges[rows]) + std::min(blockCols, ranges[cols]));
  counts.l2Bytes = double(context.members) * blockTiles *
                   (stepBytes + warps * points * point.sectors * 32);
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
  // Where the pipeline's first stages are all the stages, every copy is
  // started before the loop over stages, and ptxas drops the loop's.
  bool whole = stages == 1;
  Work loop = whole ? tile : stage;
  double loopCopies = stages > mma.stages - 1 ? copies : 0;
  double loopInstructions =
      whole ? tile.instructions() + overhead
            : stage.instructions() - (copies - loopCopies) +
                  kIterationOverhead + kCopyOverhead * loopCopies;
  // A stage's copies are asynchronous (no load waits in the loop); where
  // the loop is over block tiles, the epilogue's loads wait.
  // ens-sass counts an HMMA as one FMA-class instruction.
  counts.hotLoops.push_back(
      {int64_t(loop.loads - copies), int64_t(loop.stores),
       int64_t(loop.ffma + loop.tensor), int64_t(loopInstructions),
       whole ? epilogueRounds : 0, whole ? rounds : rounds * stages});
  LLVM_DEBUG(llvm::dbgs() << "block tiles of " << phase.sourceOps << ": "
                          << blockTiles << " a member, " << stages
                          << " stages of " << copies << " copies, "
                          << stage.ffma << " FFMA and " << stage.tensor
                          << " HMMA a warp\n");
  return counts;
}
