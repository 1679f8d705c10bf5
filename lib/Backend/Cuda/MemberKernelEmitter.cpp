//===- MemberKernelEmitter.cpp - The kernel of a loop over members --------===//
//
// Writes the kernels of one loop over the members of an ensemble as its
// KernelConfig says (planMemberLoop decides; this file only follows), and
// the one kernel of the member-per-block and members-per-block strategies:
// a block (or, with members-per-block, a warp of it) computes a member,
// running the phases of the loop body one after another, separated by
// barriers; its threads share out the points of each op. The member's
// temporaries live where the config puts them (shared memory, a global
// slice per member, or registers), and each op first copies the operands it
// stages into shared memory.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "PhaseCounts.h"

#include "SharedMemory.h"

#include "ens/Backend/Cuda/KernelConfigAttr.h"
#include "ens/Backend/Cuda/PerfModel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

SmallVector<std::pair<Value, Access>>
KernelEmitter::stageOperands(KernelBuilder &kernel, linalg::GenericOp generic,
                             const PhaseConfig &phase) {
  SmallVector<std::pair<Value, Access>> staged;
  llvm::raw_string_ostream os(kernel.body);
  for (const StagedOperand &operand : phase.staged) {
    Value value = generic->getOperand(operand.operand);
    auto type = cast<MemRefType>(value.getType());
    // The whole view, copied by the block in row-major order.
    std::string name = "staged" + std::to_string(staged.size());
    std::string cType = *getCType(type.getElementType());
    os << "    " << cType << " *" << name << " = (" << cType
       << " *)(ens_shared + " << operand.offset << ");\n";
    os << "    for (long long i = " << kernel.thread << "; i < "
       << type.getNumElements() << "LL; i += " << kernel.threads << ") {\n";
    os << "      long long r_i = i;\n";
    SmallVector<std::string> indices(type.getRank());
    for (int64_t d = type.getRank(); d-- > 0;) {
      indices[d] = "e" + std::to_string(d);
      os << "      long long " << indices[d] << " = r_i";
      if (d)
        os << " % " << type.getDimSize(d) << "; r_i /= " << type.getDimSize(d);
      os << ";\n";
    }
    BodyEmitter body(kernel.body, kernel.accesses);
    os << "      " << name << "[i] = " << body.element(value, indices) << ";\n";
    os << "    }\n";
    staged.push_back({value, kernel.accesses[value]});
    SmallVector<int64_t> strides = getRowMajorStrides(type.getShape());
    kernel.accesses[value] = {name, "0LL", {strides.begin(), strides.end()}};
  }
  if (!staged.empty())
    os << "    " << kernel.getBarrier() << ";\n";
  return staged;
}

llvm::Error KernelEmitter::emitForall(scf::ForallOp forall) {
  // A strategy written on the loop (ens_cuda.kernel_config) comes first,
  // then the one the program asks for.
  llvm::Expected<ConfiguredLoop> configured = readConfiguredLoop(forall);
  if (!configured)
    return configured.takeError();
  if (configured->strategy)
    return emitForallWith(forall, *configured->strategy);
  if (strategy)
    return emitForallWith(forall, *strategy);
  // The model picks: the kernels of each strategy are written, estimated on
  // the target GPU and taken back, and those of the fastest written again. A
  // strategy that cannot write the loop (its temporaries over the buffer
  // limit, say) leaves the pick to the others; the loop fails only if none
  // can, with the first one's error.
  ArrayRef<Strategy> strategies = getAllStrategies();
  SmallVector<std::function<llvm::Error()>> ways;
  for (Strategy candidate : strategies)
    ways.push_back([this, forall, candidate]() -> llvm::Error {
      llvm::Error failure = emitForallWith(forall, candidate);
      if (failure) {
        LLVM_DEBUG(llvm::dbgs() << stringifyStrategy(candidate)
                                << " cannot write the loop\n");
        views.endMemberLoop();
      }
      return failure;
    });
  SmallVector<llvm::function_ref<llvm::Error()>> candidates(ways.begin(),
                                                            ways.end());
  size_t configs = program.configs.size();
  llvm::Expected<Choice> choice = emitCheapest(candidates);
  if (!choice)
    return choice.takeError();
  LLVM_DEBUG({
    llvm::dbgs() << "the model picks "
                 << stringifyStrategy(strategies[choice->best]) << " for "
                 << getSourceOps(forall.getOperation()) << " (" << target.target
                 << ":";
    for (auto [candidate, us] : llvm::zip(strategies, choice->estimatesUs))
      llvm::dbgs() << " " << stringifyStrategy(candidate) << " "
                   << llvm::format("%.1f", us) << " us";
    llvm::dbgs() << ")\n";
  });
  if (program.configs.size() > configs)
    program.configs.back().estimatesUs = std::move(choice->estimatesUs);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitForallWith(scf::ForallOp forall,
                                          Strategy strategy) {
  llvm::Expected<MemberLoopPlan> plan = planMemberLoop(
      forall, strategy, precision, target, program.plan.kernels.size(), fills,
      views, [&](MemRefType type) {
        return addBuffer(type, BufferKind::Temporary, 0);
      });
  if (!plan)
    return plan.takeError();
  if (plan->config.members == 0)
    return llvm::Error::success();
  views.memberIndex = forall.getInductionVar(0);
  // Where the member's temporaries live.
  unsigned numShared = 0;
  for (auto [alloc, temporary] :
       llvm::zip(plan->temporaries, plan->config.temporaries)) {
    Value value = alloc.getResult();
    switch (temporary.space) {
    case MemorySpace::Shared:
      views.sharedName[value] = "t" + std::to_string(numShared++);
      break;
    case MemorySpace::Global:
      views.bufferOf[value] = temporary.location;
      views.memberSlice[value] = alloc.getType().getNumElements();
      break;
    case MemorySpace::Registers:
      break;
    }
  }
  // The results of contractions that fused epilogues consume.
  for (const MemberLoopPlan::Phase &phase : plan->phases)
    if (phase.epilogue)
      views.inRegisters.insert(
          cast<linalg::GenericOp>(phase.op).getDpsInits()[0]);
  llvm::Error emitted = llvm::Error::success();
  switch (plan->config.strategy) {
  case Strategy::MemberPerBlock:
    emitted = emitMemberKernel(forall, *plan);
    break;
  case Strategy::Tiled:
    emitted = emitTiledLoop(*plan);
    break;
  case Strategy::MembersPerBlock:
    emitted = emitMembersPerBlock(forall, *plan);
    break;
  }
  if (emitted)
    return emitted;
  program.configs.push_back(plan->config);
  views.endMemberLoop();
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitMembersPerBlock(scf::ForallOp forall,
                                               MemberLoopPlan &plan) {
  KernelConfig &config = plan.config;
  int64_t slice = config.sharedBytesPerMember;
  // More members per block make fewer, larger blocks: as many warps resident
  // per SM in fewer block slots (32 per SM), which matters when the
  // members' blocks would need several waves, at the price of a coarser
  // last wave and, with shared memory, blocks that fit fewer at a time per
  // SM. The model weighs them. Not tried: blocks past 1024 threads or the
  // shared memory budget, and fewer blocks than the target's SMs (or the
  // members), which would leave SMs idle. Of equal estimates the model
  // keeps the first, so the most members per block come first: fewer
  // blocks to dispatch, a cost it does not count.
  int64_t minBlocks = std::min<int64_t>(config.members, target.smCount);
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
           minBlocks;
       perBlock *= 2)
    counts.insert(counts.begin(), perBlock);
  SmallVector<std::function<llvm::Error()>> ways;
  for (int64_t perBlock : counts) {
    ways.push_back([this, forall, &plan, perBlock, slice]() {
      plan.config.membersPerBlock = perBlock;
      plan.config.threadsPerBlock = perBlock * kWarpSize;
      plan.config.sharedBytes = perBlock * slice;
      return emitMemberKernel(forall, plan);
    });
  }
  SmallVector<llvm::function_ref<llvm::Error()>> candidates(ways.begin(),
                                                            ways.end());
  llvm::Expected<Choice> choice = emitCheapest(candidates);
  if (!choice)
    return choice.takeError();
  LLVM_DEBUG({
    llvm::dbgs() << "the model puts " << counts[choice->best]
                 << " members in a block (" << target.target << ":";
    for (auto [perBlock, us] : llvm::zip(counts, choice->estimatesUs))
      llvm::dbgs() << " " << perBlock << " " << llvm::format("%.1f", us)
                   << " us";
    llvm::dbgs() << ")\n";
  });
  return llvm::Error::success();
}

/// Starts the kernel of a loop over members with the members-per-block
/// strategy: warp w of block b computes member b * P + w with its own slice
/// of shared memory, which the emitters reach as `ens_shared`, as they
/// reach the block's with member-per-block; a warp past the last member
/// returns at once.
static void beginMembersPerBlock(KernelBuilder &kernel,
                                 const KernelConfig &config) {
  kernel.thread = "lane";
  kernel.threads = std::to_string(kWarpSize);
  kernel.warp = true;
  llvm::raw_string_ostream os(kernel.body);
  os << "  // Warp w of block b computes member b * " << config.membersPerBlock
     << " + w; its temporaries live in its slice of shared memory.\n";
  os << "  ENS_DYNAMIC_SHARED(ens_block_shared);\n";
  os << "  long long m = (long long)ens_block * " << config.membersPerBlock
     << "LL + threadIdx.x / " << kWarpSize << ";\n";
  // Its warps synchronize only with __syncwarp(): no barrier waits for a
  // warp that returns.
  os << "  if (m >= " << config.members << "LL) return;\n";
  os << "  unsigned lane = threadIdx.x % " << kWarpSize << ";\n";
  os << "  unsigned char *ens_shared = ens_block_shared + threadIdx.x / "
     << kWarpSize << " * " << config.sharedBytesPerMember << "LL;\n";
}

llvm::Error KernelEmitter::emitMemberKernel(scf::ForallOp forall,
                                            const MemberLoopPlan &plan) {
  const KernelConfig &config = plan.config;
  KernelBuilder kernel = beginKernel(forall.getOperation(), "members");
  kernel.namesBlock = true;
  kernel.info.usesBarriers = true;
  // Each phase waits for its loads before the barrier after it.
  kernel.info.dependentLoadsPerThread = config.phases.size();
  kernel.launch.grid = {static_cast<unsigned>(llvm::divideCeil(
                            config.members, config.membersPerBlock)),
                        1, 1};
  kernel.launch.block = {config.threadsPerBlock, 1, 1};
  kernel.launch.sharedBytes = static_cast<unsigned>(config.sharedBytes);
  llvm::raw_string_ostream os(kernel.body);
  if (config.strategy == Strategy::MembersPerBlock) {
    beginMembersPerBlock(kernel, config);
  } else {
    os << "  // Block m computes member m; its temporaries live in shared "
          "memory.\n";
    os << "  ENS_DYNAMIC_SHARED(ens_shared);\n";
    os << "  long long m = ens_block;\n";
  }
  for (auto [alloc, temporary] :
       llvm::zip(plan.temporaries, config.temporaries)) {
    if (temporary.space != MemorySpace::Shared)
      continue;
    Value value = memref::AllocOp(alloc).getResult();
    std::string cType =
        *getCType(cast<MemRefType>(value.getType()).getElementType());
    os << "  " << cType << " *" << views.sharedName[value] << " = (" << cType
       << " *)(ens_shared + " << temporary.location << ");\n";
  }
  for (auto [i, phase, ir] : llvm::enumerate(config.phases, plan.phases)) {
    if (i)
      os << "  " << kernel.getBarrier() << ";\n";
    if (llvm::Error failure = bindMemrefs(kernel, ir.op))
      return failure;
    os << "  { // " << phase.sourceOps << "\n";
    if (phase.kind == PhaseKind::Serial) {
      os << "    if (" << kernel.thread << " == 0) {\n";
      if (llvm::Error failure = emitInOrder(kernel, ir.op, 6))
        return failure;
      os << "    }\n";
    } else {
      auto generic = cast<linalg::GenericOp>(ir.op);
      if (llvm::Error failure = bindFused(kernel, generic, ir.epilogue))
        return failure;
      SmallVector<std::pair<Value, Access>> staged =
          stageOperands(kernel, generic, phase);
      llvm::Error emitted =
          phase.kind == PhaseKind::BlockReduction
              ? emitBlockReduction(kernel, generic, ir.combiner, "0", "1", 4,
                                   nullptr, ir.epilogue)
              : emitPoints(kernel, generic, kernel.thread, kernel.threads, 4,
                           ir.epilogue, phase.tile);
      for (auto &[value, global] : staged)
        kernel.accesses[value] = global;
      if (emitted)
        return emitted;
    }
    os << "  }\n";
  }
  // What the model counts of the kernel: its phases one after another,
  // each after a barrier.
  unsigned memberThreads = config.strategy == Strategy::MembersPerBlock
                               ? kWarpSize
                               : config.threadsPerBlock;
  PhaseContext context{views,
                       config.strategy,
                       memberThreads,
                       /*blocksPerMember=*/1,
                       memberThreads,
                       config.members};
  WorkCounts counts;
  for (auto [i, phase, ir] : llvm::enumerate(config.phases, plan.phases)) {
    counts.append(countPhase(ir, phase, context));
    counts.barriersPerBlock += i ? 1 : 0;
  }
  counts.store(kernel.info);
  finishKernel(kernel);
  return llvm::Error::success();
}
