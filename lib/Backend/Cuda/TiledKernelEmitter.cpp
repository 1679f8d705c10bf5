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

#include "KernelCost.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

llvm::Error KernelEmitter::emitTiledLoop(MemberLoopPlan &plan) {
  KernelConfig &config = plan.config;
  for (auto [phase, ir] : llvm::zip(config.phases, plan.phases)) {
    SmallVector<Operation *> roots = {ir.op};
    if (ir.epilogue)
      roots.push_back(ir.epilogue);
    KernelBuilder kernel = beginKernel(ir.op, "tiled");
    kernel.info.sourceOps = getSourceOps(roots);
    kernel.info.flops = 0;
    for (Operation *root : roots)
      kernel.info.flops += config.members * countFlops(root);
    kernel.info.usesBarriers = phase.kind == PhaseKind::BlockReduction;
    int64_t blocks = config.members * phase.blocksPerMember;
    kernel.launch.grid = {static_cast<unsigned>(blocks), 1, 1};
    kernel.launch.block = {
        phase.kind == PhaseKind::Serial ? 1u : config.threadsPerBlock, 1, 1};
    llvm::raw_string_ostream os(kernel.body);
    std::string perMember = std::to_string(phase.blocksPerMember) + "LL";
    os << "  // Blocks [m * " << phase.blocksPerMember << ", (m + 1) * "
       << phase.blocksPerMember << ") compute member m.\n";
    os << "  long long m = blockIdx.x / " << perMember << ";\n";
    os << "  long long b = blockIdx.x % " << perMember << ";\n";
    if (phase.kind == PhaseKind::Serial) {
      if (llvm::Error failure = bindMemrefs(kernel, ir.op))
        return failure;
      BodyEmitter body(kernel.body, kernel.accesses);
      body.bind(views.memberIndex, "m");
      if (llvm::Error failure = emitCaptured(ir.op, body, 2))
        return failure;
      if (llvm::Error failure = body.emit(ir.op, 2))
        return failure;
    } else {
      auto generic = cast<linalg::GenericOp>(ir.op);
      if (llvm::Error failure = bindFused(kernel, generic, ir.epilogue))
        return failure;
      std::string first = "b * blockDim.x + threadIdx.x";
      std::string step = perMember + " * blockDim.x";
      llvm::Error emitted =
          phase.kind == PhaseKind::BlockReduction
              ? emitBlockReduction(kernel, generic, ir.combiner, "b",
                                   perMember, 2)
          : phase.tile.empty()
              ? emitPoints(kernel, generic, first, step, 2, ir.epilogue)
              : emitTiledPoints(kernel, generic, phase.tile, first, step, 2,
                                ir.epilogue);
      if (emitted)
        return emitted;
    }
    phase.kernel = program.plan.kernels.size();
    finishKernel(kernel);
  }
  return llvm::Error::success();
}
