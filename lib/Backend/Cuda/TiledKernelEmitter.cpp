//===- TiledKernelEmitter.cpp - The kernels of a tiled loop over members --===//
//
// Writes a loop over the members of an ensemble with the tiled strategy, as
// its KernelConfig says: the phases of the loop body run in launches, one
// after another, and phases planned into one launch (independent ones) run
// side by side in its kernel, each in its own range of blocks. A phase
// gives every member the same number of blocks: its block b computes
// member b / B (B blocks per member); the member's blocks share out the
// phase's points, a register tile of them per thread for a contraction
// that has one, or its output elements, a block each, for a block
// reduction. The member's temporaries live in global memory, one slice per
// member, so that no block waits for another inside a kernel.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "PhaseCounts.h"

#include "KernelCost.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// Starts the body of one phase: the member and the block of it that a
/// block computes, from `block`, the block's number among the phase's, at
/// `indent`; and the launch of the phase alone.
static void beginPhaseKernel(KernelBuilder &kernel, int64_t members,
                             int64_t blocksPerMember, unsigned threads,
                             StringRef block = "blockIdx.x",
                             unsigned indent = 2) {
  kernel.launch.grid = {static_cast<unsigned>(members * blocksPerMember), 1, 1};
  kernel.launch.block = {threads, 1, 1};
  llvm::raw_string_ostream os(kernel.body);
  os.indent(indent) << "// The phase's blocks [m * " << blocksPerMember
                    << ", (m + 1) * " << blocksPerMember
                    << ") compute member m.\n";
  os.indent(indent) << "long long m = " << block << " / " << blocksPerMember
                    << "LL;\n";
  os.indent(indent) << "long long b = " << block << " % " << blocksPerMember
                    << "LL;\n";
}

/// Stores in `info` what the model counts of tiled phase `phase` of
/// `members` members, in blocks of `threads`.
static void storeCounts(KernelInfo &info, const BufferViews &views,
                        const PhaseConfig &phase,
                        const MemberLoopPlan::Phase &ir, int64_t members,
                        unsigned threads) {
  unsigned perBlock = phase.kind == PhaseKind::Serial ? 1u : threads;
  PhaseContext context{views,    Strategy::Tiled,
                       perBlock, phase.blocksPerMember,
                       perBlock, members};
  countPhase(ir, phase, context).store(info);
}

/// The ops that a phase's kernel computes: its op, and the epilogue fused
/// into it.
static SmallVector<Operation *> getPhaseRoots(const MemberLoopPlan::Phase &ir) {
  SmallVector<Operation *> roots = {ir.op};
  if (ir.epilogue)
    roots.push_back(ir.epilogue);
  return roots;
}

llvm::Error KernelEmitter::settleSplits(MemberLoopPlan &plan) {
  KernelConfig &config = plan.config;
  Written before = getWritten();
  for (auto [phase, ir] : llvm::zip(config.phases, plan.phases))
    if (phase.chunks > 1)
      if (llvm::Error failure = emitSplitChoice(phase, ir, config.members,
                                                config.threadsPerBlock))
        return failure;
  takeBackTo(before);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::settleGemms(MemberLoopPlan &plan) {
  KernelConfig &config = plan.config;
  Written before = getWritten();
  SmallVector<GemmDecision> decisions;
  for (auto [i, phase, ir] : llvm::enumerate(config.phases, plan.phases)) {
    // An epilogue fused into the op would need a kernel of its own after
    // the step; such phases stay generated.
    auto generic = dyn_cast<linalg::GenericOp>(ir.op);
    if (!generic || ir.epilogue)
      continue;
    std::optional<GemmStep> gemm =
        matchGemm(generic, views, fills, config.members);
    if (!gemm)
      continue;
    // The phase alone in its launch, as planned so far (split or whole),
    // with the threads per block the model finds fastest for it.
    auto emitGenerated = [&, i = i, &phase = phase] {
      PhaseConfig planned = phase;
      llvm::Error failure = emitTiledLaunchThreads(plan, {unsigned(i)});
      phase = planned;
      return failure;
    };
    std::optional<GemmDecision> decision;
    llvm::Expected<bool> chosen =
        emitGemmChoice(*gemm, emitGenerated, decision);
    if (!chosen)
      return chosen.takeError();
    if (decision)
      decisions.push_back(std::move(*decision));
    if (*chosen) {
      phase.kind = PhaseKind::VendorGemm;
      phase.tile = {};
      phase.chunks = 1;
    }
  }
  takeBackTo(before);
  llvm::append_range(program.gemmDecisions, decisions);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiledLoop(MemberLoopPlan &plan) {
  if (llvm::Error failure = settleSplits(plan))
    return failure;
  if (llvm::Error failure = settleGemms(plan))
    return failure;
  planTiledLaunches(
      plan, [&](Value memref) { return views.getGlobalBuffer(memref); });
  SmallVector<SmallVector<unsigned>> launches;
  for (auto [i, phase] : llvm::enumerate(plan.config.phases)) {
    if (launches.size() <= phase.launch)
      launches.resize(phase.launch + 1);
    launches[phase.launch].push_back(i);
  }
  for (ArrayRef<unsigned> phases : launches)
    if (llvm::Error failure = emitTiledLaunchThreads(plan, phases))
      return failure;
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiledLaunchThreads(MemberLoopPlan &plan,
                                                  ArrayRef<unsigned> phases) {
  KernelConfig &config = plan.config;
  if (config.phases[phases[0]].kind == PhaseKind::VendorGemm) {
    // A step of the plan instead of a kernel (alone in its launch).
    PhaseConfig &phase = config.phases[phases[0]];
    std::optional<GemmStep> gemm =
        matchGemm(cast<linalg::GenericOp>(plan.phases[phases[0]].op), views,
                  fills, config.members);
    phase.kernel = program.plan.gemms.size();
    emitGemm(*gemm);
    return llvm::Error::success();
  }
  // A split phase keeps its kernels' threads, a serial phase its one.
  if (llvm::any_of(phases, [&](unsigned i) {
        return config.phases[i].chunks > 1 ||
               config.phases[i].kind == PhaseKind::Serial;
      }))
    return emitTiledLaunch(plan, phases);
  auto emitWith = [&](unsigned threads) -> llvm::Error {
    int64_t blocks = 0;
    for (unsigned i : phases) {
      PhaseConfig &phase = config.phases[i];
      phase.threads = threads;
      phase.blocksPerMember = getBlocksPerMember(
          cast<linalg::GenericOp>(plan.phases[i].op), phase, config.members);
      phase.firstBlock = blocks;
      blocks += config.members * phase.blocksPerMember;
      if (blocks > INT32_MAX)
        return error("the CUDA backend cannot launch more than 2^31 blocks");
    }
    return emitTiledLaunch(plan, phases);
  };
  // Fewer threads per block give the phases more blocks: a phase whose
  // blocks are fewer than the SMs then spreads over more of them, at the
  // price of fewer threads resident per SM to hide latency where blocks
  // are many. The model weighs the two for the launch as a whole.
  SmallVector<std::function<llvm::Error()>> ways;
  for (unsigned threads = config.threadsPerBlock; threads >= kMinLaunchThreads;
       threads /= 2)
    ways.push_back([&emitWith, threads] { return emitWith(threads); });
  SmallVector<llvm::function_ref<llvm::Error()>> candidates(ways.begin(),
                                                            ways.end());
  llvm::Expected<Choice> choice = emitCheapest(candidates);
  if (!choice)
    return choice.takeError();
  LLVM_DEBUG(llvm::dbgs() << "launch of " << phases.size()
                          << " phases: " << config.phases[phases[0]].threads
                          << " threads per block\n");
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiledLaunch(MemberLoopPlan &plan,
                                           ArrayRef<unsigned> phases) {
  KernelConfig &config = plan.config;
  if (phases.size() == 1)
    return emitTiledPhase(config.phases[phases[0]], plan.phases[phases[0]],
                          config.members, config.phases[phases[0]].threads);
  // One kernel whose blocks branch to their phase's body.
  KernelBuilder launch = beginKernel({}, "tiled");
  launch.info.sourceOps.clear();
  launch.namesBlock = true;
  SideBySide sides;
  llvm::raw_string_ostream os(launch.body);
  for (auto [position, i] : llvm::enumerate(phases)) {
    PhaseConfig &phase = config.phases[i];
    const MemberLoopPlan::Phase &ir = plan.phases[i];
    KernelBuilder section =
        beginKernel(getPhaseRoots(ir), "tiled", config.members);
    std::string block =
        phase.firstBlock
            ? "(ens_block - " + std::to_string(phase.firstBlock) + "u)"
            : "ens_block";
    if (llvm::Error failure =
            writeTiledPhase(section, phase, ir, config.members, phase.threads,
                            block, /*indent=*/4))
      return failure;
    storeCounts(section.info, views, phase, ir, config.members, phase.threads);
    int64_t end = phase.firstBlock + section.launch.grid[0];
    if (position == 0)
      os << "  if (ens_block < " << end << "u) {\n";
    else if (position + 1 < phases.size())
      os << "  } else if (ens_block < " << end << "u) {\n";
    else
      os << "  } else {\n";
    os << section.body;
    addSection(launch, section, sides);
  }
  os << "  }\n";
  for (unsigned i : phases)
    config.phases[i].kernel = program.plan.kernels.size();
  LLVM_DEBUG(llvm::dbgs() << "one launch runs " << phases.size()
                          << " independent phases: " << launch.info.sourceOps
                          << "\n");
  finishSideBySide(launch, sides);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiledPhase(PhaseConfig &phase,
                                          const MemberLoopPlan::Phase &ir,
                                          int64_t members, unsigned threads) {
  if (phase.chunks > 1)
    return emitSplitChoice(phase, ir, members, threads);
  phase.kernel = program.plan.kernels.size();
  KernelBuilder kernel = beginKernel(getPhaseRoots(ir), "tiled", members);
  kernel.namesBlock = true;
  if (llvm::Error failure = writeTiledPhase(kernel, phase, ir, members, threads,
                                            "ens_block", /*indent=*/2))
    return failure;
  storeCounts(kernel.info, views, phase, ir, members, threads);
  finishKernel(kernel);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitSplitChoice(PhaseConfig &phase,
                                           const MemberLoopPlan::Phase &ir,
                                           int64_t members, unsigned threads) {
  // A split saves time only if its blocks gain more than the second
  // kernel and the partial results cost: the model decides. A split
  // whose partial results would pass the buffer limit is not taken.
  PhaseConfig split = phase, whole = phase;
  whole.chunks = 1;
  whole.blocksPerMember =
      getBlocksPerMember(cast<linalg::GenericOp>(ir.op), whole, members);
  auto emitAs = [&](const PhaseConfig &way) -> llvm::Error {
    phase = way;
    if (way.chunks == 1)
      return emitTiledPhase(phase, ir, members, threads);
    phase.kernel = program.plan.kernels.size();
    KernelBuilder kernel = beginKernel(getPhaseRoots(ir), "tiled", members);
    kernel.info.usesBarriers = phase.kind == PhaseKind::BlockReduction;
    beginPhaseKernel(kernel, members, phase.blocksPerMember, threads);
    return emitSplitPhase(kernel, ir, phase, members);
  };
  auto emitWhole = [&] { return emitAs(whole); };
  auto emitSplit = [&] { return emitAs(split); };
  llvm::Expected<Choice> choice = emitCheapest({emitWhole, emitSplit});
  if (!choice)
    return choice.takeError();
  LLVM_DEBUG(llvm::dbgs() << "split " << phase.sourceOps << " in "
                          << split.chunks << " chunks: "
                          << llvm::format("%.1f", choice->estimatesUs[1])
                          << " us, whole: "
                          << llvm::format("%.1f", choice->estimatesUs[0])
                          << " us\n");
  return llvm::Error::success();
}

llvm::Error KernelEmitter::writeTiledPhase(KernelBuilder &kernel,
                                           PhaseConfig &phase,
                                           const MemberLoopPlan::Phase &ir,
                                           int64_t members, unsigned threads,
                                           StringRef block, unsigned indent) {
  kernel.info.usesBarriers = phase.kind == PhaseKind::BlockReduction;
  beginPhaseKernel(kernel, members, phase.blocksPerMember,
                   phase.kind == PhaseKind::Serial ? 1u : threads, block,
                   indent);
  std::string perMember = std::to_string(phase.blocksPerMember) + "LL";
  if (phase.kind == PhaseKind::Serial) {
    if (llvm::Error failure = bindMemrefs(kernel, ir.op))
      return failure;
    return emitInOrder(kernel, ir.op, indent);
  }
  auto generic = cast<linalg::GenericOp>(ir.op);
  if (llvm::Error failure = bindFused(kernel, generic, ir.epilogue))
    return failure;
  if (phase.mma.enabled()) {
    // The contraction's multiply-adds are tensor-core FLOPs, not fmaf.
    kernel.info.tensorFlops = members * countFlops(generic);
    kernel.info.fmaFlops -= members * countFmaFlops(generic);
    kernel.info.tensorPasses = phase.mma.precision == Precision::Tf32x3 ? 3 : 1;
    return emitPoints(kernel, generic, "b", perMember, indent, ir.epilogue,
                      phase.tile, nullptr, &phase);
  }
  std::string first = "b * blockDim.x + threadIdx.x";
  std::string step = perMember + " * blockDim.x";
  return phase.kind == PhaseKind::BlockReduction
             ? emitBlockReduction(kernel, generic, ir.combiner, "b", perMember,
                                  indent, nullptr, ir.epilogue)
             : emitPoints(kernel, generic, first, step, indent, ir.epilogue,
                          phase.tile);
}

llvm::Error KernelEmitter::emitSplitPhase(KernelBuilder &kernel,
                                          const MemberLoopPlan::Phase &ir,
                                          PhaseConfig &phase, int64_t members) {
  auto generic = cast<linalg::GenericOp>(ir.op);
  Operation *combiner = getReductionCombiner(generic);
  Type type = combiner->getResult(0).getType();
  bool contraction = phase.kind == PhaseKind::Points;
  int64_t elements = countPointsAndSteps(generic).first;
  std::string perMember = std::to_string(phase.blocksPerMember) + "LL";
  llvm::Expected<int64_t> partials =
      addBuffer(MemRefType::get({members, elements, phase.chunks}, type),
                BufferKind::Temporary, 0);
  if (!partials)
    return partials.takeError();
  phase.partials = *partials;
  // The first pass writes the partial result of each chunk of steps of
  // each output element: a block reduction's block b of a member computes
  // chunk b % chunks of element b / chunks; a contraction's threads compute
  // chunk c of their register tiles.
  if (llvm::Error failure = bindMemrefs(kernel, generic))
    return failure;
  ReductionSplit split{phase.chunks, kernel.bindParam(phase.partials, type),
                       /*combine=*/false};
  kernel.written.clear();
  kernel.written.insert(phase.partials);
  llvm::Error emitted =
      contraction ? emitPoints(kernel, generic, "b * blockDim.x + threadIdx.x",
                               perMember + " * blockDim.x", 2, nullptr,
                               phase.tile, &split)
                  : emitBlockReduction(kernel, generic, combiner, "b",
                                       perMember, 2, &split);
  if (emitted)
    return emitted;
  storeCounts(kernel.info, views, phase, ir, members, kernel.launch.block[0]);
  finishKernel(kernel);
  // The second combines each element's partial results with the value that
  // its output held or was filled with: a contraction's a thread per
  // element, which also applies the fused epilogue; a block reduction's a
  // block per element.
  KernelBuilder combine = beginKernel(getPhaseRoots(ir), "tiled", 0);
  if (ir.epilogue)
    combine.info.flops = members * countFlops(ir.epilogue);
  combine.info.usesBarriers = !contraction;
  int64_t blocks =
      contraction ? llvm::divideCeil(elements, kBlockSize) : elements;
  beginPhaseKernel(combine, members, blocks, kBlockSize);
  if (llvm::Error failure = bindFused(combine, generic, ir.epilogue))
    return failure;
  // It reads the partial results, and the output unless a fill was folded
  // into it, and the epilogue's other inputs.
  OpOperand &output = generic.getDpsInitsMutable()[0];
  for (OpOperand *input : generic.getDpsInputOperands())
    if (std::optional<int64_t> buffer = views.getGlobalBuffer(input->get()))
      combine.read.remove(*buffer);
  combine.read.insert(phase.partials);
  if (!fills.filledWith.lookup(&output))
    if (std::optional<int64_t> buffer = views.getGlobalBuffer(output.get()))
      combine.read.insert(*buffer);
  split.partials = combine.bindParam(phase.partials, type);
  split.combine = true;
  std::string perMemberCombine = std::to_string(blocks) + "LL";
  emitted = contraction
                ? emitPoints(combine, generic, "b * blockDim.x + threadIdx.x",
                             perMemberCombine + " * blockDim.x", 2, ir.epilogue,
                             {}, &split)
                : emitBlockReduction(combine, generic, combiner, "b",
                                     perMemberCombine, 2, &split, ir.epilogue);
  if (emitted)
    return emitted;
  PhaseContext context{views,  Strategy::Tiled, kBlockSize,
                       blocks, kBlockSize,      members};
  countSplitCombine(ir, phase, context).store(combine.info);
  finishKernel(combine);
  return llvm::Error::success();
}
