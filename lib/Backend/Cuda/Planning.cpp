//===- Planning.cpp - The CUDA backend's decisions for a loop over members ===//
//
// For a loop over members, decides where each temporary lives, which
// operands each op stages in shared memory, how its contractions unroll and
// split, and which ops share a phase, on top of the decisions per op
// (OpPlanning.cpp). A loop's decisions are recorded in its KernelConfig,
// which emission follows.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "SharedMemory.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// Operands in global memory that a contraction reads at least this many
/// times per element are staged into shared memory...
static constexpr int64_t kMinStagedReuse = 4;
/// ... if they take at most this many bytes.
static constexpr int64_t kMaxStagedBytes = 16 * 1024;

/// The allocation that `memref` is, or is a view of, if it is one of
/// `temporaries`.
static memref::AllocOp
getTemporary(Value memref, const DenseMap<Operation *, unsigned> &temporaries) {
  while (Operation *def = memref.getDefiningOp()) {
    if (temporaries.count(def))
      return cast<memref::AllocOp>(def);
    if (def->getNumOperands() == 0 ||
        !isa<MemRefType>(def->getOperand(0).getType()))
      break;
    memref = def->getOperand(0);
  }
  return nullptr;
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

namespace {
/// Plans one loop over members.
class MemberLoopPlanner {
public:
  MemberLoopPlanner(scf::ForallOp forall, const FoldedFills &fills,
                    const BufferViews &views, Precision precision,
                    const GpuSpec &target)
      : forall(forall), fills(fills), views(views), memberViews(views),
        precision(precision), target(target) {
    memberViews.memberIndex = forall.getInductionVar(0);
  }

  /// Decides which contractions apply their epilogue in registers.
  void planEpilogues();
  /// Places the temporaries in shared or global memory.
  llvm::Error placeTemporaries(
      llvm::function_ref<llvm::Expected<int64_t>(MemRefType)> addBuffer);
  /// Decides how the block computes each op, and what each op stages.
  llvm::Error planPhases();

  MemberLoopPlan plan;

private:
  /// Whether `memref` lives in global memory while the loop runs.
  bool isInGlobalMemory(Value memref) const;
  /// Loads kDeepUnrollSteps steps at a time in the register tiles of
  /// `generic` if its steps read global memory (not staged) and it has
  /// enough of them: in a block per member, whose few warps hide little,
  /// each unrolled iteration is a round trip every thread waits for.
  void planUnroll(linalg::GenericOp generic, PhaseConfig &phase) const;
  /// Stages the operands of `generic` that it reads many times from global
  /// memory, and that fit, into `staging`.
  void planStaging(linalg::GenericOp generic, PhaseConfig &phase,
                   StagingArea &staging) const;
  /// Splits the steps of `generic` within the block where its register
  /// tiles leave threads idle (planBlockSplit), with its partial tiles in
  /// `staging` after the operands it stages; not where they do not fit.
  void planPartials(linalg::GenericOp generic, PhaseConfig &phase,
                    StagingArea &staging) const;
  /// The combiner of `generic` if the loop's blocks share the steps of
  /// its output elements (getBlockCombiner).
  Operation *getCombiner(linalg::GenericOp generic) const {
    switch (plan.config.strategy) {
    case Strategy::MemberPerBlock:
      return getBlockCombiner(generic, ReductionBlocks::One);
    case Strategy::Tiled:
      return getBlockCombiner(generic, ReductionBlocks::OwnPerMember,
                              plan.config.members, getFillBlocks(target));
    case Strategy::MembersPerBlock:
      return getBlockCombiner(generic, ReductionBlocks::Warp);
    }
    llvm_unreachable("unknown strategy");
  }

  scf::ForallOp forall;
  const FoldedFills &fills;
  const BufferViews &views;
  /// The views with this loop's member index, so that they know where each
  /// member's slice of a buffer starts (BufferViews::getPlace).
  BufferViews memberViews;
  /// The precision the program asks contractions for.
  Precision precision;
  /// The GPU the loop is planned for.
  const GpuSpec &target;
  /// The contractions that apply an epilogue, and the position in the loop
  /// body where each op's memory is used: an epilogue's uses happen at its
  /// contraction's position, since the two run as one phase.
  DenseMap<Operation *, linalg::GenericOp> epilogueOf;
  DenseSet<Operation *> epilogues;
  DenseMap<Operation *, unsigned> positionOf;
  /// The position of each temporary in plan.temporaries.
  DenseMap<Operation *, unsigned> temporaryOf;
  /// The bytes of the temporaries in shared memory.
  int64_t temporaryBytes = 0;
};
} // namespace

/// Whether temporary `alloc` in shared memory gets swizzled rows
/// (canSwizzleRows): every op reads and writes it directly, none through a
/// view, whose own strides would not know the swizzle.
static bool planSwizzle(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!canSwizzleRows(type.getShape(), type.getElementTypeBitWidth() / 8) ||
      llvm::any_of(alloc->getUsers(), [](Operation *user) {
        return isa<ViewLikeOpInterface>(user);
      }))
    return false;
  LLVM_DEBUG(llvm::dbgs() << "swizzle the rows of " << type
                          << " in shared memory\n");
  return true;
}

void MemberLoopPlanner::planEpilogues() {
  Block *body = forall.getBody();
  for (auto [position, op] : llvm::enumerate(body->without_terminator()))
    positionOf[&op] = position;
  for (Operation &op : body->without_terminator())
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      if (linalg::GenericOp epilogue =
              getEpilogueInLoop(generic, fills.fills)) {
        epilogueOf[generic] = epilogue;
        epilogues.insert(epilogue);
        positionOf[epilogue] = positionOf[generic];
      }
}

llvm::Error MemberLoopPlanner::placeTemporaries(
    llvm::function_ref<llvm::Expected<int64_t>(MemRefType)> addBuffer) {
  Block *body = forall.getBody();
  // The results of contractions that epilogues consume take no memory.
  DenseSet<Value> inRegisters;
  for (auto [contraction, epilogue] : epilogueOf)
    inRegisters.insert(cast<linalg::GenericOp>(contraction).getDpsInits()[0]);
  SmallVector<LiveRange> ranges;
  SmallVector<unsigned> inMemory;
  for (Operation &op : body->without_terminator()) {
    auto alloc = dyn_cast<memref::AllocOp>(&op);
    if (!alloc)
      continue;
    TemporaryConfig temporary;
    temporary.type = printType(alloc.getType());
    temporaryOf[alloc] = plan.temporaries.size();
    plan.temporaries.push_back(alloc);
    if (inRegisters.contains(alloc.getResult())) {
      temporary.space = MemorySpace::Registers;
      plan.config.temporaries.push_back(std::move(temporary));
      continue;
    }
    MemRefType type = alloc.getType();
    std::optional<DType> dtype = getBufferDType(type.getElementType());
    if (!type.hasStaticShape() || !dtype)
      return error("the CUDA backend needs static buffers of f32, f64, i32 "
                   "or i1");
    temporary.bytes =
        static_cast<int64_t>(type.getNumElements() * getElementSize(*dtype));
    inMemory.push_back(plan.config.temporaries.size());
    ranges.push_back({temporary.bytes, ~0u, 0});
    plan.config.temporaries.push_back(std::move(temporary));
  }
  // Each temporary lives from the first to the last phase that uses it.
  DenseMap<unsigned, unsigned> rangeOf;
  for (auto [range, temporary] : llvm::enumerate(inMemory))
    rangeOf[temporary] = range;
  for (Operation &op : body->without_terminator()) {
    unsigned position = positionOf[&op];
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (isa<MemRefType>(operand.getType()))
          if (memref::AllocOp alloc = getTemporary(operand, temporaryOf)) {
            auto it = rangeOf.find(temporaryOf[alloc]);
            if (it == rangeOf.end())
              continue;
            LiveRange &range = ranges[it->second];
            range.first = std::min(range.first, position);
            range.last = std::max(range.last, position);
          }
    });
  }
  // One that nothing uses needs no memory.
  for (auto [range, temporary] : llvm::zip(ranges, inMemory))
    if (range.first > range.last) {
      range = {0, 0, 0};
      plan.config.temporaries[temporary].bytes = 0;
    }
  // The tiled strategy's phases are kernels of their own: what one phase
  // writes, the next reads from global memory.
  bool inShared = plan.config.strategy != Strategy::Tiled;
  SharedAllocation allocation;
  if (inShared)
    allocation = allocateSharedMemory(ranges);
  else
    allocation.offsets.assign(ranges.size(), std::nullopt);
  temporaryBytes = allocation.peak;
  for (auto [temporary, offset] : llvm::zip(inMemory, allocation.offsets)) {
    TemporaryConfig &config = plan.config.temporaries[temporary];
    if (offset || config.bytes == 0) {
      // One that nothing uses takes no memory anywhere.
      config.space = MemorySpace::Shared;
      config.location = offset.value_or(0);
      config.swizzled =
          config.bytes && planSwizzle(plan.temporaries[temporary]);
      continue;
    }
    // Global memory, one slice per member.
    MemRefType type = plan.temporaries[temporary].getType();
    SmallVector<int64_t> shape = {plan.config.members};
    llvm::append_range(shape, type.getShape());
    llvm::Expected<int64_t> buffer =
        addBuffer(MemRefType::get(shape, type.getElementType()));
    if (!buffer)
      return buffer.takeError();
    LLVM_DEBUG(llvm::dbgs()
               << "temporary " << config.type << " (" << config.bytes
               << " bytes) does not fit in "
               << "shared memory: global buffer " << *buffer << "\n");
    config.space = MemorySpace::Global;
    config.location = *buffer;
  }
  LLVM_DEBUG(llvm::dbgs() << "temporaries take " << temporaryBytes
                          << " bytes of shared memory\n");
  return llvm::Error::success();
}

void MemberLoopPlanner::planUnroll(linalg::GenericOp generic,
                                   PhaseConfig &phase) const {
  SmallVector<unsigned> reduction;
  generic.getReductionDims(reduction);
  if (phase.tile.empty() || reduction.size() != 1 ||
      plan.config.strategy != Strategy::MemberPerBlock)
    return;
  int64_t steps = generic.getStaticLoopRanges()[reduction[0]];
  bool globalSteps =
      llvm::any_of(generic.getDpsInputOperands(), [&](OpOperand *input) {
        return generic.getMatchingIndexingMap(input).isFunctionOfDim(
                   reduction[0]) &&
               isInGlobalMemory(input->get()) &&
               !phase.isStaged(input->getOperandNumber());
      });
  if (!globalSteps || steps < 2 * kDeepUnrollSteps)
    return;
  phase.tile.unroll = kDeepUnrollSteps;
  LLVM_DEBUG(llvm::dbgs() << "load " << kDeepUnrollSteps
                          << " steps at a time in " << phase.sourceOps
                          << ": its steps read global memory\n");
}

void MemberLoopPlanner::planPartials(linalg::GenericOp generic,
                                     PhaseConfig &phase,
                                     StagingArea &staging) const {
  planBlockSplit(generic, phase, plan.config.threadsPerBlock);
  if (phase.chunks == 1)
    return;
  std::optional<int64_t> offset =
      staging.allocate(getBlockSplitBytes(generic, phase));
  if (!offset) {
    LLVM_DEBUG(llvm::dbgs() << "no room for the partial tiles of "
                            << phase.sourceOps << ": not split\n");
    phase.chunks = 1;
    return;
  }
  phase.partials = *offset;
}

bool MemberLoopPlanner::isInGlobalMemory(Value memref) const {
  if (memref::AllocOp alloc = getTemporary(memref, temporaryOf))
    return plan.config.temporaries[temporaryOf.lookup(alloc)].space ==
           MemorySpace::Global;
  return views.getGlobalBuffer(memref).has_value();
}

void MemberLoopPlanner::planStaging(linalg::GenericOp generic,
                                    PhaseConfig &phase,
                                    StagingArea &staging) const {
  staging.beginOp();
  if (generic.getNumReductionLoops() == 0)
    return;
  int64_t iterations = 1;
  for (int64_t range : generic.getStaticLoopRanges())
    iterations *= range;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    Value value = input->get();
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || !type.hasStaticShape() || !isInGlobalMemory(value) ||
        generic.getMatchingBlockArgument(input).use_empty() ||
        llvm::any_of(phase.staged, [&](const StagedOperand &staged) {
          return generic->getOperand(staged.operand) == value;
        }))
      continue;
    std::optional<DType> dtype = getBufferDType(type.getElementType());
    int64_t elements = type.getNumElements();
    if (!dtype || *dtype == DType::I1 || elements == 0 ||
        iterations / elements < kMinStagedReuse)
      continue;
    int64_t bytes = elements * static_cast<int64_t>(getElementSize(*dtype));
    std::optional<int64_t> offset;
    if (bytes <= kMaxStagedBytes)
      offset = staging.allocate(bytes);
    LLVM_DEBUG(llvm::dbgs()
               << (offset ? "stage" : "do not stage") << " operand "
               << input->getOperandNumber() << " of " << phase.sourceOps << " ("
               << bytes << " bytes, read " << iterations / elements
               << " times per element)\n");
    if (!offset)
      continue;
    phase.staged.push_back({input->getOperandNumber(), bytes, *offset});
  }
}

llvm::Error MemberLoopPlanner::planPhases() {
  StagingArea staging(temporaryBytes);
  for (Operation &op : forall.getBody()->without_terminator()) {
    if (fills.fills.contains(&op) || epilogues.contains(&op))
      continue;
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      PhaseConfig phase;
      MemberLoopPlan::Phase ir{generic, epilogueOf.lookup(generic),
                               getCombiner(generic)};
      SmallVector<Operation *> roots = {generic};
      if (ir.epilogue)
        roots.push_back(ir.epilogue);
      phase.sourceOps = getSourceOps(roots);
      phase.fusedEpilogue = static_cast<bool>(ir.epilogue);
      if (ir.combiner) {
        phase.kind = PhaseKind::BlockReduction;
        phase.combiner = ir.combiner->getName().getStringRef().str();
        phase.byWarps = plan.config.strategy == Strategy::MemberPerBlock &&
                        isReducedByWarps(generic);
        LLVM_DEBUG(if (phase.byWarps) llvm::dbgs()
                   << "each warp reduces whole elements of " << phase.sourceOps
                   << "\n");
      }
      if (!ir.combiner) {
        phase.tile = planTile(generic);
        if (plan.config.strategy == Strategy::MemberPerBlock)
          planTallTiles(generic, phase.tile, plan.config.threadsPerBlock);
        phase.mma =
            planMma(generic, phase.tile, precision, plan.config.strategy,
                    target, plan.config.threadsPerBlock);
      }
      if (plan.config.strategy != Strategy::Tiled) {
        planStaging(generic, phase, staging);
        planUnroll(generic, phase);
        if (plan.config.strategy == Strategy::MemberPerBlock)
          planPartials(generic, phase, staging);
      } else {
        phase.threads = plan.config.threadsPerBlock;
        planSplit(generic, phase, plan.config.members, getFillBlocks(target));
        phase.lanesAlongOutputs = phase.kind == PhaseKind::BlockReduction &&
                                  phase.chunks <= 1 &&
                                  readsAcrossOutputs(generic);
        LLVM_DEBUG(if (phase.lanesAlongOutputs) llvm::dbgs()
                   << "lanes along the output elements of " << phase.sourceOps
                   << ", warps along its steps\n");
        phase.blocksPerMember =
            getBlocksPerMember(generic, phase, plan.config.members);
      }
      planConsecutivePoints(generic, phase, memberViews, [&](Value memref) {
        return isInGlobalMemory(memref);
      });
      plan.config.phases.push_back(std::move(phase));
      plan.phases.push_back(ir);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      PhaseConfig phase;
      phase.sourceOps = getSourceOps(loop.getOperation());
      phase.kind = PhaseKind::Serial;
      // With the tiled strategy, a block per member whose thread 0 runs the
      // loop nest.
      phase.blocksPerMember = 1;
      phase.threads = 1;
      plan.config.phases.push_back(std::move(phase));
      plan.phases.push_back({loop, nullptr, nullptr});
      continue;
    }
    if (isa<memref::AllocOp, memref::DeallocOp, memref::SubViewOp,
            memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(
            op) ||
        isScalarOp(&op))
      continue;
    return error("the CUDA backend cannot compile '" +
                 op.getName().getStringRef() + "' in a loop over members yet");
  }
  plan.config.sharedBytes = staging.getSharedBytes(temporaryBytes);
  return llvm::Error::success();
}

llvm::Expected<MemberLoopPlan>
cuda::planMemberLoop(scf::ForallOp forall, Strategy strategy,
                     Precision precision, const GpuSpec &target,
                     unsigned kernel, const FoldedFills &fills,
                     const BufferViews &views,
                     llvm::function_ref<llvm::Expected<int64_t>(MemRefType)>
                         addTemporaryBuffer) {
  if (forall.getRank() != 1 || forall.getStaticLowerBound()[0] != 0 ||
      forall.getStaticStep()[0] != 1 ||
      ShapedType::isDynamic(forall.getStaticUpperBound()[0]))
    return error("the CUDA backend needs loops over members from 0 by 1");
  MemberLoopPlanner planner(forall, fills, views, precision, target);
  KernelConfig &config = planner.plan.config;
  config.kernel = kernel;
  config.strategy = strategy;
  config.members = forall.getStaticUpperBound()[0];
  if (config.members == 0)
    return std::move(planner.plan);
  config.indexBits = planIndexBits(forall);
  if (config.members > INT32_MAX)
    return error("the CUDA backend cannot launch more than 2^31 blocks");
  if (!forall.getTerminator().getYieldingOps().empty())
    return error("the CUDA backend needs a bufferized loop over members");
  // Every op is checked before any is planned or costed.
  for (Operation &op : forall.getBody()->without_terminator())
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      if (llvm::Error failure = checkGeneric(generic))
        return std::move(failure);
  switch (strategy) {
  case Strategy::MemberPerBlock:
  case Strategy::Tiled:
    config.threadsPerBlock = kBlockSize;
    break;
  case Strategy::MembersPerBlock:
    // A warp per member, one member per block until the emitter has the
    // model pick how many share a block.
    config.threadsPerBlock = kWarpSize;
    config.threadsPerMember = kWarpSize;
    break;
  }
  LLVM_DEBUG(llvm::dbgs() << "plan k" << kernel << " ("
                          << getSourceOps(forall.getOperation())
                          << "): " << stringifyStrategy(strategy) << ", "
                          << config.members << " members, "
                          << config.threadsPerBlock << " threads\n");
  planner.planEpilogues();
  if (llvm::Error failure = planner.placeTemporaries(addTemporaryBuffer))
    return std::move(failure);
  if (llvm::Error failure = planner.planPhases())
    return std::move(failure);
  // Each member's slice starts aligned, as every buffer in it does.
  if (strategy == Strategy::MembersPerBlock) {
    config.sharedBytesPerMember =
        llvm::alignTo(config.sharedBytes, kSharedAlignment);
    config.sharedBytes = config.sharedBytesPerMember;
  }
  return std::move(planner.plan);
}
