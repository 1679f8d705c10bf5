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

#include "CandidateCost.h"
#include "KernelCost.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

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
  os.indent(indent) << "ens_index m = " << block << " / " << blocksPerMember
                    << ";\n";
  os.indent(indent) << "ens_index b = " << block << " % " << blocksPerMember
                    << ";\n";
}

/// The ops that a phase's kernel computes: its op, and the epilogue fused
/// into it.
static SmallVector<Operation *> getPhaseRoots(const MemberLoopPlan::Phase &ir) {
  SmallVector<Operation *> roots = {ir.op};
  if (ir.epilogue)
    roots.push_back(ir.epilogue);
  return roots;
}

llvm::Error KernelEmitter::emitTiledLoop(const MemberLoopPlan &plan) {
  const KernelConfig &config = plan.config;
  for (ArrayRef<unsigned> phases : getTiledLaunches(config)) {
    const PhaseConfig &phase = config.phases[phases[0]];
    if (phase.kind != PhaseKind::VendorGemm) {
      if (llvm::Error failure = emitTiledLaunch(plan, phases))
        return failure;
      continue;
    }
    // A step of the plan instead of a kernel (alone in its launch).
    std::optional<GemmStep> gemm =
        matchGemm(cast<linalg::GenericOp>(plan.phases[phases[0]].op), views,
                  fills, config.members);
    emitGemm(*gemm);
  }
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiledLaunch(const MemberLoopPlan &plan,
                                           ArrayRef<unsigned> phases) {
  const KernelConfig &config = plan.config;
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
    const PhaseConfig &phase = config.phases[i];
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
    storeTiledCounts(section.info, views, phase, ir, config.members,
                     phase.threads);
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
  LLVM_DEBUG(llvm::dbgs() << "one launch runs " << phases.size()
                          << " independent phases: " << launch.info.sourceOps
                          << "\n");
  finishSideBySide(launch, sides);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiledPhase(const PhaseConfig &phase,
                                          const MemberLoopPlan::Phase &ir,
                                          int64_t members, unsigned threads) {
  KernelBuilder kernel = beginKernel(getPhaseRoots(ir), "tiled", members);
  if (phase.chunks > 1 && !phase.finishLast) {
    kernel.info.usesBarriers = phase.kind == PhaseKind::BlockReduction;
    beginPhaseKernel(kernel, members, phase.blocksPerMember, threads);
    return emitSplitPhase(kernel, ir, phase, members);
  }
  kernel.namesBlock = true;
  if (llvm::Error failure = writeTiledPhase(kernel, phase, ir, members, threads,
                                            "ens_block", /*indent=*/2))
    return failure;
  storeTiledCounts(kernel.info, views, phase, ir, members, threads);
  finishKernel(kernel);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::writeTiledPhase(KernelBuilder &kernel,
                                           const PhaseConfig &phase,
                                           const MemberLoopPlan::Phase &ir,
                                           int64_t members, unsigned threads,
                                           StringRef block, unsigned indent) {
  kernel.info.usesBarriers = phase.kind == PhaseKind::BlockReduction;
  beginPhaseKernel(kernel, members, phase.blocksPerMember,
                   phase.kind == PhaseKind::Serial ? 1u : threads, block,
                   indent);
  std::string perMember = std::to_string(phase.blocksPerMember);
  if (phase.kind == PhaseKind::Serial) {
    if (llvm::Error failure = bindMemrefs(kernel, ir.op))
      return failure;
    return emitInOrder(kernel, ir.op, indent);
  }
  auto generic = cast<linalg::GenericOp>(ir.op);
  if (llvm::Error failure = bindFused(kernel, generic, ir.epilogue))
    return failure;
  if (phase.mma.blockTiled()) {
    if (phase.mma.enabled()) {
      // The contraction's multiply-adds are tensor-core FLOPs, not fmaf.
      kernel.info.tensorFlops = members * countFlops(generic);
      kernel.info.fmaFlops -= members * countFmaFlops(generic);
      kernel.info.tensorPasses =
          phase.mma.precision == Precision::Tf32x3 ? 3 : 1;
    }
    return emitPoints(kernel, generic, "b", perMember, indent, ir.epilogue,
                      phase.tile, nullptr, &phase);
  }
  std::string first = "b * blockDim.x + threadIdx.x";
  std::string step = perMember + " * blockDim.x";
  if (phase.chunks > 1) {
    llvm::Expected<ReductionSplit> split =
        bindFinishLast(kernel, phase, generic, members);
    if (!split)
      return split.takeError();
    return emitPoints(kernel, generic, first, step, indent, ir.epilogue,
                      phase.tile, &*split);
  }
  return phase.kind == PhaseKind::BlockReduction
             ? emitBlockReduction(kernel, generic, ir.combiner, "b", perMember,
                                  indent, nullptr, ir.epilogue,
                                  phase.lanesAlongOutputs)
             : emitPoints(kernel, generic, first, step, indent, ir.epilogue,
                          phase.tile);
}

llvm::Error KernelEmitter::addPlannedBuffer(MemRefType type, BufferKind kind,
                                            std::vector<uint8_t> init,
                                            int64_t planned, StringRef what,
                                            const PhaseConfig &phase) {
  llvm::Expected<int64_t> buffer = addBuffer(type, kind, 0, std::move(init));
  if (!buffer)
    return buffer.takeError();
  if (*buffer != planned)
    return error("the CUDA backend planned buffer " + std::to_string(planned) +
                 " for the " + what.str() + " of '" + phase.sourceOps +
                 "', not " + std::to_string(*buffer));
  return llvm::Error::success();
}

llvm::Error KernelEmitter::addPartials(const PhaseConfig &phase,
                                       linalg::GenericOp generic,
                                       int64_t members) {
  Type type = getReductionCombiner(generic)->getResult(0).getType();
  int64_t elements = countPointsAndSteps(generic).first;
  return addPlannedBuffer(
      MemRefType::get({members, elements, phase.chunks}, type),
      BufferKind::Temporary, {}, phase.partials, "partial results", phase);
}

llvm::Expected<KernelEmitter::ReductionSplit>
KernelEmitter::bindFinishLast(KernelBuilder &kernel, const PhaseConfig &phase,
                              linalg::GenericOp generic, int64_t members) {
  // The chunks' partial results, which the last chunk of each tile reads
  // back, and a counter per tile in a buffer of zeros that the kernel
  // leaves zero.
  if (llvm::Error failure = addPartials(phase, generic, members))
    return std::move(failure);
  int64_t counters = members * countTiles(generic, phase.tile);
  if (llvm::Error failure = addPlannedBuffer(
          MemRefType::get({counters},
                          IntegerType::get(generic.getContext(), 32)),
          BufferKind::Constant, std::vector<uint8_t>(counters * 4, 0),
          phase.counters, "counters", phase))
    return std::move(failure);
  Type type = getReductionCombiner(generic)->getResult(0).getType();
  ReductionSplit split{phase.chunks, kernel.bindParam(phase.partials, type),
                       /*combine=*/false};
  split.counters = kernel.bindParam(phase.counters, "unsigned *");
  kernel.read.insert(phase.partials);
  kernel.read.insert(phase.counters);
  kernel.written.insert(phase.partials);
  kernel.written.insert(phase.counters);
  return split;
}

llvm::Error KernelEmitter::emitSplitPhase(KernelBuilder &kernel,
                                          const MemberLoopPlan::Phase &ir,
                                          const PhaseConfig &phase,
                                          int64_t members) {
  auto generic = cast<linalg::GenericOp>(ir.op);
  Operation *combiner = getReductionCombiner(generic);
  Type type = combiner->getResult(0).getType();
  bool contraction = phase.kind == PhaseKind::Points;
  int64_t elements = countPointsAndSteps(generic).first;
  std::string perMember = std::to_string(phase.blocksPerMember);
  if (llvm::Error failure = addPartials(phase, generic, members))
    return failure;
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
  storeTiledCounts(kernel.info, views, phase, ir, members,
                   kernel.launch.block[0]);
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
  std::string perMemberCombine = std::to_string(blocks);
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
