//===- TiledKernelEmitter.cpp - The kernels of a tiled loop over members --===//
//
// Writes a loop over the members of an ensemble with the tiled strategy, as
// its KernelConfig says: each phase of the loop body becomes a kernel of
// its own, launched after the previous one, whose grid gives every member
// the same number of blocks. Block b computes member b / B (B blocks per
// member); the member's blocks share out the phase's points, a register
// tile of them per thread for a contraction that has one, or its output
// elements, a block each, for a block reduction. The member's temporaries
// live in global memory, one slice per member, so that no block waits for
// another inside a kernel.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// Starts the kernel of one phase: the member and the block of it that a
/// block computes.
static void beginPhaseKernel(KernelBuilder &kernel, int64_t members,
                             int64_t blocksPerMember, unsigned threads) {
  kernel.launch.grid = {static_cast<unsigned>(members * blocksPerMember), 1, 1};
  kernel.launch.block = {threads, 1, 1};
  llvm::raw_string_ostream os(kernel.body);
  os << "  // Blocks [m * " << blocksPerMember << ", (m + 1) * "
     << blocksPerMember << ") compute member m.\n";
  os << "  long long m = blockIdx.x / " << blocksPerMember << "LL;\n";
  os << "  long long b = blockIdx.x % " << blocksPerMember << "LL;\n";
}

llvm::Error KernelEmitter::emitTiledLoop(MemberLoopPlan &plan) {
  KernelConfig &config = plan.config;
  for (auto [phase, ir] : llvm::zip(config.phases, plan.phases)) {
    SmallVector<Operation *> roots = {ir.op};
    if (ir.epilogue)
      roots.push_back(ir.epilogue);
    phase.kernel = program.plan.kernels.size();
    KernelBuilder kernel = beginKernel(roots, "tiled", config.members);
    kernel.info.usesBarriers = phase.kind == PhaseKind::BlockReduction;
    beginPhaseKernel(kernel, config.members, phase.blocksPerMember,
                     phase.kind == PhaseKind::Serial ? 1u
                                                     : config.threadsPerBlock);
    std::string perMember = std::to_string(phase.blocksPerMember) + "LL";
    if (phase.kind == PhaseKind::Serial) {
      if (llvm::Error failure = bindMemrefs(kernel, ir.op))
        return failure;
      if (llvm::Error failure = emitInOrder(kernel, ir.op, 2))
        return failure;
      finishKernel(kernel);
      continue;
    }
    auto generic = cast<linalg::GenericOp>(ir.op);
    if (llvm::Error failure = bindFused(kernel, generic, ir.epilogue))
      return failure;
    if (phase.kind == PhaseKind::BlockReduction && phase.chunks > 1) {
      if (llvm::Error failure =
              emitSplitReduction(kernel, ir, phase, config.members))
        return failure;
      continue;
    }
    std::string first = "b * blockDim.x + threadIdx.x";
    std::string step = perMember + " * blockDim.x";
    llvm::Error emitted = phase.kind == PhaseKind::BlockReduction
                              ? emitBlockReduction(kernel, generic, ir.combiner,
                                                   "b", perMember, 2)
                              : emitPoints(kernel, generic, first, step, 2,
                                           ir.epilogue, phase.tile);
    if (emitted)
      return emitted;
    finishKernel(kernel);
  }
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitSplitReduction(KernelBuilder &kernel,
                                              const MemberLoopPlan::Phase &ir,
                                              const PhaseConfig &phase,
                                              int64_t members) {
  auto generic = cast<linalg::GenericOp>(ir.op);
  Type type = ir.combiner->getResult(0).getType();
  int64_t elements = phase.blocksPerMember / phase.chunks;
  std::string perMember = std::to_string(phase.blocksPerMember) + "LL";
  // The first pass: block b of a member computes share b % chunks of
  // element b / chunks. Its output is the shares.
  ReductionSplit split{phase.chunks, kernel.bindParam(phase.partials, type),
                       /*combine=*/false};
  kernel.written.clear();
  kernel.written.insert(phase.partials);
  if (llvm::Error failure = emitBlockReduction(kernel, generic, ir.combiner,
                                               "b", perMember, 2, &split))
    return failure;
  finishKernel(kernel);
  // The second: a block per element combines its shares, and the value
  // that the output held or was filled with.
  KernelBuilder combine = beginKernel(generic.getOperation(), "tiled", 0);
  combine.info.usesBarriers = true;
  beginPhaseKernel(combine, members, elements, kBlockSize);
  if (llvm::Error failure = bindMemrefs(combine, generic))
    return failure;
  // It reads the shares, and the output unless a fill was folded into it.
  OpOperand &output = generic.getDpsInitsMutable()[0];
  combine.read.clear();
  combine.read.insert(phase.partials);
  if (!fills.filledWith.lookup(&output))
    if (std::optional<int64_t> buffer = views.getGlobalBuffer(output.get()))
      combine.read.insert(*buffer);
  split.partials = combine.bindParam(phase.partials, type);
  split.combine = true;
  if (llvm::Error failure =
          emitBlockReduction(combine, generic, ir.combiner, "b",
                             std::to_string(elements) + "LL", 2, &split))
    return failure;
  finishKernel(combine);
  return llvm::Error::success();
}
