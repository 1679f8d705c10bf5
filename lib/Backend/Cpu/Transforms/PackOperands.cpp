//===- PackOperands.cpp - Contraction operands in the tiles' layout -------===//
//
// Packs the operands that a contraction's register tiles read along the
// vector loop into panels that they read with unit stride
// (ens-cpu-pack-operands).
//
// The vector loop `v` (extent V, `lanes` elements to a vector) is split in
// two, `v` over the V / lanes panels and a new innermost loop over the
// lanes of one. Every operand that `v` indexes has that dimension expanded
// in place, (..., V, ...) to (..., V / lanes, lanes, ...), which is free;
// an operand packed into panels is then also transposed so that its
// dimensions go: those of the other parallel loops, the panel, those of
// the reduction loops, the lanes. One panel (a row of lanes for every step
// of the reduction) is then one contiguous block of memory, which a
// register tile reads from start to end.
//
//===----------------------------------------------------------------------===//

#include "OpAnalysis.h"

#include "ens/Backend/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cpu-pack-operands"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUPACKOPERANDS
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

/// The reads of each element of an operand, together, below which its copy
/// costs more than the strided reads it saves: the copy reads and writes
/// each element once.
static constexpr int64_t kMinReuse = 4;

/// The L1 data cache of the CPUs ens compiles for (32 KiB on current x86
/// cores): an operand that fits is read from it whatever its layout.
static constexpr int64_t kL1Bytes = 32 * 1024;

/// The iterations of the loops of `op` (with `extents`) that `map` does not
/// read: how often the contraction reads each element of the operand.
static int64_t getReuse(AffineMap map, ArrayRef<int64_t> extents) {
  int64_t reuse = 1;
  for (auto [loop, extent] : llvm::enumerate(extents))
    if (!map.isFunctionOfDim(loop))
      reuse *= extent;
  return reuse;
}

/// The position in `map` of the dimension that `loop` alone indexes, if
/// one does.
static std::optional<unsigned> findLoop(AffineMap map, unsigned loop) {
  for (auto [position, expr] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr);
        dim && dim.getPosition() == loop)
      return position;
  return std::nullopt;
}

namespace {
/// How one contraction is packed.
struct PackPlan {
  /// The vector loop, and the elements of one vector.
  unsigned vectorLoop;
  int64_t lanes;
  /// The input operands packed into panels.
  SmallVector<unsigned> panels;
};
} // namespace

/// The packing of `op`, if it is a contraction with static shapes whose
/// register tiles would read some operand, often enough, along the vector
/// loop: a loop of whole vectors that every operand reads through loops
/// alone.
static std::optional<PackPlan> planPacking(linalg::LinalgOp op,
                                           unsigned vectorBytes) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(extents) ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  std::optional<unsigned> bits = cpu::widestElementBits(op);
  std::optional<unsigned> vectorLoop = cpu::pickVectorLoop(op, true);
  if (!bits || !vectorLoop)
    return std::nullopt;
  PackPlan plan{*vectorLoop, std::max<int64_t>(1, vectorBytes * 8 / *bits), {}};
  if (extents[plan.vectorLoop] % plan.lanes != 0)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (!op.getMatchingIndexingMap(&operand).isProjectedPermutation())
      return std::nullopt;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    std::optional<unsigned> position = findLoop(map, plan.vectorLoop);
    if (!position || map.getNumResults() < 2)
      continue;
    // Along its innermost dimension, an operand that fits in the L1 cache
    // is read well in place, and one of a single panel already is one.
    auto type = cast<ShapedType>(operand->get().getType());
    if (*position + 1 == map.getNumResults() &&
        (extents[plan.vectorLoop] == plan.lanes ||
         type.getNumElements() * *bits / 8 <= kL1Bytes))
      continue;
    int64_t reuse = getReuse(map, extents);
    LLVM_DEBUG(llvm::dbgs()
               << "operand " << operand->getOperandNumber() << " of "
               << op->getName() << " reads the vector loop " << plan.vectorLoop
               << " in dimension " << *position << ", each element " << reuse
               << " times\n");
    if (reuse >= kMinReuse)
      plan.panels.push_back(operand->getOperandNumber());
  }
  if (plan.panels.empty())
    return std::nullopt;
  return plan;
}

/// The reassociation that splits dimension `position` of a shape of `rank`
/// dimensions in two.
static SmallVector<ReassociationIndices> getSplit(int64_t rank,
                                                  unsigned position) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t dim = 0; dim < rank; ++dim) {
    int64_t at = dim > position ? dim + 1 : dim;
    groups.push_back(dim == position ? ReassociationIndices{at, at + 1}
                                     : ReassociationIndices{at});
  }
  return groups;
}

/// `value` with its dimension `position` of extent E expanded into
/// (E / lanes, lanes).
static Value expandDimension(RewriterBase &rewriter, Location loc, Value value,
                             unsigned position, int64_t lanes) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[position] /= lanes;
  shape.insert(shape.begin() + position + 1, lanes);
  return rewriter.create<tensor::ExpandShapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), value,
      getSplit(type.getRank(), position));
}

/// Packs `op` as `plan` says (see the file comment).
static void packContraction(RewriterBase &rewriter, linalg::GenericOp op,
                            const PackPlan &plan) {
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  unsigned numLoops = op.getNumLoops();
  unsigned laneLoop = numLoops;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::parallel);
  AffineExpr laneExpr = getAffineDimExpr(laneLoop, context);

  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> results(map.getResults());
    Value value = operand.get();
    if (std::optional<unsigned> position = findLoop(map, plan.vectorLoop)) {
      value = expandDimension(rewriter, loc, value, *position, plan.lanes);
      results.insert(results.begin() + *position + 1, laneExpr);
      if (llvm::is_contained(plan.panels, operand.getOperandNumber())) {
        // Other parallel loops, the panel, reduction loops, the lanes.
        auto isReduction = [&](int64_t dim) {
          unsigned loop = cast<AffineDimExpr>(results[dim]).getPosition();
          return iterators[loop] == utils::IteratorType::reduction;
        };
        SmallVector<int64_t> order;
        for (int64_t dim = 0; dim < int64_t(results.size()); ++dim)
          if (dim != *position && dim != *position + 1 && !isReduction(dim))
            order.push_back(dim);
        order.push_back(*position);
        for (int64_t dim = 0; dim < int64_t(results.size()); ++dim)
          if (isReduction(dim))
            order.push_back(dim);
        order.push_back(*position + 1);
        auto type = cast<RankedTensorType>(value.getType());
        SmallVector<int64_t> shape;
        SmallVector<AffineExpr> packedResults;
        for (int64_t dim : order) {
          shape.push_back(type.getDimSize(dim));
          packedResults.push_back(results[dim]);
        }
        if (!llvm::equal(order, llvm::seq<int64_t>(0, order.size()))) {
          Value empty = rewriter.create<tensor::EmptyOp>(loc, shape,
                                                         type.getElementType());
          value =
              rewriter.create<linalg::TransposeOp>(loc, value, empty, order)
                  ->getResult(0);
          results = packedResults;
        }
      }
    }
    operands.push_back(value);
    maps.push_back(AffineMap::get(numLoops + 1, 0, results, context));
  }

  unsigned numInputs = op.getNumDpsInputs();
  ValueRange inputs = ArrayRef(operands).take_front(numInputs);
  ValueRange inits = ArrayRef(operands).drop_front(numInputs);
  auto packed = rewriter.create<linalg::GenericOp>(
      loc, ValueRange(inits).getTypes(), inputs, inits, maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), packed.getRegion(),
                              packed.getRegion().begin());
  SmallVector<Value> results;
  for (auto [result, original] :
       llvm::zip_equal(packed.getResults(), op.getResults())) {
    auto type = cast<RankedTensorType>(original.getType());
    Value collapsed = result;
    std::optional<unsigned> position =
        findLoop(op.getMatchingIndexingMap(
                     op.getDpsInitOperand(original.getResultNumber())),
                 plan.vectorLoop);
    if (position)
      collapsed = rewriter.create<tensor::CollapseShapeOp>(
          loc, type, result, getSplit(type.getRank(), *position));
    results.push_back(collapsed);
  }
  rewriter.replaceOp(op, results);
}

namespace {
struct PackOperandsPass : ens::impl::EnsCpuPackOperandsBase<PackOperandsPass> {
  using EnsCpuPackOperandsBase::EnsCpuPackOperandsBase;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      std::optional<PackPlan> plan = planPacking(op, vectorBytes);
      if (!plan)
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(*op);
      if (!generic) {
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      packContraction(rewriter, generic, *plan);
    }
  }
};
} // namespace
