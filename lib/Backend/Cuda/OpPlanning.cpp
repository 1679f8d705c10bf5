//===- OpPlanning.cpp - The CUDA backend's decisions per op ---------------===//
//
// Decides how each op runs wherever it is: which fills fold into their
// consumer, which elementwise ops run as a contraction's epilogue in
// registers, and which reductions a block or its warps share among their
// threads. Planning.cpp makes the decisions of a loop over members, which
// these feed.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "ens/Support/Escape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// What combining the shares of a block costs, in steps of a reduction
/// loop: two barriers and ten warp shuffles.
static constexpr int64_t kBlockCombineCost = 12;
/// The same for a warp's threads: five shuffles.
static constexpr int64_t kWarpCombineCost = 5;

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
