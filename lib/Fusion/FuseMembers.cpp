//===- FuseMembers.cpp - Loops over the members of an ensemble ------------===//
//
// Finds runs of member ops (ops that compute member i of their results from
// member i of their batched operands) over the same model axis and replaces
// each run with one scf.forall over the members, whose body computes one
// member's slice of every op of the run.
//
//===----------------------------------------------------------------------===//

#include "ens/Fusion/Passes.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "ens-fuse-members"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSFUSEMEMBERS
#include "ens/Fusion/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {

/// Whether `map` indexes its first dimension by loop 0 and no other
/// dimension by it: the operand it reads or writes splits into slices along
/// loop 0, one per iteration.
bool isSplitByLoop0(AffineMap map) {
  if (map.getNumResults() == 0 || !map.isProjectedPermutation() ||
      map.getResult(0) != getAffineDimExpr(0, map.getContext()))
    return false;
  return llvm::none_of(map.getResults().drop_front(),
                       [](AffineExpr expr) { return expr.isFunctionOfDim(0); });
}

/// How far apart the elements of consecutive members lie along an operand
/// dimension that `expr`, a result of a map over `numDims` loops, indexes:
/// c where `expr` is c * d0 (c > 0) plus terms of the other loops and a
/// constant, 0 where it does not use loop 0, or nothing where it uses loop
/// 0 in another way (negatively, or under a mod or a division).
std::optional<int64_t> getMemberStride(AffineExpr expr, unsigned numDims) {
  if (!expr.isFunctionOfDim(0))
    return 0;
  bool linear = true;
  expr.walk([&](AffineExpr sub) {
    if (auto binary = dyn_cast<AffineBinaryOpExpr>(sub))
      if (binary.getKind() != AffineExprKind::Add &&
          (binary.getKind() != AffineExprKind::Mul ||
           !isa<AffineConstantExpr>(binary.getRHS())) &&
          sub.isFunctionOfDim(0))
        linear = false;
  });
  if (!linear)
    return std::nullopt;
  MLIRContext *context = expr.getContext();
  auto at = [&](int64_t member) -> int64_t {
    SmallVector<AffineExpr> dims(numDims, getAffineConstantExpr(0, context));
    dims[0] = getAffineConstantExpr(member, context);
    return cast<AffineConstantExpr>(expr.replaceDimsAndSymbols(dims, {}))
        .getValue();
  };
  int64_t stride = at(1) - at(0);
  if (stride <= 0)
    return std::nullopt;
  return stride;
}

/// Whether every operand of `op` can be cut into one slice per member: each
/// dimension is indexed at a member stride (getMemberStride).
bool hasMemberStrides(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [&](AffineMap map) {
    return llvm::all_of(map.getResults(), [&](AffineExpr expr) {
      return getMemberStride(expr, map.getNumDims()).has_value();
    });
  });
}

/// The extent N of the model axis if `op` is a member op: one that computes
/// slice i (along the first dimension) of each of its results from slice i
/// of the operands that it splits the same way and from the whole of its
/// other operands, for every i < N, where N >= `minMembers`. The batched ops
/// of an ensemble are member ops over the model axis. Returns nothing for
/// any other op.
std::optional<int64_t> getMemberExtent(Operation *op, int64_t minMembers) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureTensorSemantics() || linalgOp.getNumLoops() == 0 ||
        linalgOp.getIteratorTypesArray()[0] != utils::IteratorType::parallel)
      return std::nullopt;
    // An op with a loop of no iterations computes nothing per member, and
    // upstream tiling cannot split it: a tile size of 0 means "untiled"
    // there. It stays a whole op.
    SmallVector<int64_t> extents = linalgOp.getStaticLoopRanges();
    if (ShapedType::isDynamicShape(extents) || extents[0] < minMembers ||
        llvm::is_contained(extents, 0))
      return std::nullopt;
    for (OpOperand &init : linalgOp.getDpsInitsMutable())
      if (!isSplitByLoop0(linalgOp.getMatchingIndexingMap(&init)))
        return std::nullopt;
    if (!hasMemberStrides(linalgOp))
      return std::nullopt;
    return extents[0];
  }
  // Reshapes that leave the first dimension alone.
  auto reshape = [&](auto op) -> std::optional<int64_t> {
    SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
    if (groups.empty() || groups.front().size() != 1 ||
        !op.getSrcType().hasStaticShape() ||
        !op.getResultType().hasStaticShape() ||
        op.getSrcType().getDimSize(0) < minMembers ||
        llvm::is_contained(op.getSrcType().getShape(), 0))
      return std::nullopt;
    return op.getSrcType().getDimSize(0);
  };
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return reshape(collapse);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return reshape(expand);
  return std::nullopt;
}

/// Whether an op nested in `op` (not `op` itself) uses a value of `values`.
bool usesInside(Operation *op, const DenseSet<Value> &values) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (nested == op)
      return WalkResult::advance();
    for (Value operand : nested->getOperands())
      if (values.contains(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Whether `op` or an op nested in it uses a value of `values`.
bool usesAny(Operation *op, const DenseSet<Value> &values) {
  return llvm::any_of(
             op->getOperands(),
             [&](Value operand) { return values.contains(operand); }) ||
         usesInside(op, values);
}

/// Whether member op `op` can take slice i of each of its operands that
/// `produced` holds straight from the member op that computes it: it must
/// read such operands split along the model axis, and its body must not
/// read them (a gather reads the whole tensor).
bool readsSlicesOf(Operation *op, const DenseSet<Value> &produced) {
  if (usesInside(op, produced))
    return false;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return true;
  return llvm::all_of(linalgOp->getOpOperands(), [&](OpOperand &operand) {
    return !produced.contains(operand.get()) ||
           isSplitByLoop0(linalgOp.getMatchingIndexingMap(&operand));
  });
}

/// A group of member ops that can run as one loop over the members: its
/// ops in program order and the extent of their model axis.
struct MemberGroup {
  SmallVector<Operation *> ops;
  int64_t extent = 0;
};

/// A group of member ops being collected, with the results its ops produce.
struct OpenGroup {
  SmallVector<Operation *> ops;
  DenseSet<Value> produced;
  int64_t extent = 0;

  MemberGroup close() { return MemberGroup{std::move(ops), extent}; }
};

/// Splits the ops of `block` into groups of member ops over the same model
/// axis that can run as one loop over the members: in program order, each
/// op of a group reads the slices of earlier ones, and no op outside the
/// group that uses a result of the group sits between two of them. Other
/// ops between them stay before the loop.
///
/// Several groups may be open at once: the ops of independent ensembles
/// (the groups of a heterogeneous ensemble, one vmap per architecture, or
/// ensembles of different sizes) interleave in the block. An op joins the
/// open groups of its extent whose results it uses and whose slices it can
/// read; where it uses several, they become one group. Every other open
/// group whose results it uses ends before it. An op that uses no open
/// group of its extent joins the first whose slices it can read if
/// `joinIndependent`, so that independent groups of as many members share
/// one loop; otherwise it starts a group of its own, so that each set of
/// member ops connected by their results is a loop of its own. Only model
/// axes of at least `minMembers` members make member ops.
SmallVector<MemberGroup> findMemberGroups(Block &block, bool joinIndependent,
                                          int64_t minMembers) {
  SmallVector<MemberGroup> groups;
  SmallVector<OpenGroup> open;
  for (Operation &op : block) {
    std::optional<int64_t> members = getMemberExtent(&op, minMembers);
    // The open groups `op` joins, the first of them the one it joins into.
    SmallVector<size_t> joined;
    std::optional<size_t> independent;
    for (auto [i, group] : llvm::enumerate(open)) {
      if (!members || group.extent != *members ||
          !readsSlicesOf(&op, group.produced))
        continue;
      if (usesAny(&op, group.produced))
        joined.push_back(i);
      else if (!independent)
        independent = i;
    }
    if (joined.empty() && independent) {
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] " << op.getName() << " at " << op.getLoc()
                 << " shares no data with the open group over " << *members
                 << " members: "
                 << (joinIndependent ? "joins it" : "a group of its own")
                 << "\n");
      if (joinIndependent)
        joined.push_back(*independent);
    }
    if (members && joined.empty()) {
      open.push_back(OpenGroup{{}, {}, *members});
      joined.push_back(open.size() - 1);
    }
    if (!joined.empty()) {
      // No op outside the groups uses them, or they would have ended: their
      // ops, in program order, form one group.
      OpenGroup &into = open[joined.front()];
      if (joined.size() > 1) {
        LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << op.getName() << " at "
                                << op.getLoc() << " uses " << joined.size()
                                << " open groups over " << *members
                                << " members: they become one\n");
        for (size_t i : llvm::drop_begin(joined)) {
          into.ops.append(open[i].ops);
          into.produced.insert(open[i].produced.begin(),
                               open[i].produced.end());
          open[i].ops.clear();
        }
        llvm::sort(into.ops, [](Operation *a, Operation *b) {
          return a->isBeforeInBlock(b);
        });
      }
      into.ops.push_back(&op);
      into.produced.insert(op.result_begin(), op.result_end());
    }
    // The other groups whose results `op` uses end before it; the groups
    // merged into another are gone. Ops that use no group may stay before
    // the loops.
    SmallVector<OpenGroup> stillOpen;
    for (auto [i, group] : llvm::enumerate(open)) {
      if (group.ops.empty())
        continue;
      if ((joined.empty() || i != joined.front()) &&
          usesAny(&op, group.produced))
        groups.push_back(group.close());
      else
        stillOpen.push_back(std::move(group));
    }
    open = std::move(stillOpen);
  }
  for (OpenGroup &group : open)
    groups.push_back(group.close());
  return groups;
}

/// The iterations of the loops of `op`, or 0 for an op that is not a
/// linalg op. Only compared with a threshold, so it saturates rather than
/// overflows.
uint64_t getWork(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return 0;
  uint64_t work = 1;
  for (int64_t extent : linalgOp.getStaticLoopRanges())
    work = llvm::SaturatingMultiply(work, static_cast<uint64_t>(extent));
  return work;
}

/// Replaces the member ops of `group` with one scf.forall over the members,
/// whose body computes one member's slice of every op in program order.
/// Slices pass from op to op as values; results used after the group are
/// inserted into whole tensors, which the loop returns. A loop over one
/// member is mapped to #ens.members, which canonicalization keeps.
LogicalResult fuseMemberGroup(RewriterBase &rewriter,
                              ArrayRef<Operation *> group, int64_t extent) {
  Operation *first = group.front();
  Location loc = first->getLoc();
  DenseSet<Operation *> members(group.begin(), group.end());
  // A reshape of a group's value that is used after the group is redone
  // there on the loop's result for that value: the loop returns each value
  // in one shape only, rather than one buffer per shape and a copy between.
  SetVector<Value> escaping;
  SmallVector<Operation *> reshapesAfter;
  for (Operation *op : group)
    for (Value result : op->getResults()) {
      if (llvm::all_of(result.getUsers(),
                       [&](Operation *user) { return members.contains(user); }))
        continue;
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op) &&
          members.contains(op->getOperand(0).getDefiningOp())) {
        reshapesAfter.push_back(op);
        escaping.insert(op->getOperand(0));
        continue;
      }
      escaping.insert(result);
    }

  rewriter.setInsertionPointAfter(group.back());
  SmallVector<Value> outputs;
  for (Value value : escaping) {
    auto type = cast<RankedTensorType>(value.getType());
    outputs.push_back(rewriter.create<tensor::EmptyOp>(loc, type.getShape(),
                                                       type.getElementType()));
  }
  std::optional<ArrayAttr> mapping;
  if (extent == 1)
    mapping = rewriter.getArrayAttr(
        ens::MembersMappingAttr::get(rewriter.getContext()));
  auto loop = rewriter.create<scf::ForallOp>(
      loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(extent)}, outputs,
      mapping);
  Value member = loop.getInductionVar(0);
  OpFoldResult zero = rewriter.getIndexAttr(0);
  OpFoldResult one = rewriter.getIndexAttr(1);
  // Offsets, sizes and strides of one member's slice of `shape`.
  auto sliceOf = [&](ArrayRef<int64_t> shape) {
    SmallVector<OpFoldResult> offsets(shape.size(), zero), sizes,
        strides(shape.size(), one);
    offsets[0] = member;
    sizes.push_back(one);
    for (int64_t size : shape.drop_front())
      sizes.push_back(rewriter.getIndexAttr(size));
    return std::make_tuple(offsets, sizes, strides);
  };

  IRMapping slices;
  rewriter.setInsertionPoint(loop.getTerminator());
  for (Operation *op : group) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      // Each operand is cut by hand rather than by upstream tiling, which
      // starts a slice at the map's value at the member, constant term
      // included, and keeps the map, which adds the constant again: a read
      // of x[d1 + 1] came out x[d1 + 2], past the end at the last element.
      // Here a slice starts where the member's elements do, and the map,
      // with loop 0 now of extent 1, reads it as it read the whole operand.
      SmallVector<Value> operands;
      SmallVector<Type> resultTypes;
      for (OpOperand &operand : linalgOp->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
        if (Value slice = slices.lookupOrNull(value)) {
          // An earlier op's slice, which readsSlicesOf checked it reads.
          operands.push_back(slice);
        } else if (!type || llvm::none_of(map.getResults(), [](AffineExpr e) {
                     return e.isFunctionOfDim(0);
                   })) {
          operands.push_back(value);
        } else {
          SmallVector<OpFoldResult> offsets, sizes,
              strides(type.getRank(), one);
          for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
            int64_t stride = *getMemberStride(expr, map.getNumDims());
            int64_t size = type.getDimSize(dim) - stride * (extent - 1);
            offsets.push_back(
                stride
                    ? affine::makeComposedFoldedAffineApply(
                          rewriter, loc,
                          getAffineDimExpr(0, rewriter.getContext()) * stride,
                          {OpFoldResult(member)})
                    : zero);
            sizes.push_back(rewriter.getIndexAttr(size));
          }
          operands.push_back(rewriter.create<tensor::ExtractSliceOp>(
              loc, value, offsets, sizes, strides));
        }
        if (linalgOp.isDpsInit(&operand))
          resultTypes.push_back(operands.back().getType());
      }
      auto sliced =
          cast<linalg::LinalgOp>(clone(rewriter, op, resultTypes, operands));
      // linalg.index of loop 0 is the member.
      SmallVector<OpFoldResult> indexOffsets(linalgOp.getNumLoops(), zero);
      indexOffsets[0] = member;
      linalg::offsetIndices(rewriter, sliced, indexOffsets);
      LLVM_DEBUG(llvm::dbgs() << "member slice: " << sliced << "\n");
      slices.map(op->getResults(), sliced->getResults());
      continue;
    }
    // A reshape that leaves the first dimension alone.
    Value source = op->getOperand(0);
    Value sourceSlice = slices.lookupOrNull(source);
    if (!sourceSlice) {
      auto [offsets, sizes, strides] =
          sliceOf(cast<RankedTensorType>(source.getType()).getShape());
      sourceSlice = rewriter.create<tensor::ExtractSliceOp>(
          loc, source, offsets, sizes, strides);
    }
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> shape(resultType.getShape());
    shape[0] = 1;
    RankedTensorType sliceType = resultType.clone(shape);
    Value reshaped;
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      reshaped = rewriter.create<tensor::CollapseShapeOp>(
          loc, sliceType, sourceSlice, collapse.getReassociationIndices());
    else
      reshaped = rewriter.create<tensor::ExpandShapeOp>(
          loc, sliceType, sourceSlice,
          cast<tensor::ExpandShapeOp>(op).getReassociationIndices());
    slices.map(op->getResult(0), reshaped);
  }

  rewriter.setInsertionPointToStart(loop.getTerminator().getBody());
  for (auto [value, output] : llvm::zip(escaping, loop.getRegionIterArgs())) {
    auto [offsets, sizes, strides] =
        sliceOf(cast<RankedTensorType>(value.getType()).getShape());
    rewriter.create<tensor::ParallelInsertSliceOp>(
        loc, slices.lookup(value), output, offsets, sizes, strides);
  }
  for (auto [value, result] : llvm::zip(escaping, loop.getResults()))
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return !members.contains(use.getOwner());
    });
  IRMapping results;
  results.map(escaping.getArrayRef(), loop.getResults());
  rewriter.setInsertionPointAfter(loop);
  for (Operation *reshape : reshapesAfter)
    rewriter.replaceUsesWithIf(
        reshape->getResult(0), rewriter.clone(*reshape, results)->getResult(0),
        [&](OpOperand &use) { return !members.contains(use.getOwner()); });
  for (Operation *op : llvm::reverse(group))
    rewriter.eraseOp(op);
  return success();
}

struct FuseMembersPass : ens::impl::EnsFuseMembersBase<FuseMembersPass> {
  using EnsFuseMembersBase::EnsFuseMembersBase;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (Block &block : getOperation().getBody())
      for (MemberGroup &member :
           findMemberGroups(block, joinIndependent, oneMemberLoops ? 1 : 2)) {
        ArrayRef<Operation *> group = member.ops;
        int64_t extent = member.extent;
        uint64_t work = 0;
        for (Operation *op : group)
          work = llvm::SaturatingAdd(work, getWork(op));
        bool worthALoop =
            work >= static_cast<uint64_t>(std::max<int64_t>(minWork, 0));
        LLVM_DEBUG({
          llvm::dbgs() << "[" DEBUG_TYPE "] group of " << group.size()
                       << " ops over " << extent << " members, " << work
                       << " iterations (minimum " << minWork
                       << "): " << (worthALoop ? "one loop" : "left as is")
                       << "\n";
          for (Operation *op : group)
            llvm::dbgs() << "  " << op->getName() << " at " << op->getLoc()
                         << "\n";
        });
        if (worthALoop && failed(fuseMemberGroup(rewriter, group, extent)))
          return signalPassFailure();
      }
    // Slices of empty tensors become empty tensors in the loops, so that a
    // member's intermediates are buffers of one member's size there.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyBounded(getOperation(), std::move(patterns),
                            "folding slices of empty tensors")))
      signalPassFailure();
  }
};

} // namespace
