//===- MemberKernelEmitter.cpp - The kernel of a loop over members --------===//
//
// Plans each loop over the members of an ensemble (planMemberLoop, then
// the performance model's picks of LoopChoices.cpp; with no strategy named,
// a plan per strategy, of which the model keeps the fastest) and writes its
// kernels as the settled KernelConfig says, without deciding anything; and
// writes the one kernel of the member-per-block and members-per-block
// strategies: a block (or, with members-per-block, a warp of it) computes a
// member, running the phases of the loop body one after another, separated by
// barriers; its threads share out the points of each op. The member's
// temporaries live where the config puts them (shared memory, a global
// slice per member, or registers), and each op first copies the operands it
// stages into shared memory.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "ens/Backend/Cuda/KernelConfigAttr.h"
#include "ens/Backend/Cuda/PerfModel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SaveAndRestore.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

SmallVector<std::pair<Value, Access>>
KernelEmitter::stageOperands(KernelBuilder &kernel, linalg::GenericOp generic,
                             const PhaseConfig &phase) {
  SmallVector<std::pair<Value, Access>> staged;
  llvm::raw_string_ostream os(kernel.body);
  bool anyAsync = false;
  for (const StagedOperand &operand : phase.staged) {
    Value value = generic->getOperand(operand.operand);
    auto type = cast<MemRefType>(value.getType());
    // A 4-byte element in global memory is copied asynchronously (cp.async),
    // so that each thread has all its copies in flight behind one wait
    // instead of waiting for each load before its store.
    bool async = isStagedAsynchronously(views, value);
    anyAsync |= async;
    // The whole view, copied by the block in row-major order.
    std::string name = "staged" + std::to_string(staged.size());
    std::string cType = *getCType(type.getElementType());
    os << "    " << cType << " *" << name << " = (" << cType
       << " *)(ens_shared + " << operand.offset << ");\n";
    os << "    for (ens_index i = " << kernel.thread << "; i < "
       << type.getNumElements() << "; i += " << kernel.threads << ") {\n";
    os << "      ens_index r_i = i;\n";
    SmallVector<std::string> indices(type.getRank());
    for (int64_t d = type.getRank(); d-- > 0;) {
      indices[d] = "e" + std::to_string(d);
      os << "      ens_index " << indices[d] << " = r_i";
      if (d)
        os << " % " << type.getDimSize(d) << "; r_i /= " << type.getDimSize(d);
      os << ";\n";
    }
    BodyEmitter body(kernel.body, kernel.accesses);
    if (async)
      os << "      ens_cp_async<4>(&" << name << "[i], &"
         << body.element(value, indices) << ", 4);\n";
    else
      os << "      " << name << "[i] = " << body.element(value, indices)
         << ";\n";
    os << "    }\n";
    staged.push_back({value, kernel.accesses[value]});
    SmallVector<int64_t> strides = getRowMajorStrides(type.getShape());
    kernel.accesses[value] = {name, "0", {strides.begin(), strides.end()}};
  }
  if (anyAsync) {
    os << "    ens_cp_async_commit();\n";
    os << "    ens_cp_async_wait<0>();\n";
  }
  if (!staged.empty())
    os << "    " << kernel.getBarrier() << ";\n";
  return staged;
}

/// Points `views` at where the temporaries of `forall` live as `plan`
/// places them, and at the member index.
static void enterMemberLoop(BufferViews &views, scf::ForallOp forall,
                            const MemberLoopPlan &plan) {
  views.memberIndex = forall.getInductionVar(0);
  unsigned numShared = 0;
  for (auto [temporaryAlloc, temporary] :
       llvm::zip(plan.temporaries, plan.config.temporaries)) {
    memref::AllocOp alloc = temporaryAlloc;
    Value value = alloc.getResult();
    switch (temporary.space) {
    case MemorySpace::Shared:
      views.sharedName[value] = "t" + std::to_string(numShared++);
      if (temporary.swizzled)
        views.swizzled.insert(value);
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
  for (const MemberLoopPlan::Phase &phase : plan.phases)
    if (phase.epilogue)
      views.inRegisters.insert(
          cast<linalg::GenericOp>(phase.op).getDpsInits()[0]);
}

llvm::Expected<KernelEmitter::PlannedLoop>
KernelEmitter::planLoop(scf::ForallOp forall, Strategy strategy) {
  PlannedLoop planned;
  // The plan's global temporaries are added to the program's buffers only
  // if it is written; until then they have the ids they will have.
  int64_t known = program.plan.buffers.size();
  llvm::Expected<MemberLoopPlan> plan = planMemberLoop(
      forall, strategy, precision, target, program.plan.kernels.size(), fills,
      views, [&](MemRefType type) -> llvm::Expected<int64_t> {
        llvm::Expected<BufferInfo> buffer =
            makeBuffer(type, BufferKind::Temporary, 0);
        if (!buffer)
          return buffer.takeError();
        planned.buffers.push_back(std::move(*buffer));
        return known + static_cast<int64_t>(planned.buffers.size()) - 1;
      });
  if (!plan)
    return plan.takeError();
  planned.plan = std::move(*plan);
  if (planned.plan.config.members == 0)
    return std::move(planned);
  BufferViews loopViews = views;
  enterMemberLoop(loopViews, forall, planned.plan);
  auto getBufferBytes = [&](int64_t buffer) {
    return buffer < known ? program.plan.buffers[buffer].bytes
                          : planned.buffers[buffer - known].bytes;
  };
  CandidateCoster coster = getCoster(loopViews, getBufferBytes);
  llvm::Expected<double> us = 0.0;
  switch (strategy) {
  case Strategy::MemberPerBlock:
    us = coster.estimateUs({coster.describeMemberKernel(forall, planned.plan)});
    break;
  case Strategy::Tiled:
    us = settleTiledPlan(planned.plan, coster, gemmChoice,
                         planned.gemmDecisions);
    placeTiledPlan(planned.plan, program.plan.gemms.size(),
                   known + static_cast<int64_t>(planned.buffers.size()));
    break;
  case Strategy::MembersPerBlock:
    us = settleMembersPerBlock(forall, planned.plan, coster);
    break;
  }
  if (!us)
    return us.takeError();
  planned.us = *us;
  return std::move(planned);
}

llvm::Expected<KernelEmitter::PlannedLoop>
KernelEmitter::planForall(scf::ForallOp forall) {
  // A strategy written on the loop (ens_cuda.kernel_config) comes first,
  // then the one the program asks for.
  llvm::Expected<ConfiguredLoop> configured = readConfiguredLoop(forall);
  if (!configured)
    return configured.takeError();
  if (configured->strategy)
    return planLoop(forall, *configured->strategy);
  if (strategy)
    return planLoop(forall, *strategy);
  // The model picks: the loop is planned with each strategy and estimated on
  // the target GPU, and the fastest plan is kept (the first of equals). A
  // strategy that cannot plan the loop (its temporaries over the buffer
  // limit, say) leaves the pick to the others; the loop fails only if none
  // can, with the first one's error.
  ArrayRef<Strategy> strategies = getAllStrategies();
  std::optional<PlannedLoop> best;
  std::vector<double> estimatesUs;
  llvm::Error firstFailure = llvm::Error::success();
  for (Strategy candidate : strategies) {
    llvm::Expected<PlannedLoop> planned = planLoop(forall, candidate);
    if (!planned) {
      LLVM_DEBUG(llvm::dbgs()
                 << stringifyStrategy(candidate) << " cannot write the loop\n");
      estimatesUs.push_back(INFINITY);
      if (firstFailure)
        llvm::consumeError(planned.takeError());
      else
        firstFailure = planned.takeError();
      continue;
    }
    estimatesUs.push_back(planned->us);
    if (!best || planned->us < best->us)
      best = std::move(*planned);
  }
  if (!best)
    return std::move(firstFailure);
  llvm::consumeError(std::move(firstFailure));
  LLVM_DEBUG({
    llvm::dbgs() << "the model picks "
                 << stringifyStrategy(best->plan.config.strategy) << " for "
                 << getSourceOps(forall.getOperation()) << " (" << target.target
                 << ":";
    for (auto [candidate, us] : llvm::zip(strategies, estimatesUs))
      llvm::dbgs() << " " << stringifyStrategy(candidate) << " "
                   << llvm::format("%.1f", us) << " us";
    llvm::dbgs() << ")\n";
  });
  best->plan.config.estimatesUs = std::move(estimatesUs);
  return std::move(*best);
}

llvm::Error KernelEmitter::emitForall(scf::ForallOp forall) {
  llvm::Expected<PlannedLoop> planned = planForall(forall);
  if (!planned)
    return planned.takeError();
  llvm::append_range(program.plan.buffers, std::move(planned->buffers));
  MemberLoopPlan &plan = planned->plan;
  if (plan.config.members == 0)
    return llvm::Error::success();
  enterMemberLoop(views, forall, plan);
  llvm::SaveAndRestore<unsigned> indexBits(loopIndexBits,
                                           plan.config.indexBits);
  llvm::Error emitted = plan.config.strategy == Strategy::Tiled
                            ? emitTiledLoop(plan)
                            : emitMemberKernel(forall, plan);
  if (emitted)
    return emitted;
  llvm::append_range(program.gemmDecisions, planned->gemmDecisions);
  program.configs.push_back(plan.config);
  views.endMemberLoop();
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
  os << "  ens_index m = (ens_index)ens_block * " << config.membersPerBlock
     << " + threadIdx.x / " << kWarpSize << ";\n";
  // Its warps synchronize only with __syncwarp(): no barrier waits for a
  // warp that returns.
  os << "  if (m >= " << config.members << ") return;\n";
  os << "  unsigned lane = threadIdx.x % " << kWarpSize << ";\n";
  os << "  unsigned char *ens_shared = ens_block_shared + threadIdx.x / "
     << kWarpSize << " * " << config.sharedBytesPerMember << ";\n";
}

llvm::Error KernelEmitter::emitWarpReductions(KernelBuilder &kernel,
                                              const MemberLoopPlan::Phase &ir,
                                              const KernelConfig &config) {
  // Warp w reduces elements w, w + W, ... (W warps) as a members-per-block
  // warp reduces all of its member's: its lanes share each element's
  // steps and combine them with shuffles; lane 0 finishes the element.
  llvm::raw_string_ostream os(kernel.body);
  os << "    const unsigned ens_lane = threadIdx.x % " << kWarpSize << ";\n";
  llvm::SaveAndRestore<std::string> thread(kernel.thread, "ens_lane");
  llvm::SaveAndRestore<std::string> threads(kernel.threads,
                                            std::to_string(kWarpSize));
  llvm::SaveAndRestore<bool> warp(kernel.warp, true);
  return emitBlockReduction(kernel, cast<linalg::GenericOp>(ir.op), ir.combiner,
                            "threadIdx.x / " + std::to_string(kWarpSize),
                            std::to_string(config.threadsPerBlock / kWarpSize),
                            4, nullptr, ir.epilogue);
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
    os << "  ens_index m = ens_block;\n";
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
      // A split within the block keeps its partial tiles in shared memory
      // after the operands it stages.
      std::optional<ReductionSplit> split;
      if (phase.chunks > 1) {
        std::string cType =
            *getCType(getElementTypeOrSelf(generic.getDpsInits()[0].getType()));
        os << "    " << cType << " *ens_partials = (" << cType
           << " *)(ens_shared + " << phase.partials << ");\n";
        split = ReductionSplit{phase.chunks, "ens_partials",
                               /*combine=*/false, /*inBlock=*/true};
      }
      llvm::Error emitted =
          phase.byWarps ? emitWarpReductions(kernel, ir, config)
          : phase.kind == PhaseKind::BlockReduction
              ? emitBlockReduction(kernel, generic, ir.combiner, "0", "1", 4,
                                   nullptr, ir.epilogue)
              : emitPoints(kernel, generic, kernel.thread, kernel.threads, 4,
                           ir.epilogue, phase.tile, split ? &*split : nullptr);
      for (auto &[value, global] : staged)
        kernel.accesses[value] = global;
      if (emitted)
        return emitted;
    }
    os << "  }\n";
  }
  storeMemberCounts(kernel.info, views, plan);
  finishKernel(kernel);
  return llvm::Error::success();
}
