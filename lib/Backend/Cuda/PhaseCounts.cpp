//===- PhaseCounts.cpp - What the model counts of a kernel's phases -------===//
//
// Counts, per phase of a loop over members, what the emitters write for it
// (LoopNestEmitter.cpp, TileEmitter.cpp, MemberKernelEmitter.cpp; block
// reductions are counted in ReductionCounts.cpp): a thread's loads, stores
// and float instructions per reduction step, per point and per unrolled
// iteration; the warps that issue them and the lanes that work; for each
// access of a warp the 128-byte lines (global) or bank passes (shared) it
// takes through the L1 data path and the 32-byte sectors it fetches from
// L2, from the addresses its 32 lanes compute; the round trips each thread
// waits for one after another; and the barriers. The
// counts are checked against the SASS of the real CUBINs
// (test/Backend/Cuda/model-vs-sass.test).
//
//===----------------------------------------------------------------------===//

#include "BlockTiles.h"
#include "GenericCounter.h"

#include "KernelCost.h"

#include "ens/Support/HostTensor.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cuda-model"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

using namespace mlir::ens::cuda::phase;

bool cuda::isStagedAsynchronously(const BufferViews &views, Value memref) {
  return cast<MemRefType>(memref.getType()).getElementTypeBitWidth() == 32 &&
         views.getGlobalBuffer(memref).has_value();
}

WorkCounts GenericCounter::countStaging() const {
  WorkCounts counts;
  // Asynchronous copies wait once, together, before the barrier.
  bool anyAsync = false;
  for (const StagedOperand &operand : phase.staged) {
    OpOperand &value = generic->getOpOperand(operand.operand);
    auto type = cast<MemRefType>(value.get().getType());
    SmallVector<int64_t> strides = getStrides(type);
    int64_t elements = type.getNumElements();
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    SmallVector<int64_t> offsets;
    SmallVector<unsigned> all =
        llvm::to_vector(llvm::seq<unsigned>(0, type.getRank()));
    for (int64_t lane = 0; lane < 32; ++lane) {
      SmallVector<int64_t> index = getLaneDims(type.getShape(), all, lane);
      int64_t offset = 0;
      for (auto [i, stride] : llvm::zip(index, strides))
        offset += i * stride;
      offsets.push_back(offset);
    }
    bool async = isStagedAsynchronously(context.views, value.get());
    Work work;
    work.add(getCost(offsets, bytes, Space::Global), 1, false);
    SmallVector<int64_t> consecutive =
        llvm::to_vector(llvm::seq<int64_t>(0, 32));
    AccessCost write = getCost(consecutive, bytes, Space::Shared);
    // An LDGSTS is one instruction that reads global memory and writes
    // shared memory (ens-sass counts it apart from the loads).
    if (async)
      work.wavefronts += write.wavefronts;
    else
      work.add(write, 1, true);
    auto [warps, lanes] = getWarps(elements, context.memberThreads);
    WorkCounts copy = total(work, warps, lanes, kPointOverhead, context);
    // Each plain copy's load waits before its store, and the next copy's
    // load after the store (the kernels' pointers may alias).
    copy.dependentLoads =
        async ? 0 : llvm::divideCeil(elements, context.memberThreads);
    anyAsync |= async;
    // An asynchronous copy's loop: the LDGSTS and, in the SASS of sm_90
    // (CUDA 13.0), three loads that never run (@!PT) that ptxas pads it
    // with, besides the iteration's overhead.
    copy.hotLoops.push_back({async ? 0 : 1, async ? 0 : 1, 0,
                             int64_t(kIterationOverhead) + (async ? 4 : 0),
                             async ? 0 : 1, copy.dependentLoads});
    counts.append(copy);
  }
  if (anyAsync)
    counts.dependentLoads += 1;
  if (!phase.staged.empty())
    counts.barriersPerBlock += 1;
  return counts;
}

Work GenericCounter::countEpilogue(linalg::GenericOp epilogue,
                                   ArrayRef<SmallVector<int64_t>> laneDims,
                                   int64_t rowGroup) const {
  Work work;
  if (!epilogue)
    return work;
  // The epilogue's loops are the contraction's result's indices.
  AffineMap resultMap =
      generic.getMatchingIndexingMap(&generic.getDpsInitsMutable()[0]);
  SmallVector<SmallVector<int64_t>> epilogueDims;
  for (ArrayRef<int64_t> dims : laneDims)
    epilogueDims.push_back(resultMap.compose(dims));
  SmallVector<int64_t> epilogueRanges = epilogue.getStaticLoopRanges();
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    if (epilogue.getMatchingBlockArgument(input).use_empty() ||
        !isa<MemRefType>(input->get().getType()))
      continue;
    Space space = getSpace(input->get(), context.views);
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    bool invariant = llvm::none_of(llvm::seq(map.getNumDims()), [&](auto d) {
      return epilogueRanges[d] != 1 && map.isFunctionOfDim(d);
    });
    if (space == Space::Registers || invariant)
      continue;
    AccessCost access = memoryCost(epilogue, *input, epilogueDims, space);
    int64_t width = getEpilogueWidth(epilogue, *input, rowGroup);
    work.add(widen(access, width), 1.0 / double(width), false);
  }
  // NVVM merges the stores of consecutive points too, where no other store
  // between them may alias: a block tile's row group (whose points store
  // one output after another), or one output, or outputs in global memory
  // (distinct __restrict__ parameters); outputs in shared memory all point
  // into ens_shared (the seed step's second layer: 64-bit stores of 3
  // outputs, SASS sm_90, CUDA 13.0; its first layer's 1 output: 128-bit).
  int64_t inMemory =
      llvm::count_if(epilogue.getDpsInitsMutable(), [&](OpOperand &init) {
        return getSpace(init.get(), context.views) != Space::Registers;
      });
  for (OpOperand &init : epilogue.getDpsInitsMutable()) {
    Space space = getSpace(init.get(), context.views);
    if (space == Space::Registers)
      continue;
    bool merged = rowGroup > 1 || inMemory == 1 || space == Space::Global;
    int64_t width = merged ? getEpilogueWidth(epilogue, init, rowGroup) : 1;
    work.add(widen(memoryCost(epilogue, init, epilogueDims, space), width),
             1.0 / double(width), true);
  }
  // An elementwise epilogue runs its body once per point.
  auto [fp, ffma] = getFloatInstructions(
      epilogue, std::max<int64_t>(1, countPointsAndSteps(epilogue).first));
  work.fp += fp;
  work.ffma += ffma;
  return work;
}

WorkCounts GenericCounter::countPoints() const {
  // The tile's loops in tiles: lanes walk tiles; each thread's tile holds
  // `tilePoints` points, and loads an operand element once for each point
  // of the tile's loops it follows.
  SmallVector<int64_t> walked = ranges;
  int64_t tilePoints = 1;
  const TileConfig &tile = phase.tile;
  for (auto [loop, size] : llvm::zip(tile.loops, tile.sizes)) {
    walked[loop] = llvm::divideCeil(ranges[loop], size);
    tilePoints *= size;
  }
  auto perOperand = [&](OpOperand &operand) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    int64_t copies = 1;
    for (auto [loop, size] : llvm::zip(tile.loops, tile.sizes))
      if (map.isFunctionOfDim(loop))
        copies *= size;
    return copies;
  };
  auto [points, steps] = countPointsAndSteps(generic);
  // The body runs once per point and step.
  auto [fp, ffma] =
      getFloatInstructions(generic, std::max<int64_t>(1, points * steps));
  int64_t items = 1;
  for (unsigned d : parallel)
    items *= walked[d];
  int64_t chunks = std::max<int64_t>(phase.chunks, 1);
  // Split within a member-per-block kernel's block, the chunks' threads
  // finish the points; else the split's second kernel does.
  bool inBlock = chunks > 1 && context.strategy != Strategy::Tiled;
  bool finishes = chunks == 1 || inBlock;
  int64_t tiles = items, allSteps = steps;
  if (chunks > 1)
    steps = getChunkSteps(steps, chunks, tile.unroll, inBlock);
  items *= chunks;
  // Each lane at its tile's first point: along a loop of consecutive
  // points, a tile's size times its tile.
  SmallVector<SmallVector<int64_t>> laneDims = lanes(parallel, walked);
  for (auto [k, loop] : llvm::enumerate(tile.loops))
    if (tile.isConsecutive(k))
      for (SmallVector<int64_t> &dims : laneDims)
        dims[loop] *= tile.sizes[k];

  // One step of the reduction, for the whole tile. An operand that the
  // four steps of an unrolled iteration, or a tile's four consecutive
  // points, read at consecutive, 16-byte aligned addresses takes one
  // 128-bit load (LDS.128, LDG.E.128) for the four: ptxas merges them, as
  // the SASS shows; at four wavefronts or more (widen).
  Work step;
  int64_t readsPerStep = 0;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (!isRead(input) || spaceOf(*input) == Space::Registers)
      continue;
    ++readsPerStep;
    AccessCost access = cost(*input, laneDims);
    double times = perOperand(*input);
    // Merged along the reduction, or else along a loop of the tile's
    // consecutive points (both cannot have unit stride).
    int64_t width = getVectorWidth(*input);
    for (unsigned k = 0; k < tile.loops.size() && width == 1; ++k)
      if (generic.getMatchingIndexingMap(input).isFunctionOfDim(tile.loops[k]))
        width = getTileWidth(*input, k);
    step.add(widen(access, width), times / double(width), false);
  }
  step.fp += fp * tilePoints;
  step.ffma += ffma * tilePoints;
  // Outputs indexed by the reduction are read and written at each step.
  Work point;
  bool perStepOutput = false;
  for (OpOperand &init : generic.getDpsInitsMutable()) {
    AffineMap map = generic.getMatchingIndexingMap(&init);
    bool inner = llvm::any_of(
        reduction, [&](unsigned d) { return map.isFunctionOfDim(d); });
    Space space = getSpace(init.get(), context.views);
    if (space == Space::Registers)
      continue;
    AccessCost access = cost(init, laneDims);
    bool readsOutput = !generic.getMatchingBlockArgument(&init).use_empty() &&
                       !context.views.inRegisters.contains(init.get());
    if (inner) {
      perStepOutput = true;
      step.add(access, tilePoints, false);
      step.add(access, tilePoints, true);
      continue;
    }
    if (readsOutput && finishes)
      point.add(access, tilePoints, false);
    if (!epilogue || !finishes)
      point.add(access, tilePoints, true);
  }
  if (finishes)
    point.add(countEpilogue(epilogue, laneDims), tilePoints);

  // The unrolled iterations of the emitters' rules (emitPoints, emitTiles).
  bool single = reduction.size() == 1 &&
                generic.getBody()->getOps<linalg::IndexOp>().empty();
  int64_t unroll = 1;
  if (single && !perStepOutput) {
    unroll = tile.empty() ? kUnrollSteps : tile.unroll;
    if (tile.empty() && readsPerStep <= 1 && steps >= kWholeUnrollSteps)
      unroll = kWholeUnrollSteps;
  }
  auto [iterations, rest] = splitSteps(steps, unroll);
  Work perItem;
  perItem.add(step, steps);
  if (!inBlock)
    perItem.add(point);
  double overhead = kPointOverhead + kPerLoopVariable * parallel.size() +
                    kIterationOverhead * (iterations + rest);
  auto [warps, lanes] =
      getWarps(items, context.memberThreads * context.blocksPerMember);
  WorkCounts counts = total(perItem, warps, lanes, overhead, context);
  if (inBlock)
    counts.append(
        countBlockPartials(point, tiles, tilePoints, chunks, context));
  // L2 traffic: the global operands of the steps once per block and round
  // of items (their footprint), the points' accesses as their sectors.
  int64_t width = context.memberThreads;
  double groups = double(context.members) * llvm::divideCeil(items, width);
  double stepBytes = 0;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (isRead(input) && spaceOf(*input) == Space::Global)
      stepBytes += footprint(*input, walked, std::min(width, items / chunks),
                             inBlock ? allSteps : steps);
  // Within a block, the chunks' warps share the points: as many accesses
  // as one warp per 32 tiles makes.
  double pointWarps =
      inBlock ? getWarps(tiles, context.memberThreads).first : warps;
  counts.l2Bytes = groups * stepBytes +
                   context.members *
                       (pointWarps * point.sectors +
                        warps * (perStepOutput ? steps * step.sectors : 0)) *
                       32;
  // A thread waits for each iteration's loads before its FMAs and the
  // next iteration's loads; for each point's epilogue loads one after
  // another (a store may alias the next point's load).
  int64_t rounds =
      llvm::divideCeil(items, context.memberThreads * context.blocksPerMember);
  int64_t chain = 0;
  if (step.global)
    chain += iterations + rest;
  // The points' loads wait one after another only behind global stores
  // (shared stores cannot alias them, and ptxas hoists the loads); a
  // tile's epilogue loads every point's elements before its first store
  // (emitTiles).
  bool loadsFirst = epilogue && !tile.empty() && finishes;
  if (point.global)
    chain += point.globalStores && !loadsFirst ? tilePoints : 1;
  counts.dependentLoads = rounds * chain;
  // The first round trip of each round fetches from DRAM; operands re-read
  // by the other threads' and the later steps' loads hit in L2.
  counts.l2DependentLoads = chain ? rounds * (chain - 1) : 0;
  // The hot loop: the reduction's unrolled (or only) loop; where ptxas
  // unrolls that loop whole (a constant trip count of at most
  // kFullUnrollTrips), the loop over the thread's points around it.
  if (steps > 0 && !reduction.empty()) {
    Work loop;
    int64_t loopRounds = step.global ? 1 : 0;
    int64_t loopIterations = rounds * getHotLoopTrips(iterations, rest);
    if (chunks == 1 && iterations + rest <= kFullUnrollTrips) {
      loop = perItem;
      loopRounds = chain;
      loopIterations = rounds;
    } else {
      loop.add(step, unroll > 1 && iterations ? unroll : 1);
    }
    counts.hotLoops.push_back(
        {int64_t(loop.loads), int64_t(loop.stores), int64_t(loop.ffma),
         int64_t(loop.instructions() + kIterationOverhead), loopRounds,
         loopIterations});
  }
  LLVM_DEBUG(llvm::dbgs() << "phase " << phase.sourceOps << ": " << items
                          << " items in " << warps << " warps a member, "
                          << step.loads << " loads and " << step.ffma
                          << " FFMA a step, chain " << counts.dependentLoads
                          << "\n");
  return counts;
}

WorkCounts GenericCounter::countBlockTiles() const {
  const TileConfig &tile = phase.tile;
  // A warp's first points: the micro-tiles' first in FFMA, or on tensor
  // cores accumulator d[g][2t] of the first fragment (g = lane / 4,
  // t = lane % 4).
  bool tensor = phase.mma.enabled();
  SmallVector<SmallVector<int64_t>> laneDims;
  for (int64_t lane = 0; lane < 32; ++lane) {
    SmallVector<int64_t> dims(ranges.size(), 0);
    int64_t row = tensor ? lane / 4 : lane / kFfmaThreadCols * 4,
            col = tensor ? lane % 4 * 2 : lane % kFfmaThreadCols * 4;
    dims[tile.loops[0]] = std::min(row, ranges[tile.loops[0]] - 1);
    dims[tile.loops[1]] = std::min(col, ranges[tile.loops[1]] - 1);
    laneDims.push_back(dims);
  }
  Work point;
  for (OpOperand &init : generic.getDpsInitsMutable()) {
    Space space = getSpace(init.get(), context.views);
    if (space == Space::Registers)
      continue;
    AccessCost access = cost(init, laneDims);
    // The accumulators start from the output's values, as in countPoints.
    if (!context.views.inRegisters.contains(init.get()) &&
        !generic.getMatchingBlockArgument(&init).use_empty())
      point.add(access, 1, false);
    if (!epilogue)
      point.add(access, 1, true);
  }
  // FFMA block tiles whose columns are all inside the op: each row of 4
  // consecutive columns loads and stores its epilogue's operands together
  // (emitBlockTiles).
  auto [blockRows, blockCols] = getMmaBlockTile(phase.mma, phase.threads);
  (void)blockRows;
  bool columnsInside =
      hasColumnsInside(phase.mma, ranges[tile.loops[1]], blockCols);
  point.add(countEpilogue(epilogue, laneDims, columnsInside ? 4 : 1));
  return phase::countBlockTiles(generic, phase, context, point,
                                epilogue ? countEpilogueWords(generic, epilogue)
                                         : 0);
}

WorkCounts cuda::countPhase(const MemberLoopPlan::Phase &ir,
                            const PhaseConfig &phase,
                            const PhaseContext &context) {
  if (phase.kind == PhaseKind::Serial)
    return countSerial(ir.op, context);
  WorkCounts counts;
  if (phase.kind == PhaseKind::VendorGemm) {
    counts.counted = false;
    return counts;
  }
  GenericCounter counter(cast<linalg::GenericOp>(ir.op), phase, context);
  counter.epilogue = ir.epilogue;
  if (phase.mma.blockTiled())
    return counter.countBlockTiles();
  counts = counter.countStaging();
  counts.append(phase.kind == PhaseKind::BlockReduction
                    ? (phase.lanesAlongOutputs ? counter.countColumnReduction()
                                               : counter.countBlockReduction())
                    : counter.countPoints());
  return counts;
}

WorkCounts cuda::countSplitCombine(const MemberLoopPlan::Phase &ir,
                                   const PhaseConfig &phase,
                                   const PhaseContext &context,
                                   int64_t laneStride) {
  auto generic = cast<linalg::GenericOp>(ir.op);
  GenericCounter counter(generic, phase, context);
  counter.epilogue = ir.epilogue;
  int64_t points = countPointsAndSteps(generic).first;
  int64_t chunks = phase.chunks;
  int64_t elementBytes = getElementSize(
      *getBufferDType(getReductionCombiner(generic)->getResult(0).getType()));
  if (phase.kind == PhaseKind::BlockReduction) {
    // A block per element: its threads load a chunk's partial result each
    // (consecutive), the block combines them, thread 0 finishes.
    int64_t threads = context.blockThreads;
    Work share;
    SmallVector<int64_t> consecutive =
        llvm::to_vector(llvm::seq<int64_t>(0, 32));
    share.add(getCost(consecutive, elementBytes, Space::Global),
              llvm::divideCeil(chunks, threads), false);
    share.fp += llvm::divideCeil(chunks, threads);
    double warps = llvm::divideCeil(std::min(chunks, threads), 32);
    WorkCounts counts =
        total(share, warps * points, double(std::min(chunks, threads)) * points,
              kPointOverhead + kBlockReduceInstructions, context);
    SmallVector<SmallVector<int64_t>> one = {
        SmallVector<int64_t>(counter.ranges.size())};
    Work finish;
    OpOperand &init = generic.getDpsInitsMutable()[0];
    Space space = getSpace(init.get(), context.views);
    if (ir.epilogue)
      finish = counter.countEpilogue(ir.epilogue, one);
    else if (space != Space::Registers)
      finish.add(counter.cost(init, one), 1, true);
    counts.append(total(finish, points, points, 0, context));
    counts.barriersPerBlock = 2;
    counts.dependentLoads = 1 + (finish.global ? 1 : 0);
    counts.l2DependentLoads = 0;
    Work loop;
    loop.add(share, 1.0 / llvm::divideCeil(chunks, threads));
    counts.hotLoops = {{int64_t(loop.loads), int64_t(loop.stores),
                        int64_t(loop.ffma),
                        int64_t(loop.instructions() + kIterationOverhead), 1,
                        int64_t(llvm::divideCeil(chunks, threads))}};
    return counts;
  }
  // Thread p of a member adds its point's chunks (partials[m][c][p]: the
  // lanes' loads coalesce, or are `laneStride` elements apart), then
  // stores it or applies the epilogue.
  SmallVector<SmallVector<int64_t>> laneDims =
      counter.lanes(counter.parallel, counter.ranges);
  Work perPoint;
  SmallVector<int64_t> offsets;
  for (int64_t lane = 0; lane < 32; ++lane)
    offsets.push_back(lane * laneStride);
  AccessCost partial = getCost(offsets, elementBytes, Space::Global);
  perPoint.add(partial, chunks, false);
  perPoint.fp += chunks;
  OpOperand &init = generic.getDpsInitsMutable()[0];
  Space space = getSpace(init.get(), context.views);
  if (ir.epilogue)
    perPoint.add(counter.countEpilogue(ir.epilogue, laneDims));
  else if (space != Space::Registers)
    perPoint.add(counter.cost(init, laneDims), 1, true);
  auto [iterations, rest] = splitSteps(chunks, kUnrollSteps);
  double overhead = kPointOverhead + kIterationOverhead * (iterations + rest);
  auto [warps, lanes] =
      getWarps(points, context.memberThreads * context.blocksPerMember);
  WorkCounts counts = total(perPoint, warps, lanes, overhead, context);
  // The hot loop: the chunks' loop, or where ptxas unrolls it whole, the
  // loop over the thread's points. Unrolled whole, a point's loads, the
  // partial results' and the epilogue's, are all issued before the first
  // addition uses one (the SASS of the split combines, sm_90): one round
  // trip a point; else one an iteration of the chunks' loop, then the
  // epilogue's.
  int64_t rounds =
      llvm::divideCeil(points, context.memberThreads * context.blocksPerMember);
  bool whole = iterations + rest <= kFullUnrollTrips;
  Work loop = perPoint;
  if (!whole) {
    loop = Work();
    loop.add(partial, iterations ? kUnrollSteps : 1, false);
  }
  int64_t chain = whole ? 1 : iterations + rest + (ir.epilogue ? 1 : 0);
  counts.hotLoops = {
      {int64_t(loop.loads), int64_t(loop.stores), int64_t(loop.ffma),
       int64_t(loop.instructions() + kIterationOverhead), whole ? chain : 1,
       whole ? rounds : rounds * getHotLoopTrips(iterations, rest)}};
  counts.dependentLoads = rounds * chain;
  counts.l2DependentLoads = 0;
  return counts;
}

WorkCounts cuda::countSplitFinish(const MemberLoopPlan::Phase &ir,
                                  const PhaseConfig &phase,
                                  const PhaseContext &context) {
  // The last chunks' threads load, add and finish every point's chunks, as
  // the second kernel's threads would: the same instructions and traffic,
  // a tile's points to a thread instead of one. Their loads of the partial
  // results are a word each (ld.global.cg, which ptxas does not merge):
  // where a tile's points are consecutive along the partial results'
  // last loop, the lanes, on neighbouring tiles, are a tile's size apart,
  // and each load fetches its sectors from L2 again.
  auto generic = cast<linalg::GenericOp>(ir.op);
  int64_t laneStride = 1;
  SmallVector<unsigned> parallel;
  generic.getParallelDims(parallel);
  for (auto [k, loop] : llvm::enumerate(phase.tile.loops))
    if (phase.tile.isConsecutive(k) && loop == parallel.back())
      laneStride = phase.tile.sizes[k];
  WorkCounts counts = countSplitCombine(ir, phase, context, laneStride);
  int64_t tiles = countTiles(generic, phase.tile);
  // Every chunk's thread of a tile fences and increments the tile's
  // counter, wrapping at the last chunk (a warp's lanes, on neighbouring
  // tiles, a line of counters); the last one's fences again.
  double warps = double(context.members) * tiles * phase.chunks / 32;
  double lastWarps = double(context.members) * tiles / 32;
  counts.warpInstructions += warps * 3 + lastWarps;
  counts.memoryInstructions += warps;
  counts.wavefrontBytes += warps * 128;
  counts.l2Bytes += warps * 128;
  // The fence's wait for the partial results' stores, the increment's
  // round trip, then one a batch of points: the partial results of its
  // points and the epilogue's operands are loaded together (emitTiles),
  // from L2, where the other chunks' threads stored them.
  int64_t tilePoints = phase.tile.sizes[0] * phase.tile.sizes[1];
  counts.dependentLoads =
      2 +
      llvm::divideCeil(tilePoints, getFinishBatchPoints(generic, phase.chunks));
  counts.l2DependentLoads = counts.dependentLoads;
  // Unrolled whole: no loop of its own.
  counts.hotLoops.clear();
  return counts;
}
