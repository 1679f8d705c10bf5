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

#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "ens-cuda-plan"

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
    if (phase.chunks == 1) {
      if (llvm::Error failure =
              emitTiledPhase(phase, ir, config.members, config.threadsPerBlock))
        return failure;
      continue;
    }
    // A split saves time only if its blocks gain more than the second
    // kernel and the partial results cost: the model decides. A split
    // whose partial results would pass the buffer limit is not taken.
    PhaseConfig split = phase, whole = phase;
    whole.chunks = 1;
    whole.blocksPerMember = getBlocksPerMember(cast<linalg::GenericOp>(ir.op),
                                               whole, config.members);
    // clang cannot capture structured bindings in C++17.
    PhaseConfig &written = phase;
    const MemberLoopPlan::Phase &op = ir;
    auto emitAs = [&](const PhaseConfig &way) {
      written = way;
      return emitTiledPhase(written, op, config.members,
                            config.threadsPerBlock);
    };
    auto emitWhole = [&] { return emitAs(whole); };
    auto emitSplit = [&] { return emitAs(split); };
    llvm::Expected<Choice> choice = emitCheapest({emitWhole, emitSplit});
    if (!choice)
      return choice.takeError();
    LLVM_DEBUG(llvm::dbgs()
               << "split " << phase.sourceOps << " in " << split.chunks
               << " chunks: " << llvm::format("%.1f", choice->estimatesUs[1])
               << " us, whole: " << llvm::format("%.1f", choice->estimatesUs[0])
               << " us\n");
  }
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiledPhase(PhaseConfig &phase,
                                          const MemberLoopPlan::Phase &ir,
                                          int64_t members, unsigned threads) {
  SmallVector<Operation *> roots = {ir.op};
  if (ir.epilogue)
    roots.push_back(ir.epilogue);
  phase.kernel = program.plan.kernels.size();
  KernelBuilder kernel = beginKernel(roots, "tiled", members);
  kernel.info.usesBarriers = phase.kind == PhaseKind::BlockReduction;
  beginPhaseKernel(kernel, members, phase.blocksPerMember,
                   phase.kind == PhaseKind::Serial ? 1u : threads);
  std::string perMember = std::to_string(phase.blocksPerMember) + "LL";
  if (phase.kind == PhaseKind::Serial) {
    if (llvm::Error failure = bindMemrefs(kernel, ir.op))
      return failure;
    if (llvm::Error failure = emitInOrder(kernel, ir.op, 2))
      return failure;
    finishKernel(kernel);
    return llvm::Error::success();
  }
  if (phase.chunks > 1)
    return emitSplitPhase(kernel, ir, phase, members);
  auto generic = cast<linalg::GenericOp>(ir.op);
  if (llvm::Error failure = bindFused(kernel, generic, ir.epilogue))
    return failure;
  std::string first = "b * blockDim.x + threadIdx.x";
  std::string step = perMember + " * blockDim.x";
  llvm::Error emitted =
      phase.kind == PhaseKind::BlockReduction
          ? emitBlockReduction(kernel, generic, ir.combiner, "b", perMember, 2)
          : emitPoints(kernel, generic, first, step, 2, ir.epilogue,
                       phase.tile);
  if (emitted)
    return emitted;
  finishKernel(kernel);
  return llvm::Error::success();
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
  finishKernel(kernel);
  // The second combines each element's partial results with the value that
  // its output held or was filled with: a contraction's a thread per
  // element, which also applies the fused epilogue; a block reduction's a
  // block per element.
  SmallVector<Operation *> roots = {generic};
  if (ir.epilogue)
    roots.push_back(ir.epilogue);
  KernelBuilder combine = beginKernel(roots, "tiled", 0);
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
                                     perMemberCombine, 2, &split);
  if (emitted)
    return emitted;
  finishKernel(combine);
  return llvm::Error::success();
}
