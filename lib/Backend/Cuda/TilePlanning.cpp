//===- TilePlanning.cpp - Register tiles and split reductions -------------===//
//
// The decisions behind register tiles (which loops of a contraction a
// thread computes a tile of, and how large) and, with the tiled strategy,
// behind split reductions (how many chunks of steps a reduction takes over
// its own blocks), the blocks each member gets, and which independent
// phases share a launch.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "KernelCost.h"
#include "PhaseCounts.h"

#include "ens/Support/HostTensor.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// A block reduction splits its steps into chunks (fillBlocks blocks in
/// all) of at least this many steps, four per thread of a block...
static constexpr int64_t kMinChunkSteps = 4 * kBlockSize;
/// ... and a contraction's chunks have at least this many steps of its
/// reduction loop, each 16 FMAs of a register tile.
static constexpr int64_t kMinTileChunkSteps = 64;
/// A contraction splits its reduction only if it has this many steps.
static constexpr int64_t kMinTileSplitSteps = 8 * kMinTileChunkSteps;

/// Points per thread along each of a register tile's two loops: a 4x4 tile
/// loads 8 operand elements per reduction step for 16 multiply-adds.
static constexpr int64_t kTileSize = 4;
/// Rows of a tall register tile: 8x4 points load 12 operand elements a
/// step for 32 multiply-adds, a quarter fewer per FMA than 4x4.
static constexpr int64_t kTallTileRows = 8;
/// The fewest steps of a tall tile's reduction.
static constexpr int64_t kMinTallTileSteps = 32;
/// Columns of a wide register tile in a split within the block
/// (planBlockSplit): 8x8 points load 16 operand elements a step for 64
/// multiply-adds. Its chunks take at least 4 warps' threads, one warp for
/// each scheduler of an SM.
static constexpr int64_t kWideTileCols = 8;
static constexpr int64_t kMinWideTileThreads = 4 * kWarpSize;

TileConfig cuda::planTile(linalg::GenericOp generic) {
  TileConfig tile;
  if (generic.getNumReductionLoops() == 0)
    return tile;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  // Each thread keeps one accumulator per output and point, which must not
  // change along the reduction.
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (AffineMap map : ArrayRef(maps).drop_front(generic.getNumDpsInputs()))
    for (auto [d, iterator] : llvm::enumerate(iterators))
      if (iterator == utils::IteratorType::reduction && map.isFunctionOfDim(d))
        return tile;
  // The columns: the loop of the output's innermost dimension, so that the
  // threads of a warp write, and read the operands they index, side by
  // side.
  AffineMap output = maps.back();
  if (output.getNumResults() < 2)
    return tile;
  auto innermost = dyn_cast<AffineDimExpr>(output.getResults().back());
  if (!innermost)
    return tile;
  unsigned cols = innermost.getPosition();
  // The rows: another parallel loop such that some operand the body reads
  // follows the rows but not the columns, and another the columns but not
  // the rows; the loaded elements of each then serve a whole row or column
  // of the tile. The largest such loop wins.
  std::optional<unsigned> rows;
  for (auto [d, iterator] : llvm::enumerate(iterators)) {
    if (d == cols || iterator != utils::IteratorType::parallel || ranges[d] < 2)
      continue;
    bool alongRows = false, alongCols = false;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      if (generic.getMatchingBlockArgument(input).use_empty())
        continue;
      AffineMap map = generic.getMatchingIndexingMap(input);
      alongRows |= map.isFunctionOfDim(d) && !map.isFunctionOfDim(cols);
      alongCols |= map.isFunctionOfDim(cols) && !map.isFunctionOfDim(d);
    }
    if (alongRows && alongCols && (!rows || ranges[d] > ranges[*rows]))
      rows = d;
  }
  if (!rows || ranges[cols] < 2)
    return tile;
  tile.loops = {*rows, cols};
  tile.sizes = {std::min(ranges[*rows], kTileSize),
                std::min(ranges[cols], kTileSize)};
  LLVM_DEBUG(llvm::dbgs() << "tile " << getSourceOps(generic.getOperation())
                          << " in " << tile.sizes[0] << "x" << tile.sizes[1]
                          << " points over d" << *rows << ", d" << cols
                          << "\n");
  return tile;
}

void cuda::planTallTiles(linalg::GenericOp generic, TileConfig &tile,
                         unsigned threads) {
  if (tile.empty() || tile.sizes[0] != kTileSize)
    return;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  // A long single reduction only: ptxas keeps its step loop, which the
  // model counts as the hot loop. (It unrolls a short one whole behind a
  // 4x4 tile, as the model's kFullUnrollTrips says, but not behind 8x4:
  // the seed step's 8-step dX, SASS sm_90.)
  SmallVector<unsigned> reduction;
  generic.getReductionDims(reduction);
  if (reduction.size() != 1 || ranges[reduction[0]] < kMinTallTileSteps)
    return;
  int64_t rows = ranges[tile.loops[0]];
  if (rows % kTallTileRows != 0)
    return;
  int64_t tiles = rows / kTallTileRows *
                  llvm::divideCeil(ranges[tile.loops[1]], tile.sizes[1]);
  for (unsigned d : llvm::seq<unsigned>(0, ranges.size()))
    if (d != tile.loops[0] && d != tile.loops[1] &&
        generic.getIteratorTypesArray()[d] == utils::IteratorType::parallel)
      tiles *= ranges[d];
  if (tiles < threads)
    return;
  tile.sizes[0] = kTallTileRows;
  LLVM_DEBUG(llvm::dbgs() << "tile " << getSourceOps(generic.getOperation())
                          << " in " << kTallTileRows << "x" << tile.sizes[1]
                          << ": " << tiles << " tiles for " << threads
                          << " threads\n");
}

int64_t cuda::countTiles(linalg::GenericOp generic, const TileConfig &tile) {
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  int64_t tiles = 1;
  for (auto [d, iterator] : llvm::enumerate(generic.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::parallel)
      continue;
    auto *k = llvm::find(tile.loops, d);
    tiles *=
        k == tile.loops.end()
            ? ranges[d]
            : llvm::divideCeil(ranges[d], tile.sizes[k - tile.loops.begin()]);
  }
  return tiles;
}

/// The chunks of a split within a block of `threads` of `tiles` tiles
/// over `steps` steps run `unroll` at a time (planBlockSplit): 1 where it
/// does not split.
static int64_t countBlockChunks(int64_t tiles, int64_t steps, int64_t unroll,
                                unsigned threads) {
  // Each chunk keeps a loop of more unrolled iterations than ptxas unrolls
  // whole: the hot loop the model counts.
  int64_t chunks = 1;
  while (tiles * chunks * 2 <= threads && steps % (chunks * 2) == 0 &&
         steps / (chunks * 2) / unroll > kFullUnrollTrips)
    chunks *= 2;
  return chunks;
}

void cuda::planBlockSplit(linalg::GenericOp generic, PhaseConfig &phase,
                          unsigned threads) {
  TileConfig &tile = phase.tile;
  SmallVector<unsigned> reduction;
  generic.getReductionDims(reduction);
  if (tile.empty() || phase.mma.enabled() || phase.mma.blockTiled() ||
      reduction.size() != 1 || generic.getNumDpsInits() != 1 ||
      !generic.getBody()->getOps<linalg::IndexOp>().empty() ||
      !getReductionCombiner(generic))
    return;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  int64_t steps = ranges[reduction[0]];
  int64_t tiles = countTiles(generic, tile);
  int64_t chunks = countBlockChunks(tiles, steps, tile.unroll, threads);
  if (chunks == 1)
    return;
  // Takes a tile of `size` along its loop `dim` instead, if `accepts` the
  // threads its chunks of tiles would use.
  auto enlarge = [&](unsigned dim, int64_t size, auto accepts) {
    TileConfig larger = tile;
    larger.sizes[dim] = size;
    int64_t largerTiles = countTiles(generic, larger);
    int64_t largerChunks =
        countBlockChunks(largerTiles, steps, tile.unroll, threads);
    if (!accepts(largerTiles * largerChunks))
      return;
    tile = larger;
    tiles = largerTiles;
    chunks = largerChunks;
  };
  // A 4x4 tile whose rows divide by 8 gets 8 rows where its chunks still
  // fill as many threads (as planTallTiles gives them where the tiles do):
  // 12 operand elements a step for 32 FFMA instead of 8 for 16.
  if (tile.sizes[0] == kTileSize && ranges[tile.loops[0]] % kTallTileRows == 0)
    enlarge(0, kTallTileRows,
            [&](int64_t used) { return used == tiles * chunks; });
  // An 8x4 tile whose columns divide by 8 gets 8 columns where its chunks
  // still give each of an SM's 4 schedulers a warp: 16 operand elements a
  // step for 64 FFMA, a third fewer per FFMA than 8x4, on fewer threads
  // (the seed step's dW1: 32 tiles of 8x8 in 4 chunks on 128 threads).
  if (tile.sizes[0] == kTallTileRows && tile.sizes[1] == kTileSize &&
      ranges[tile.loops[1]] % kWideTileCols == 0)
    enlarge(1, kWideTileCols,
            [](int64_t used) { return used >= kMinWideTileThreads; });
  phase.chunks = chunks;
  LLVM_DEBUG(llvm::dbgs() << "split the " << steps << " steps of the " << tiles
                          << " tiles of " << phase.sourceOps << " in "
                          << tile.sizes[0] << "x" << tile.sizes[1] << " into "
                          << chunks << " chunks within the block of " << threads
                          << " threads\n");
}

int64_t cuda::getBlockSplitBytes(linalg::GenericOp generic,
                                 const PhaseConfig &phase) {
  int64_t points = 1;
  for (int64_t size : phase.tile.sizes)
    points *= size;
  Type element = getElementTypeOrSelf(generic.getDpsInits()[0].getType());
  return (phase.chunks - 1) * countTiles(generic, phase.tile) * points *
         llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
}

void cuda::planConsecutivePoints(
    linalg::GenericOp generic, PhaseConfig &phase, const BufferViews &views,
    llvm::function_ref<bool(Value)> isInGlobalMemory) {
  TileConfig &tile = phase.tile;
  if (tile.empty() || phase.mma.enabled() || phase.mma.blockTiled())
    return;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  tile.consecutive.assign(tile.loops.size(), false);
  for (auto [k, loop] : llvm::enumerate(tile.loops)) {
    int64_t size = tile.sizes[k];
    if (size < 2 || ranges[loop] % size != 0)
      continue;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      if (generic.getMatchingBlockArgument(input).use_empty() ||
          !isa<MemRefType>(input->get().getType()) ||
          !generic.getMatchingIndexingMap(input).isFunctionOfDim(loop))
        continue;
      bool staged = phase.isStaged(input->getOperandNumber());
      bool global = !staged && isInGlobalMemory(input->get());
      if (getAccessWidth(generic, *input, loop, {size, ranges[loop]}, global,
                         staged, views) > 1) {
        tile.consecutive[k] = true;
        LLVM_DEBUG(llvm::dbgs()
                   << "consecutive points along d" << loop << " in "
                   << phase.sourceOps << ": operand "
                   << input->getOperandNumber() << " reads them at once\n");
        break;
      }
    }
  }
  if (!llvm::is_contained(tile.consecutive, true))
    tile.consecutive.clear();
}

/// A warp's tile on tensor cores: 2 x 4 mma.sync m16n8k8 tiles, 32
/// accumulators per thread (twice the 4x4 FFMA tile's, where a thread's
/// fragment loads serve 16 products each instead of 4).
static constexpr int64_t kWarpTileRows = 32, kWarpTileCols = 32;
/// Reduction steps staged in shared memory between two barriers: 4 mma
/// steps.
static constexpr int64_t kMmaStepsStaged = 32;
/// A warp's tile in FFMA, as planned: 4 x 8 threads of 8 x 4 points each,
/// 32 accumulators per thread, whose 12 operand elements a step (three
/// 128-bit shared loads, twelve wavefronts a warp) serve 32 FFMA; with two
/// blocks per SM a thread has 128 registers, which 8 x 8 points would
/// not fit.
static constexpr int64_t kFfmaWarpRows = kFfmaWarpTileRows[0],
                         kFfmaWarpCols = 32;
/// Reduction steps staged at a time in FFMA: 16 steps of 64 FFMA a thread
/// between two barriers, half the shared memory of 32.
static constexpr int64_t kFfmaStepsStaged = 16;
/// The most stages of the cp.async pipeline: two stages in flight while
/// the warps multiply a third cover a load's latency on sm_80 and sm_90 at
/// two blocks per SM; more would only take shared memory.
static constexpr int64_t kMaxMmaStages = 3;

std::optional<std::pair<OpOperand *, OpOperand *>>
cuda::getMultiplyAddOperands(linalg::GenericOp generic) {
  Block *body = generic.getBody();
  if (generic.getNumDpsInits() != 1 || !llvm::hasNItems(*body, 3))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add || !add.getType().isF32())
    return std::nullopt;
  BlockArgument acc =
      generic.getMatchingBlockArgument(generic.getDpsInitOperand(0));
  if (add.getLhs() != acc && add.getRhs() != acc)
    return std::nullopt;
  auto mul = (add.getLhs() == acc ? add.getRhs() : add.getLhs())
                 .getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  auto lhs = dyn_cast<BlockArgument>(mul.getLhs());
  auto rhs = dyn_cast<BlockArgument>(mul.getRhs());
  // Both the body's own arguments (not captured ones), of inputs.
  if (!lhs || !rhs || lhs.getOwner() != body || rhs.getOwner() != body ||
      lhs == rhs || lhs == acc || rhs == acc)
    return std::nullopt;
  return std::make_pair(generic.getMatchingOpOperand(lhs),
                        generic.getMatchingOpOperand(rhs));
}

MmaConfig cuda::planMma(linalg::GenericOp generic, const TileConfig &tile,
                        Precision precision, Strategy strategy,
                        const GpuSpec &target, unsigned threads) {
  MmaConfig mma;
  if (tile.empty())
    return mma;
  std::string why;
  if (strategy != Strategy::Tiled)
    why = ("the " + stringifyStrategy(strategy) +
           " strategy has no tensor-core tiles")
              .str();
  else if (generic.getNumReductionLoops() != 1)
    why = "more than one reduction loop";
  else if (!getMultiplyAddOperands(generic))
    why = "not a multiply-add of two f32 operands";
  if (!why.empty()) {
    LLVM_DEBUG(llvm::dbgs()
               << "no block tiles for " << getSourceOps(generic.getOperation())
               << ": " << why << "\n");
    // Only a program that asks for tensor cores hears why not.
    if (precision != Precision::F32)
      mma.fallback = why;
    return mma;
  }
  bool ffma = precision == Precision::F32;
  // planTile found an operand along the rows but not the columns and
  // another the other way round: in a multiply-add of two, the two.
  mma.precision = precision;
  mma.warpRows = ffma ? kFfmaWarpRows : kWarpTileRows;
  mma.warpCols = ffma ? kFfmaWarpCols : kWarpTileCols;
  mma.stepsStaged = ffma ? kFfmaStepsStaged : kMmaStepsStaged;
  LLVM_DEBUG(llvm::dbgs() << "block tiles (" << stringifyPrecision(precision)
                          << ") for " << getSourceOps(generic.getOperation())
                          << "\n");
  planMmaStages(mma, target, threads);
  return mma;
}

/// The distance in elements between `operand`'s elements at loop `loop`
/// i and i + 1 of `generic` (its strides, or row-major ones if its layout
/// has none).
static int64_t getLoopStride(linalg::GenericOp generic, OpOperand &operand,
                             unsigned loop) {
  auto type = cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    strides = llvm::to_vector(getRowMajorStrides(type.getShape()));
  AffineMap map = generic.getMatchingIndexingMap(&operand);
  SmallVector<int64_t> at(map.getNumDims(), 0), next(map.getNumDims(), 0);
  next[loop] = 1;
  int64_t stride = 0;
  for (auto [a, b, s] : llvm::zip(map.compose(at), map.compose(next), strides))
    stride += (b - a) * s;
  return std::abs(stride);
}

std::pair<OpOperand *, OpOperand *>
cuda::getBlockTileOperands(linalg::GenericOp generic, const TileConfig &tile) {
  auto [a, b] = *getMultiplyAddOperands(generic);
  if (!generic.getMatchingIndexingMap(a).isFunctionOfDim(tile.loops[0]))
    std::swap(a, b);
  return {a, b};
}

unsigned cuda::getReductionLoop(linalg::GenericOp generic) {
  unsigned reduction = 0;
  for (auto [d, iterator] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      reduction = d;
  return reduction;
}

bool cuda::isStagedAlongSteps(linalg::GenericOp generic, OpOperand &operand,
                              unsigned loop) {
  return getLoopStride(generic, operand, getReductionLoop(generic)) <
         getLoopStride(generic, operand, loop);
}

void cuda::planBlockTileCopies(linalg::GenericOp generic,
                               const TileConfig &tile, MmaConfig &mma,
                               const BufferViews &views) {
  auto [a, b] = getBlockTileOperands(generic, tile);
  unsigned rows = tile.loops[0], cols = tile.loops[1],
           reduction = getReductionLoop(generic);
  bool aAlongSteps = isStagedAlongSteps(generic, *a, rows),
       bAlongSteps = isStagedAlongSteps(generic, *b, cols);
  // On tensor cores each stage follows its operand: a row's (a column's)
  // steps consecutively where they are in memory, else a step's rows
  // (columns), so that a warp's copies store consecutive words (the
  // fragment loads hit 32 banks either way). In FFMA a's holds each step's
  // rows and b's each step's columns (getMmaStaging); every stage's rows
  // are a multiple of 4 words.
  mma.aByStepsOnTensorCores = mma.enabled() && !aAlongSteps;
  mma.bByColumnsOnTensorCores = mma.enabled() && bAlongSteps;
  struct Staged {
    OpOperand *operand;
    unsigned loop;
    bool alongSteps, byPoints;
  };
  Staged staged[] = {{a, rows, aAlongSteps, mma.stagesAByRows()},
                     {b, cols, bAlongSteps, mma.stagesBByColumns()}};
  for (auto [k, operand] : llvm::enumerate(staged)) {
    bool alongSteps = operand.alongSteps;
    unsigned inner = alongSteps ? reduction : operand.loop;
    // A copy starts at a multiple of 4 of the inner loop: the block tile's
    // first row or column and its first step are multiples of 16. Every
    // copy is whole or wholly outside the op: 4 divides the inner range.
    bool wide = alongSteps == operand.byPoints &&
                generic.getStaticLoopRanges()[inner] % 4 == 0 &&
                views.getGlobalBuffer(operand.operand->get()) &&
                getAccessWidth(generic, *operand.operand, inner, {4},
                               /*global=*/true, /*rowMajor=*/false, views) == 4;
    mma.copyWords[k] = wide ? 4 : 1;
    LLVM_DEBUG(llvm::dbgs()
               << "copies of operand " << operand.operand->getOperandNumber()
               << " of " << getSourceOps(generic.getOperation()) << ": "
               << mma.copyWords[k] * 4 << " bytes\n");
  }
}

void cuda::planMmaStages(MmaConfig &mma, const GpuSpec &target,
                         unsigned threads) {
  // As many stages as fit for two blocks in an SM's shared memory (the
  // kernel asks for two blocks per SM), each block within what it may opt
  // in to.
  mma.stages = 1;
  int64_t stageBytes = getMmaStaging(mma, threads).bytes;
  int64_t budget =
      std::min(target.sharedPerBlockOptin,
               target.sharedPerSm / 2 - target.reservedSharedPerBlock);
  mma.stages = std::clamp<int64_t>(budget / stageBytes, 1, kMaxMmaStages);
  LLVM_DEBUG(llvm::dbgs() << mma.stages << " cp.async stages of " << stageBytes
                          << " bytes for " << threads << " threads on "
                          << target.name << "\n");
}

void cuda::planSplit(linalg::GenericOp generic, PhaseConfig &phase,
                     int64_t members, int64_t fillBlocks) {
  Operation *combiner = getReductionCombiner(generic);
  bool contraction = phase.kind == PhaseKind::Points;
  // A contraction splits its one reduction loop, in register tiles (not
  // in block tiles).
  if (!combiner || phase.mma.blockTiled() ||
      (contraction &&
       (phase.tile.empty() || generic.getNumReductionLoops() != 1)))
    return;
  auto [elements, steps] = countPointsAndSteps(generic);
  int64_t blocks = members * getBlocksPerMember(generic, phase, members);
  if (blocks == 0 || blocks >= fillBlocks)
    return;
  // A contraction's blocks already keep every SM busy with a register tile
  // per thread from half a wave on; splitting it then costs a second
  // launch and the partial results' traffic for nothing. Split only where
  // most SMs would idle, through a long reduction.
  if (contraction &&
      (2 * blocks >= fillBlocks / 2 || steps < kMinTileSplitSteps))
    return;
  phase.chunks = std::min<int64_t>(
      llvm::divideCeil(fillBlocks, blocks),
      steps / (contraction ? kMinTileChunkSteps : kMinChunkSteps));
  // A contraction's chunks are of whole unrolled iterations
  // (getChunkSteps), no longer than the even share: as many more as that
  // takes.
  if (contraction && phase.chunks > 1) {
    int64_t unroll = std::max<int64_t>(phase.tile.unroll, 1);
    int64_t share = llvm::divideCeil(steps, phase.chunks) / unroll * unroll;
    phase.chunks = llvm::divideCeil(steps, std::max(share, unroll));
  }
  if (phase.chunks <= 1) {
    phase.chunks = 1;
    return;
  }
  LLVM_DEBUG(llvm::dbgs() << "split the " << steps << " steps of each of the "
                          << elements << " elements of " << phase.sourceOps
                          << " into " << phase.chunks << " chunks\n");
}

int64_t cuda::getFinishBatchPoints(linalg::GenericOp generic, int64_t chunks) {
  // 128 words in flight: in mnist_mlp's first layer (13 chunks, sm_90,
  // CUDA 13.0) ptxas then issues the chunk loop's iterations in one round
  // each, where with 64 it took three; its 128 registers still fit two
  // blocks of 256 threads an SM.
  constexpr int64_t kFinishWordsInFlight = 128;
  Type type = getReductionCombiner(generic)->getResult(0).getType();
  int64_t words =
      chunks * llvm::divideCeil(getElementSize(*getBufferDType(type)), 4);
  return std::max<int64_t>(1, kFinishWordsInFlight / words);
}

int64_t cuda::getChunkSteps(int64_t steps, int64_t chunks, int64_t unroll,
                            bool inBlock) {
  int64_t share = llvm::divideCeil(steps, chunks);
  return inBlock || chunks <= 1
             ? share
             : llvm::alignTo(share, std::max<int64_t>(unroll, 1));
}

int64_t cuda::getBlocksPerMember(linalg::GenericOp generic,
                                 const PhaseConfig &phase, int64_t members) {
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<int64_t, 2> sizes = phase.tile.sizes;
  if (phase.mma.blockTiled()) {
    auto [rows, cols] = getMmaBlockTile(phase.mma, phase.threads);
    sizes = {rows, cols};
  }
  for (auto [loop, size] : llvm::zip(phase.tile.loops, sizes))
    ranges[loop] = llvm::divideCeil(ranges[loop], size);
  int64_t points = 1;
  for (auto [range, iterator] :
       llvm::zip(ranges, generic.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      points *= range; // At most the elements of a checked output.
  // A block reduction gives each chunk of an output element a block, and
  // block tiles each a block; points a thread each (a tile of them, if the
  // op has one; and each chunk of it, if it is split).
  // With its lanes along the outputs, a block reduction's block takes 32
  // of them.
  int64_t blocks =
      phase.lanesAlongOutputs ? llvm::divideCeil(points, int64_t(kWarpSize))
      : phase.kind == PhaseKind::BlockReduction || phase.mma.blockTiled()
          ? points * phase.chunks
          : llvm::divideCeil(points * phase.chunks, int64_t(phase.threads));
  // Blocks beyond what a grid can launch loop over the rest; a phase with
  // no points still launches a block per member, which does nothing.
  return std::clamp<int64_t>(blocks, 1, INT32_MAX / members);
}

void cuda::planTiledLaunches(
    MemberLoopPlan &plan,
    llvm::function_ref<std::optional<int64_t>(Value)> getGlobalBuffer) {
  KernelConfig &config = plan.config;
  struct Traffic {
    llvm::SetVector<int64_t> read, written;
  };
  SmallVector<Traffic> traffic(config.phases.size());
  for (auto [ir, touched] : llvm::zip(plan.phases, traffic)) {
    collectTraffic(ir.op, getGlobalBuffer, touched.read, touched.written);
    if (ir.epilogue)
      collectTraffic(ir.epilogue, getGlobalBuffer, touched.read,
                     touched.written);
  }
  auto meets = [](const llvm::SetVector<int64_t> &a,
                  const llvm::SetVector<int64_t> &b) {
    return llvm::any_of(a, [&](int64_t buffer) { return b.contains(buffer); });
  };
  auto dependsOn = [&](const Traffic &later, const Traffic &earlier) {
    return meets(later.read, earlier.written) ||
           meets(later.written, earlier.written) ||
           meets(later.written, earlier.read);
  };
  auto alone = [](const PhaseConfig &phase) {
    return (phase.chunks > 1 && !phase.finishLast) ||
           phase.kind == PhaseKind::Serial ||
           phase.kind == PhaseKind::VendorGemm;
  };
  // The blocks of each launch so far.
  SmallVector<int64_t> blocks;
  for (auto [i, phase] : llvm::enumerate(config.phases)) {
    unsigned launch = 0;
    for (auto [j, earlier] :
         llvm::enumerate(ArrayRef(config.phases).take_front(i)))
      if (alone(phase) || alone(earlier) || dependsOn(traffic[i], traffic[j]))
        launch = std::max(launch, earlier.launch + 1);
    int64_t own = config.members * phase.blocksPerMember;
    // A grid has at most 2^31 - 1 blocks.
    while (launch < blocks.size() && blocks[launch] > INT32_MAX - own)
      ++launch;
    if (launch == blocks.size())
      blocks.push_back(0);
    phase.launch = launch;
    phase.firstBlock = blocks[launch];
    blocks[launch] += own;
    LLVM_DEBUG(llvm::dbgs()
               << "launch " << launch << " of the loop runs " << phase.sourceOps
               << " from block " << phase.firstBlock << "\n");
  }
}
