//===- LoopChoices.cpp - The model's picks for a loop over members --------===//
//
// Settles a loop over members' config before any of its kernels is
// written, by weighing candidate configs with the performance model
// (CandidateCost.h): with the tiled strategy, whether each planned split of
// a reduction pays, whether a vendor GEMM step or generated kernels compute
// each matrix product, and how many threads per block each launch has;
// with members-per-block, how many members share a block. The emitter then
// writes the config as it is.
//
//===----------------------------------------------------------------------===//

#include "CandidateCost.h"
#include "SharedMemory.h"

#include "ens/Backend/Cuda/KernelConfigAttr.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#include <cmath>

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The estimate of `phase` alone in its launch, or infinite if it cannot
/// be written (its partial results over the buffer limit).
static double estimatePhase(const CandidateCoster &coster,
                            const PhaseConfig &phase,
                            const MemberLoopPlan::Phase &ir, int64_t members) {
  llvm::Expected<std::vector<CandidateKernel>> kernels =
      coster.describeTiledPhase(phase, ir, members);
  if (!kernels) {
    llvm::consumeError(kernels.takeError());
    return INFINITY;
  }
  return coster.estimateUs(*kernels);
}

/// Whether the planner may let the last chunk of a split contraction's tile
/// finish it (PhaseConfig::finishLast): off, every split has its second
/// kernel, so that tests can run that path where the model would not.
static llvm::cl::opt<bool> allowFinishLast(
    "cuda-finish-last", llvm::cl::Hidden,
    llvm::cl::desc("Let the CUDA planner have the last chunk of a split "
                   "contraction's tile add up its chunks, instead of a "
                   "second kernel, where the performance model finds it "
                   "faster (default on)"),
    llvm::cl::init(true));

/// Keeps the split planned for `phase` only if the model estimates it
/// faster than the phase whole: its blocks must gain more than combining
/// the chunks and the partial results cost. With `mayFinishLast`, a
/// contraction's chunks are combined by the chunk that arrives last at
/// each tile, in the same launch, or by a second kernel, whichever the
/// model finds faster. Of equal estimates, whole, then a second kernel.
static void settleSplit(const CandidateCoster &coster, PhaseConfig &phase,
                        const MemberLoopPlan::Phase &ir, int64_t members,
                        bool mayFinishLast) {
  PhaseConfig whole = phase;
  whole.chunks = 1;
  whole.finishLast = false;
  whole.blocksPerMember =
      getBlocksPerMember(cast<linalg::GenericOp>(ir.op), whole, members);
  double wholeUs = estimatePhase(coster, whole, ir, members);
  phase.finishLast = false;
  double splitUs = estimatePhase(coster, phase, ir, members);
  if (mayFinishLast && phase.kind == PhaseKind::Points) {
    PhaseConfig last = phase;
    last.finishLast = true;
    double lastUs = estimatePhase(coster, last, ir, members);
    LLVM_DEBUG(llvm::dbgs() << "last chunk of each tile of " << phase.sourceOps
                            << " finishes it: " << llvm::format("%.1f", lastUs)
                            << " us, a second kernel: "
                            << llvm::format("%.1f", splitUs) << " us\n");
    if (lastUs < splitUs) {
      phase = last;
      splitUs = lastUs;
    }
  }
  LLVM_DEBUG(llvm::dbgs() << "split " << phase.sourceOps << " in "
                          << phase.chunks
                          << " chunks: " << llvm::format("%.1f", splitUs)
                          << " us, whole: " << llvm::format("%.1f", wholeUs)
                          << " us\n");
  if (!(splitUs < wholeUs))
    phase = whole;
}

/// Whether the planner may keep FFMA block tiles (settleBlockTiles): off,
/// every f32 contraction keeps its register tiles, so that tests can run
/// those where the model would pick block tiles.
static llvm::cl::opt<bool> allowBlockTiles(
    "cuda-block-tiles", llvm::cl::Hidden,
    llvm::cl::desc("Let the CUDA planner compute f32 contractions of the "
                   "tiled strategy in shared-memory block tiles where the "
                   "performance model finds them faster (default on)"),
    llvm::cl::init(true));

/// Keeps the FFMA block tiles planned for `phase` only if the full model
/// (with its counts of each kernel, whatever the planner's other picks
/// weigh: the two differ in what the counts see, instructions, wavefronts
/// and L2 re-reads, not in FLOPs or DRAM traffic) estimates them, with the
/// best of the threads per block settleThreads may give them, faster than
/// register tiles, split where settleSplit would split them
/// (`mayFinishLast` as it takes it); of equal estimates, register tiles.
static void settleBlockTiles(const CandidateCoster &planned, PhaseConfig &phase,
                             const MemberLoopPlan::Phase &ir, int64_t members,
                             bool mayFinishLast) {
  CandidateCoster coster = planned;
  coster.withCounts = true;
  auto generic = cast<linalg::GenericOp>(ir.op);
  // Block tiles not allowed: no estimate beats register tiles.
  double blockUs = INFINITY;
  for (unsigned threads = phase.threads;
       allowBlockTiles && threads >= kMinLaunchThreads; threads /= 2) {
    PhaseConfig candidate = phase;
    candidate.threads = threads;
    planMmaStages(candidate.mma, coster.target, threads);
    candidate.blocksPerMember = getBlocksPerMember(generic, candidate, members);
    blockUs = std::min(blockUs, estimatePhase(coster, candidate, ir, members));
  }
  PhaseConfig registers = phase;
  registers.mma = {};
  // With the tiled strategy every operand is in global memory (nothing is
  // staged); the coster's views know where each member's slice starts.
  planConsecutivePoints(generic, registers, coster.views,
                        [](Value) { return true; });
  planSplit(generic, registers, members, getFillBlocks(coster.target));
  registers.blocksPerMember = getBlocksPerMember(generic, registers, members);
  if (registers.chunks > 1)
    settleSplit(planned, registers, ir, members, mayFinishLast);
  double registersUs = estimatePhase(coster, registers, ir, members);
  LLVM_DEBUG(llvm::dbgs() << "FFMA block tiles for " << phase.sourceOps << ": "
                          << llvm::format("%.1f", blockUs)
                          << " us, register tiles: "
                          << llvm::format("%.1f", registersUs) << " us\n");
  if (!(blockUs < registersUs))
    phase = registers;
}

/// Gives each phase of `phases`, which share a launch, `threads` threads
/// per block and the blocks (and tensor-core stages on `target`) that
/// follow from it, each phase's after the one before; an error if they
/// pass what a grid launches.
static llvm::Error setLaunchThreads(MemberLoopPlan &plan,
                                    ArrayRef<unsigned> phases, unsigned threads,
                                    const GpuSpec &target) {
  KernelConfig &config = plan.config;
  int64_t blocks = 0;
  for (unsigned i : phases) {
    PhaseConfig &phase = config.phases[i];
    phase.threads = threads;
    if (phase.mma.blockTiled())
      planMmaStages(phase.mma, target, threads);
    phase.blocksPerMember = getBlocksPerMember(
        cast<linalg::GenericOp>(plan.phases[i].op), phase, config.members);
    phase.firstBlock = blocks;
    blocks += config.members * phase.blocksPerMember;
    if (blocks > INT32_MAX)
      return error("the CUDA backend cannot launch more than 2^31 blocks");
  }
  return llvm::Error::success();
}

/// Whether `phase` computes a contraction in FFMA block tiles.
static bool isFfmaBlockTiled(const PhaseConfig &phase) {
  return phase.mma.blockTiled() && !phase.mma.enabled();
}

/// Gives each phase of `phases` in FFMA block tiles planMma's warp tile.
static void resetWarpTiles(KernelConfig &config, ArrayRef<unsigned> phases) {
  for (unsigned i : phases)
    if (isFfmaBlockTiled(config.phases[i]))
      config.phases[i].mma.warpRows = kFfmaWarpTileRows[0];
}

/// Gives each phase of `phases` in FFMA block tiles, one after another,
/// the rows of warp tile (kFfmaWarpTileRows) with which the full model, as
/// settleBlockTiles weighs block tiles, estimates their launch of
/// `threads` threads per block fastest; of equal estimates, the first.
/// Smaller block tiles give a contraction more blocks for idle SMs at more
/// shared loads per FFMA: only the counts see both.
static llvm::Error settleWarpTiles(const CandidateCoster &planned,
                                   MemberLoopPlan &plan,
                                   ArrayRef<unsigned> phases,
                                   unsigned threads) {
  CandidateCoster coster = planned;
  coster.withCounts = true;
  for (unsigned i : phases) {
    if (!isFfmaBlockTiled(plan.config.phases[i]))
      continue;
    MmaConfig &mma = plan.config.phases[i].mma;
    int64_t bestRows = mma.warpRows;
    double bestUs = INFINITY;
    for (int64_t rows : kFfmaWarpTileRows) {
      mma.warpRows = rows;
      llvm::Error failure =
          setLaunchThreads(plan, phases, threads, coster.target);
      llvm::Expected<std::vector<CandidateKernel>> kernels =
          failure
              ? llvm::Expected<std::vector<CandidateKernel>>(std::move(failure))
              : coster.describeTiledLaunch(plan, phases);
      if (!kernels) {
        llvm::consumeError(kernels.takeError());
        continue;
      }
      double us = coster.estimateUs(*kernels);
      LLVM_DEBUG(llvm::dbgs()
                 << rows << "x" << mma.warpCols << " warp tiles for "
                 << plan.config.phases[i].sourceOps << " in blocks of "
                 << threads << " threads: " << llvm::format("%.1f", us)
                 << " us\n");
      if (us < bestUs) {
        bestRows = rows;
        bestUs = us;
      }
    }
    mma.warpRows = bestRows;
  }
  return setLaunchThreads(plan, phases, threads, coster.target);
}

/// Whether a launch with `phases` keeps the threads its phases were
/// planned with: the kernels of a split phase with a second kernel and a
/// serial phase's one do.
static bool keepsThreads(const KernelConfig &config,
                         ArrayRef<unsigned> phases) {
  return llvm::any_of(phases, [&](unsigned i) {
    return (config.phases[i].chunks > 1 && !config.phases[i].finishLast) ||
           config.phases[i].kind == PhaseKind::Serial;
  });
}

/// Gives the launch of `phases` the threads per block (the plan's, then
/// halves down to kMinLaunchThreads) that the model finds fastest, the
/// first of equals: fewer threads give the phases more blocks, which
/// spread over more SMs, at the price of fewer threads resident per SM to
/// hide latency where blocks are many. Its phases in FFMA block tiles are
/// weighed in planMma's warp tiles, then settleWarpTiles settles theirs
/// for the threads picked. Returns the estimate of the launch.
static llvm::Expected<double> settleThreads(const CandidateCoster &coster,
                                            MemberLoopPlan &plan,
                                            ArrayRef<unsigned> phases) {
  KernelConfig &config = plan.config;
  auto estimate = [&]() -> llvm::Expected<double> {
    llvm::Expected<std::vector<CandidateKernel>> kernels =
        coster.describeTiledLaunch(plan, phases);
    if (!kernels)
      return kernels.takeError();
    return coster.estimateUs(*kernels);
  };
  if (keepsThreads(config, phases))
    return estimate();
  resetWarpTiles(config, phases);
  std::optional<unsigned> best;
  double bestUs = INFINITY;
  llvm::Error firstFailure = llvm::Error::success();
  for (unsigned threads = config.threadsPerBlock; threads >= kMinLaunchThreads;
       threads /= 2) {
    llvm::Error failure =
        setLaunchThreads(plan, phases, threads, coster.target);
    llvm::Expected<double> us =
        failure ? llvm::Expected<double>(std::move(failure)) : estimate();
    if (!us) {
      if (firstFailure)
        llvm::consumeError(us.takeError());
      else
        firstFailure = us.takeError();
      continue;
    }
    if (!best || *us < bestUs) {
      best = threads;
      bestUs = *us;
    }
  }
  if (!best)
    return std::move(firstFailure);
  llvm::consumeError(std::move(firstFailure));
  if (llvm::Error failure = settleWarpTiles(coster, plan, phases, *best))
    return std::move(failure);
  LLVM_DEBUG(llvm::dbgs() << "launch of " << phases.size()
                          << " phases: " << *best << " threads per block\n");
  return estimate();
}

/// Decides whether vendor GEMM step `gemm` computes phase `i` of `plan`
/// instead of generated kernels, as `gemmChoice` says: with `auto`, the
/// faster as the model estimates them (the phase alone in its launch, as
/// planned so far, with its best threads per block; of equal estimates,
/// generated), recorded in `decisions`.
static void settleGemm(const CandidateCoster &coster, MemberLoopPlan &plan,
                       unsigned i, const GemmStep &gemm, GemmChoice gemmChoice,
                       std::vector<GemmDecision> &decisions) {
  PhaseConfig &phase = plan.config.phases[i];
  bool vendor = gemmChoice == GemmChoice::Cublas;
  if (gemmChoice == GemmChoice::Auto) {
    PhaseConfig planned = phase;
    llvm::Expected<double> generatedUs =
        settleThreads(coster, plan, ArrayRef<unsigned>{i});
    phase = planned;
    double generated = INFINITY;
    if (generatedUs)
      generated = *generatedUs;
    else
      llvm::consumeError(generatedUs.takeError());
    double gemmUs = estimateGemm(gemm, coster.target).us;
    LLVM_DEBUG(llvm::dbgs()
               << "vendor GEMM for " << gemm.sourceOps << ": "
               << llvm::format("%.1f", gemmUs) << " us, generated: "
               << llvm::format("%.1f", generated) << " us\n");
    vendor = gemmUs < generated;
    decisions.push_back({gemm.sourceOps, generated, gemmUs, vendor});
  }
  if (vendor) {
    phase.kind = PhaseKind::VendorGemm;
    phase.tile = {};
    phase.mma = {};
    phase.chunks = 1;
  }
}

/// settleTiledPlan, where a contraction's split may be finished by the last
/// chunk of each tile only with `mayFinishLast`.
static llvm::Expected<double>
settleTiledPlanWith(MemberLoopPlan &plan, const CandidateCoster &coster,
                    GemmChoice gemmChoice, std::vector<GemmDecision> &decisions,
                    bool mayFinishLast) {
  KernelConfig &config = plan.config;
  // FFMA block tiles or register tiles, and the splits of these: a phase
  // kept whole, or split into chunks that the last of each tile finishes,
  // may then run beside others, where a split one with a second kernel has
  // launches of its own.
  for (auto [phase, ir] : llvm::zip(config.phases, plan.phases)) {
    if (phase.mma.blockTiled()) {
      // The stages' layouts set their bytes, and so how many fit.
      planBlockTileCopies(cast<linalg::GenericOp>(ir.op), phase.tile, phase.mma,
                          coster.views);
      planMmaStages(phase.mma, coster.target, phase.threads);
    }
    if (isFfmaBlockTiled(phase))
      settleBlockTiles(coster, phase, ir, config.members, mayFinishLast);
    else if (phase.chunks > 1)
      settleSplit(coster, phase, ir, config.members, mayFinishLast);
  }
  // Then the vendor GEMM steps, which have launches of their own. An
  // epilogue fused into a phase would need a kernel of its own after the
  // step; such phases stay generated.
  if (gemmChoice != GemmChoice::Generated)
    for (auto [i, ir] : llvm::enumerate(plan.phases)) {
      auto generic = dyn_cast<linalg::GenericOp>(ir.op);
      if (!generic || ir.epilogue)
        continue;
      if (std::optional<GemmStep> gemm =
              matchGemm(generic, coster.views, coster.fills, config.members))
        settleGemm(coster, plan, i, *gemm, gemmChoice, decisions);
    }
  planTiledLaunches(
      plan, [&](Value memref) { return coster.views.getGlobalBuffer(memref); });
  double totalUs = 0;
  for (ArrayRef<unsigned> phases : getTiledLaunches(config)) {
    if (config.phases[phases[0]].kind == PhaseKind::VendorGemm) {
      std::optional<GemmStep> gemm =
          matchGemm(cast<linalg::GenericOp>(plan.phases[phases[0]].op),
                    coster.views, coster.fills, config.members);
      totalUs += estimateGemm(*gemm, coster.target).us;
      continue;
    }
    llvm::Expected<double> us = settleThreads(coster, plan, phases);
    if (!us)
      return us.takeError();
    totalUs += *us;
  }
  return totalUs;
}

llvm::Expected<double>
cuda::settleTiledPlan(MemberLoopPlan &plan, const CandidateCoster &coster,
                      GemmChoice gemmChoice,
                      std::vector<GemmDecision> &decisions) {
  // Each phase weighs a split that its tiles' last chunks finish alone,
  // where its launch packs it with others: a split register-tiled phase
  // that beats block tiles alone may then lose its launch's packing. The
  // plan is settled with and without such splits, and the faster kept (of
  // equal estimates, without).
  MemberLoopPlan without = plan;
  std::vector<GemmDecision> withoutDecisions = decisions;
  llvm::Expected<double> us = settleTiledPlanWith(
      plan, coster, gemmChoice, decisions, /*mayFinishLast=*/allowFinishLast);
  if (!us || llvm::none_of(plan.config.phases, [](const PhaseConfig &phase) {
        return phase.chunks > 1 && phase.finishLast;
      }))
    return us;
  llvm::Expected<double> withoutUs =
      settleTiledPlanWith(without, coster, gemmChoice, withoutDecisions,
                          /*mayFinishLast=*/false);
  if (!withoutUs)
    return withoutUs.takeError();
  LLVM_DEBUG(llvm::dbgs() << "tiles finished by their last chunks: "
                          << llvm::format("%.1f", *us)
                          << " us, by second kernels: "
                          << llvm::format("%.1f", *withoutUs) << " us\n");
  if (*us < *withoutUs)
    return us;
  plan = std::move(without);
  decisions = std::move(withoutDecisions);
  return withoutUs;
}

SmallVector<SmallVector<unsigned>>
cuda::getTiledLaunches(const KernelConfig &config) {
  SmallVector<SmallVector<unsigned>> launches;
  for (auto [i, phase] : llvm::enumerate(config.phases)) {
    if (launches.size() <= phase.launch)
      launches.resize(phase.launch + 1);
    launches[phase.launch].push_back(i);
  }
  return launches;
}

void cuda::placeTiledPlan(MemberLoopPlan &plan, unsigned firstGemm,
                          int64_t firstBuffer) {
  KernelConfig &config = plan.config;
  unsigned kernel = config.kernel, gemm = firstGemm;
  int64_t buffer = firstBuffer;
  for (ArrayRef<unsigned> phases : getTiledLaunches(config)) {
    PhaseConfig &first = config.phases[phases[0]];
    if (first.kind == PhaseKind::VendorGemm) {
      first.kernel = gemm++;
      continue;
    }
    // A split phase has a buffer of partial results, and a buffer of
    // counters or, alone in its launch, a second kernel.
    for (unsigned i : phases) {
      PhaseConfig &phase = config.phases[i];
      phase.kernel = kernel;
      if (phase.chunks == 1)
        continue;
      phase.partials = buffer++;
      if (phase.finishLast) {
        phase.counters = buffer++;
        continue;
      }
      assert(phases.size() == 1 &&
             "a split with a second kernel has a launch of its own");
      ++kernel;
    }
    ++kernel;
  }
}

llvm::Expected<double>
cuda::settleMembersPerBlock(scf::ForallOp forall, MemberLoopPlan &plan,
                            const CandidateCoster &coster) {
  KernelConfig &config = plan.config;
  int64_t slice = config.sharedBytesPerMember;
  // More members per block make fewer, larger blocks: as many warps resident
  // per SM in fewer block slots (32 per SM), which matters when the
  // members' blocks would need several waves, at the price of a coarser
  // last wave and, with shared memory, blocks that fit fewer at a time per
  // SM. The model weighs them. Not tried: blocks past 1024 threads or the
  // shared memory budget, fewer blocks than the target's SMs (or the
  // members), which would leave SMs idle, and as many blocks as with half
  // the members a block (one member: only warps that return at once
  // would be added). Of equal estimates the model
  // keeps the first, so the most members per block come first: fewer
  // blocks to dispatch, a cost it does not count.
  int64_t minBlocks = std::min<int64_t>(config.members, coster.target.smCount);
  SmallVector<int64_t> counts;
  // Members per block written on the loop are the only ones tried.
  llvm::Expected<ConfiguredLoop> configured = readConfiguredLoop(forall);
  if (!configured)
    return configured.takeError();
  if (configured->membersPerBlock) {
    if (*configured->membersPerBlock * slice > kSharedMemoryBudget)
      return error(kKernelConfigAttrName.str() + ": " +
                   std::to_string(*configured->membersPerBlock) +
                   " members per block need " +
                   std::to_string(*configured->membersPerBlock * slice) +
                   " bytes of shared memory, over the " +
                   std::to_string(kSharedMemoryBudget) + " a block may have");
    counts.push_back(*configured->membersPerBlock);
  }
  for (int64_t perBlock = 1;
       !configured->membersPerBlock &&
       perBlock * kWarpSize <= kMaxBlockThreads &&
       perBlock * slice <= kSharedMemoryBudget &&
       static_cast<int64_t>(llvm::divideCeil(config.members, perBlock)) >=
           minBlocks &&
       (perBlock == 1 || llvm::divideCeil(config.members, perBlock) <
                             llvm::divideCeil(config.members, perBlock / 2));
       perBlock *= 2)
    counts.insert(counts.begin(), perBlock);
  if (counts.empty())
    return error("the CUDA backend cannot fit a member's " +
                 std::to_string(slice) + " bytes of shared memory in a block");
  auto configure = [&](int64_t perBlock) {
    config.membersPerBlock = perBlock;
    config.threadsPerBlock = perBlock * kWarpSize;
    config.sharedBytes = perBlock * slice;
  };
  SmallVector<double> estimates;
  for (int64_t perBlock : counts) {
    configure(perBlock);
    estimates.push_back(
        coster.estimateUs({coster.describeMemberKernel(forall, plan)}));
  }
  size_t best = std::distance(estimates.begin(), llvm::min_element(estimates));
  configure(counts[best]);
  LLVM_DEBUG({
    llvm::dbgs() << "the model puts " << counts[best] << " members in a block ("
                 << coster.target.target << ":";
    for (auto [perBlock, us] : llvm::zip(counts, estimates))
      llvm::dbgs() << " " << perBlock << " " << llvm::format("%.1f", us)
                   << " us";
    llvm::dbgs() << ")\n";
  });
  return estimates[best];
}
