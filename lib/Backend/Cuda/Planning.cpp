//===- Planning.cpp - The CUDA backend's GPU decisions --------------------===//
//
// Decides how each op runs before any kernel is written: which fills fold
// into their consumer, which elementwise ops run as a contraction's
// epilogue in registers, which reductions a block shares among its threads,
// and, for a loop over members, where each temporary lives and which
// operands each op stages in shared memory. A loop's decisions are recorded
// in its KernelConfig, which emission follows.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "SharedMemory.h"

#include "ens/Support/Escape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// What combining the shares of a block costs, in steps of a reduction
/// loop: two barriers and ten warp shuffles.
static constexpr int64_t kBlockCombineCost = 12;
/// The same for a warp's threads: five shuffles.
static constexpr int64_t kWarpCombineCost = 5;

/// Operands in global memory that a contraction reads at least this many
/// times per element are staged into shared memory...
static constexpr int64_t kMinStagedReuse = 4;
/// ... if they take at most this many bytes.
static constexpr int64_t kMaxStagedBytes = 16 * 1024;

std::pair<int64_t, int64_t>
cuda::countPointsAndSteps(linalg::GenericOp generic) {
  int64_t points = 1, steps = 1;
  for (auto [range, iterator] : llvm::zip(generic.getStaticLoopRanges(),
                                          generic.getIteratorTypesArray()))
    (iterator == utils::IteratorType::parallel ? points : steps) *= range;
  return {points, steps};
}

bool cuda::isScalarOp(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op) &&
         llvm::none_of(op->getResultTypes(),
                       [](Type type) { return isa<MemRefType>(type); });
}

Operation *cuda::getNextComputeOp(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && (isa<memref::SubViewOp, memref::CollapseShapeOp,
                      memref::ExpandShapeOp, memref::AllocOp>(next) ||
                  isScalarOp(next)))
    next = next->getNextNode();
  return next;
}

std::string cuda::getSourceOps(ArrayRef<Operation *> roots) {
  llvm::SetVector<StringRef> names;
  for (Operation *root : roots)
    root->walk([&](Operation *op) {
      op->getLoc()->walk([&](Location inner) {
        if (auto name = dyn_cast<NameLoc>(inner))
          if (name.getName().getValue().starts_with("ens."))
            names.insert(name.getName().getValue());
        return WalkResult::advance();
      });
    });
  // Locations are input text: escaped, a crafted name stays in the comment.
  return names.empty()
             ? std::string("(no ens op)")
             : escapeForComment(llvm::join(names.getArrayRef(), ", "));
}

llvm::Error cuda::checkGeneric(linalg::GenericOp generic) {
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return error("the CUDA backend needs static loop ranges");
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (AffineMap map : ArrayRef(maps).drop_front(generic.getNumDpsInputs()))
    for (auto [d, iterator] : llvm::enumerate(generic.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::parallel && !map.isFunctionOfDim(d))
        return error("the CUDA backend cannot compile a linalg.generic whose "
                     "output does not depend on every parallel loop");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Fills, epilogues and block reductions
//===----------------------------------------------------------------------===//

/// The value a fill writes: `op` is a linalg.generic (a generalized
/// linalg.fill, or a lowered constant) that writes one scalar, an input or
/// a value from outside its body, to every element of its one output; or
/// null.
static Value getFilledValue(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !llvm::cast<AffineMapAttr>(op.getIndexingMaps()[op.getNumDpsInputs()])
           .getValue()
           .isIdentity())
    return nullptr;
  Value yielded = op.getBody()->getTerminator()->getOperand(0);
  if (auto arg = dyn_cast<BlockArgument>(yielded);
      arg && arg.getOwner() == op.getBody()) {
    if (arg.getArgNumber() >= op.getNumDpsInputs())
      return nullptr;
    Value input = op.getDpsInputs()[arg.getArgNumber()];
    return isa<ShapedType>(input.getType()) ? nullptr : input;
  }
  if (Operation *def = yielded.getDefiningOp(); def && op->isAncestor(def))
    return nullptr;
  return yielded;
}

void FoldedFills::findIn(Block &block) {
  for (Operation &op : block) {
    auto fill = dyn_cast<linalg::GenericOp>(op);
    Value value = fill ? getFilledValue(fill) : nullptr;
    if (!value)
      continue;
    auto consumer = dyn_cast_or_null<linalg::GenericOp>(getNextComputeOp(&op));
    Value buffer = fill.getDpsInits()[0];
    if (!consumer || llvm::is_contained(consumer.getDpsInputs(), buffer))
      continue;
    for (OpOperand &init : consumer.getDpsInitsMutable()) {
      AffineMap map = consumer.getMatchingIndexingMap(&init);
      if (init.get() != buffer || !map.isProjectedPermutation() ||
          map.getNumResults() != consumer.getNumParallelLoops() ||
          llvm::any_of(map.getResults(), [&](AffineExpr expr) {
            return consumer.getIteratorTypesArray()[cast<AffineDimExpr>(expr)
                                                        .getPosition()] !=
                   utils::IteratorType::parallel;
          }))
        continue;
      LLVM_DEBUG(llvm::dbgs()
                 << "fold the fill of " << getSourceOps(fill.getOperation())
                 << " into " << getSourceOps(consumer.getOperation()) << "\n");
      filledWith[&init] = value;
      fills.insert(fill);
    }
  }
}

SmallVector<Value> FoldedFills::getValues(linalg::GenericOp generic) const {
  SmallVector<Value> values;
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (Value fill = filledWith.lookup(&init))
      values.push_back(fill);
  return values;
}

/// How a block of kBlockSize threads that computes a member best shares
/// the work of a reduction with `points` output elements of `steps` steps
/// each, by the steps of a reduction loop each thread waits for: whole
/// elements per thread (rounds of `steps`), or the block's threads sharing
/// each element's steps (an element after another, each then combined
/// with barriers); in the second case, each warp may rather share whole
/// elements' steps (the block's warps on different elements at once, each
/// combined with shuffles). Sharing steps makes a warp's lanes read along
/// the reduction, which for an operand laid out along the elements (a
/// bias gradient's columns) conflicts in shared memory where a thread per
/// element reads consecutive words: warps only replace the block. They take
/// the elements only when each warp gets as many, so that every thread of
/// the block shuffles as often as the others (the emulator, which runs the
/// kernels the tests check, exchanges a shuffle's values across the block;
/// Emulator.cpp).
enum class BlockSharing { Threads, Block, Warps };
static BlockSharing getBlockSharing(int64_t points, int64_t steps) {
  int64_t warps = kBlockSize / kWarpSize;
  int64_t byThreads = llvm::divideCeil(points, kBlockSize) * steps;
  int64_t byBlock =
      points * (llvm::divideCeil(steps, kBlockSize) + kBlockCombineCost);
  int64_t byWarps = llvm::divideCeil(points, warps) *
                    (llvm::divideCeil(steps, kWarpSize) + kWarpCombineCost);
  if (byBlock >= byThreads)
    return BlockSharing::Threads;
  return byWarps < byBlock && points % warps == 0 ? BlockSharing::Warps
                                                  : BlockSharing::Block;
}

bool cuda::isReducedByWarps(linalg::GenericOp generic) {
  auto [points, steps] = countPointsAndSteps(generic);
  return getBlockSharing(points, steps) == BlockSharing::Warps;
}

bool cuda::readsAcrossOutputs(linalg::GenericOp generic) {
  if (generic.getNumReductionLoops() != 1 || generic.getNumDpsInits() != 1)
    return false;
  SmallVector<unsigned> reduction;
  generic.getReductionDims(reduction);
  AffineMap output = generic.getIndexingMapsArray().back();
  if (output.getNumResults() == 0)
    return false;
  auto last = dyn_cast<AffineDimExpr>(output.getResults().back());
  if (!last)
    return false;
  unsigned inner = last.getPosition(), step = reduction.front();
  bool any = false;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (!type || !map.isFunctionOfDim(step))
      continue;
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    if (failed(getStridesAndOffset(type, strides, offset)))
      return false;
    int64_t alongOutputs = 0, alongSteps = 0;
    for (auto [k, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        return false;
      if (dim.getPosition() == inner)
        alongOutputs += strides[k];
      if (dim.getPosition() == step)
        alongSteps += strides[k];
    }
    if (alongOutputs != 1 || alongSteps == 1)
      return false;
    any = true;
  }
  return any;
}

Operation *cuda::getBlockCombiner(linalg::GenericOp generic,
                                  ReductionBlocks blocks, int64_t members,
                                  int64_t fillBlocks) {
  if (generic.getNumDpsInits() != 1 || generic.getNumReductionLoops() == 0)
    return nullptr;
  auto [points, steps] = countPointsAndSteps(generic);
  int64_t threads = blocks == ReductionBlocks::Warp ? kWarpSize : kBlockSize;
  int64_t rounds = llvm::divideCeil(points, threads);
  int64_t perElement =
      llvm::divideCeil(steps, threads) +
      (blocks == ReductionBlocks::Warp ? kWarpCombineCost : kBlockCombineCost);
  bool share = false;
  switch (blocks) {
  case ReductionBlocks::One:
    share = getBlockSharing(points, steps) != BlockSharing::Threads;
    break;
  case ReductionBlocks::Warp:
    share = points * perElement < rounds * steps;
    break;
  case ReductionBlocks::Own:
    share = points < kBlockSize && perElement < steps;
    break;
  case ReductionBlocks::OwnPerMember:
    // A thread per element of every member would leave most SMs idle.
    share = members * points < fillBlocks * kBlockSize && steps >= kBlockSize;
    break;
  }
  if (!share)
    return nullptr;
  Operation *combiner = getReductionCombiner(generic);
  if (!combiner)
    return nullptr;
  LLVM_DEBUG(llvm::dbgs() << "share the " << steps << " steps of each of the "
                          << points << " elements of "
                          << getSourceOps(generic.getOperation())
                          << " among a block's threads (" << combiner->getName()
                          << ")\n");
  return combiner;
}

Operation *cuda::getReductionCombiner(linalg::GenericOp generic) {
  if (generic.getNumDpsInits() != 1 || generic.getNumReductionLoops() == 0)
    return nullptr;
  AffineMap output = generic.getIndexingMapsArray().back();
  for (auto [d, iterator] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction && output.isFunctionOfDim(d))
      return nullptr;
  BlockArgument accumulator = generic.getRegionOutputArgs()[0];
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || !accumulator.hasOneUse() ||
      *accumulator.getUsers().begin() != combiner ||
      !isa<arith::AddFOp, arith::MaximumFOp, arith::AddIOp>(combiner) ||
      combiner->getResult(0).getType().isInteger(1) ||
      combiner->getOperand(0) == combiner->getOperand(1))
    return nullptr;
  return combiner;
}

//===----------------------------------------------------------------------===//
// Loops over members
//===----------------------------------------------------------------------===//

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
