//===- ReductionCounts.cpp - What the model counts of block reductions ---===//
//
// Counts a block reduction's phase as the emitters write it
// (LoopNestEmitter.cpp, ColumnReductionEmitter.cpp): the block's (or a
// warp's) threads sharing each output element's steps, or with its lanes
// along the outputs a warp's lanes on 32 elements and the block's warps on
// the steps; the shares' combination and each element's finish.
//
//===----------------------------------------------------------------------===//

#include "GenericCounter.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cuda-model"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;
using namespace mlir::ens::cuda::phase;

Work GenericCounter::countReductionStep(
    ArrayRef<SmallVector<int64_t>> laneDims) const {
  auto [elements, steps] = countPointsAndSteps(generic);
  Work step;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (isRead(input) && spaceOf(*input) != Space::Registers)
      step.add(cost(*input, laneDims), 1, false);
  auto [fp, ffma] =
      getFloatInstructions(generic, std::max<int64_t>(1, elements * steps));
  step.fp += fp;
  step.ffma += ffma;
  return step;
}

WorkCounts GenericCounter::countColumnReduction() const {
  // A warp's lanes walk 32 consecutive output elements; the block's warps
  // share each group's steps.
  auto [elements, steps] = countPointsAndSteps(generic);
  int64_t warps = std::max<int64_t>(context.blockThreads / 32, 1);
  SmallVector<SmallVector<int64_t>> laneDims = lanes(parallel, ranges);
  Work step = countReductionStep(laneDims);
  int64_t perThread = llvm::divideCeil(steps, warps);
  bool single = generic.getBody()->getOps<linalg::IndexOp>().empty();
  auto [iterations, rest] =
      splitSteps(perThread, single ? kColumnUnrollSteps : 1);
  Work share;
  share.add(step, perThread);
  // Each warp stores its shares; the first warp combines the warps'
  // shares and finishes its 32 elements: the output or the epilogue.
  share.add({Space::Shared, 1, 1}, 1, true);
  Work finish;
  finish.add({Space::Shared, 1, 1}, warps, false);
  OpOperand &init = generic.getDpsInitsMutable()[0];
  Space outSpace = getSpace(init.get(), context.views);
  if (epilogue)
    finish.add(countEpilogue(epilogue, laneDims));
  else if (outSpace != Space::Registers)
    finish.add(memoryCost(generic, init, laneDims, outSpace), 1, true);
  int64_t groups = llvm::divideCeil(elements, int64_t(32));
  int64_t perBlock = llvm::divideCeil(groups, context.blocksPerMember);
  double lanes = double(std::min<int64_t>(elements, 32));
  double overhead = kPointOverhead + kIterationOverhead * (iterations + rest);
  WorkCounts counts = total(
      share, double(warps) * perBlock * context.blocksPerMember,
      lanes * warps * perBlock * context.blocksPerMember, overhead, context);
  counts.append(total(finish, double(perBlock) * context.blocksPerMember,
                      lanes * perBlock * context.blocksPerMember,
                      kIterationOverhead * warps, context));
  // Two barriers a group; each group waits for its loads, then the
  // epilogue's.
  counts.barriersPerBlock = 2 * perBlock;
  int64_t chain =
      (step.global ? iterations + rest : 0) + (finish.global ? 1 : 0);
  counts.dependentLoads = perBlock * chain;
  counts.l2DependentLoads = chain ? perBlock * (chain - 1) : 0;
  if (steps > 0) {
    Work loop;
    loop.add(step, single ? kColumnUnrollSteps : 1);
    counts.hotLoops.push_back(
        {int64_t(loop.loads), int64_t(loop.stores), int64_t(loop.ffma),
         int64_t(loop.instructions() + kIterationOverhead), step.global ? 1 : 0,
         perBlock * getHotLoopTrips(iterations, rest)});
  }
  return counts;
}

WorkCounts GenericCounter::countBlockReduction() const {
  // The block (or with byWarps each warp) shares each element's steps:
  // lanes walk the reduction loops.
  auto [elements, steps] = countPointsAndSteps(generic);
  bool byWarps = phase.byWarps;
  int64_t threads = byWarps ? 32 : context.blockThreads;
  int64_t chunks = std::max<int64_t>(phase.chunks, 1);
  int64_t chunkSteps = llvm::divideCeil(steps, chunks);
  SmallVector<SmallVector<int64_t>> laneDims = lanes(reduction, ranges);
  Work step = countReductionStep(laneDims);
  int64_t perThread = llvm::divideCeil(chunkSteps, threads);
  bool single = reduction.size() == 1 &&
                generic.getBody()->getOps<linalg::IndexOp>().empty();
  auto [iterations, rest] = splitSteps(perThread, single ? kUnrollSteps : 1);
  Work share;
  share.add(step, perThread);
  int64_t warps = llvm::divideCeil(std::min(chunkSteps, threads), 32);
  // Thread 0 finishes each element: the output, the epilogue or a partial.
  Work finish;
  SmallVector<SmallVector<int64_t>> one = {SmallVector<int64_t>(ranges.size())};
  OpOperand &init = generic.getDpsInitsMutable()[0];
  Space outSpace = getSpace(init.get(), context.views);
  if (chunks > 1)
    finish.add({Space::Global, 1, 1}, 1, true);
  else if (epilogue)
    finish.add(countEpilogue(epilogue, one));
  else if (outSpace != Space::Registers)
    finish.add(memoryCost(generic, init, one, outSpace), 1, true);
  // Per block: its elements (and chunks) one after another; by warps, each
  // warp's elements one after another.
  int64_t perBlock =
      llvm::divideCeil(elements * chunks, context.blocksPerMember);
  int64_t perWarp =
      llvm::divideCeil(elements, int64_t(context.blockThreads / 32));
  double overhead =
      kPointOverhead + kIterationOverhead * (iterations + rest) +
      (byWarps ? kWarpReduceInstructions : kBlockReduceInstructions);
  WorkCounts counts =
      total(share, double(warps) * perBlock * context.blocksPerMember,
            double(std::min(chunkSteps, threads)) * perBlock *
                context.blocksPerMember,
            overhead, context);
  WorkCounts last =
      total(finish, double(perBlock) * context.blocksPerMember,
            double(perBlock) * context.blocksPerMember, 0, context);
  counts.append(last);
  // Two barriers an element (none by warps); each element waits for its
  // loads, and the epilogue's, before the next.
  counts.barriersPerBlock = byWarps ? 0 : 2 * perBlock;
  int64_t chain =
      (step.global ? iterations + rest : 0) + (finish.global ? 1 : 0);
  int64_t sequential = byWarps ? perWarp : perBlock;
  counts.dependentLoads = sequential * chain;
  counts.l2DependentLoads = chain ? sequential * (chain - 1) : 0;
  // The emitter writes the unrolled loop whenever the reduction is a
  // single loop (the block's threads are known only at run time).
  if (steps > 0) {
    Work loop;
    loop.add(step, single ? kUnrollSteps : 1);
    counts.hotLoops.push_back(
        {int64_t(loop.loads), int64_t(loop.stores), int64_t(loop.ffma),
         int64_t(loop.instructions() + kIterationOverhead), step.global ? 1 : 0,
         sequential * getHotLoopTrips(iterations, rest)});
  }
  return counts;
}
