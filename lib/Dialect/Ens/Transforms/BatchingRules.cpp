//===- BatchingRules.cpp - The batching rule of every ens op --------------===//
//
// One rule per op, attached through BatchingOpInterface. Rules follow JAX's
// discipline: a shared operand stays shared wherever the op can take it so
// (contractions and gathers keep shared weights and data unbatched), and the
// batch axis is tracked rather than normalised, so it moves only where an op
// needs it in a particular place (a reshape that would mix dims across it,
// and operands of elementwise ops that disagree).
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/IR/Contraction.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"
#include "ens/Dialect/Ens/Transforms/Batching.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ens;

namespace {

using Batched = FailureOr<SmallVector<BatchedValue>>;

Batched single(Value value, int64_t axis) {
  return SmallVector<BatchedValue>{{value, axis}};
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// The index in batched coordinates of dimension `dim` of a member's value,
/// when the batch sits at `axis`.
int64_t toBatchedDim(int64_t dim, int64_t axis) {
  return dim < axis ? dim : dim + 1;
}

/// The first batched operand's axis: where elementwise-like ops put theirs.
int64_t firstBatchedAxis(ArrayRef<BatchedValue> operands) {
  for (const BatchedValue &operand : operands)
    if (operand.isBatched())
      return operand.axis;
  llvm_unreachable("rules run only with a batched operand");
}

/// Brings every operand to a batch axis at `axis`, broadcasting shared ones:
/// for ops whose operands must have equal shapes.
SmallVector<Value> alignOperands(OpBuilder &builder, Location loc,
                                 ArrayRef<BatchedValue> operands, int64_t axis,
                                 int64_t size) {
  SmallVector<Value> aligned;
  for (const BatchedValue &operand : operands)
    aligned.push_back(
        operand.isBatched()
            ? moveBatchAxis(builder, loc, operand.value, operand.axis, axis)
            : broadcastToBatch(builder, loc, operand.value, axis, size));
  return aligned;
}

/// Clones `op` onto `operands`, giving each result a batch dim at `axis`.
Operation *cloneBatched(OpBuilder &builder, Operation *op,
                        ArrayRef<Value> operands, int64_t axis, int64_t size) {
  IRMapping mapping;
  mapping.map(op->getOperands(), operands);
  Operation *clone = builder.clone(*op, mapping);
  for (OpResult result : clone->getResults())
    result.setType(insertBatchDim(result.getType(), axis, size));
  return clone;
}

/// Elementwise ops (including cmp, select and convert): operands must agree
/// in shape, so shared ones are broadcast; a broadcast_in_dim is an index
/// map that fusion folds into the consumer, not a copy.
template <typename OpTy>
struct ElementwiseBatching
    : BatchingOpInterface::ExternalModel<ElementwiseBatching<OpTy>, OpTy> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    int64_t axis = firstBatchedAxis(operands);
    SmallVector<Value> aligned =
        alignOperands(builder, op->getLoc(), operands, axis, size);
    return single(cloneBatched(builder, op, aligned, axis, size)->getResult(0),
                  axis);
  }
};

/// The batch dim goes right after the result dim that the operand's dim
/// before it maps to (first if the operand's batch leads), so that a value
/// whose batch does not lead is broadcast without moving it: the pooling
/// adjoint broadcasts the pooled result and its gradient over the windows'
/// taps, and an elementwise op with the operand then needs no transpose.
struct BroadcastInDimBatching
    : BatchingOpInterface::ExternalModel<BroadcastInDimBatching,
                                         BroadcastInDimOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto broadcast = cast<BroadcastInDimOp>(op);
    int64_t axis = operands[0].axis;
    ArrayRef<int64_t> dims = broadcast.getDims();
    int64_t resultAxis = axis == 0 ? 0 : dims[axis - 1] + 1;
    SmallVector<int64_t> batchedDims;
    for (int64_t d = 0; d <= static_cast<int64_t>(dims.size()); ++d) {
      if (d == axis) {
        batchedDims.push_back(resultAxis);
        continue;
      }
      int64_t dim = dims[d < axis ? d : d - 1];
      batchedDims.push_back(dim < resultAxis ? dim : dim + 1);
    }
    auto result = builder.create<BroadcastInDimOp>(
        op->getLoc(), insertBatchDim(broadcast.getType(), resultAxis, size),
        operands[0].value, batchedDims);
    return single(result, resultAxis);
  }
};

/// The batch dim stays where it is and the permutation steps around it.
struct TransposeBatching
    : BatchingOpInterface::ExternalModel<TransposeBatching, TransposeOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    int64_t axis = operands[0].axis;
    ArrayRef<int64_t> permutation = cast<TransposeOp>(op).getPermutation();
    SmallVector<int64_t> batched;
    for (int64_t k = 0; k <= static_cast<int64_t>(permutation.size()); ++k)
      batched.push_back(
          k == axis ? axis
                    : toBatchedDim(permutation[k < axis ? k : k - 1], axis));
    auto result =
        builder.create<TransposeOp>(op->getLoc(), operands[0].value, batched);
    return single(result, axis);
  }
};

struct SliceBatching
    : BatchingOpInterface::ExternalModel<SliceBatching, SliceOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto slice = cast<SliceOp>(op);
    int64_t axis = operands[0].axis;
    auto withBatch = [&](ArrayRef<int64_t> values, int64_t batchValue) {
      SmallVector<int64_t> result(values);
      result.insert(result.begin() + axis, batchValue);
      return result;
    };
    auto result = builder.create<SliceOp>(
        op->getLoc(), operands[0].value, withBatch(slice.getStart(), 0),
        withBatch(slice.getLimit(), size), withBatch(slice.getStride(), 1));
    return single(result, axis);
  }
};

struct ConcatBatching
    : BatchingOpInterface::ExternalModel<ConcatBatching, ConcatOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    int64_t axis = firstBatchedAxis(operands);
    SmallVector<Value> aligned =
        alignOperands(builder, op->getLoc(), operands, axis, size);
    auto result = builder.create<ConcatOp>(
        op->getLoc(), aligned, toBatchedDim(cast<ConcatOp>(op).getDim(), axis));
    return single(result, axis);
  }
};

/// Each member's indices (batched at axis 0), clamped to `rows` and offset
/// by `member * rows`: they then index a table whose member axis is
/// flattened into the indexed axis, so one gather or scatter serves all.
Value offsetMemberIndices(OpBuilder &builder, Location loc, Value indices,
                          int64_t rows, int64_t size) {
  auto indexType = cast<RankedTensorType>(indices.getType());
  auto splat = [&](int64_t value) -> Value {
    return builder.create<ConstantOp>(
        loc, DenseElementsAttr::get(
                 indexType, builder.getI32IntegerAttr(value).getValue()));
  };
  Value clamped = builder.create<MinOp>(
      loc, builder.create<MaxOp>(loc, indices, splat(0)), splat(rows - 1));
  SmallVector<int32_t> offsets;
  for (int64_t member = 0; member < size; ++member)
    offsets.push_back(static_cast<int32_t>(member * rows));
  Value memberOffsets = builder.create<ConstantOp>(
      loc, DenseElementsAttr::get(
               RankedTensorType::get({size}, indexType.getElementType()),
               ArrayRef<int32_t>(offsets)));
  Value offsetGrid = builder.create<BroadcastInDimOp>(
      loc, indexType, memberOffsets, ArrayRef<int64_t>{0});
  return builder.create<AddOp>(loc, clamped, offsetGrid);
}

/// `type` with dimensions `axis` and `axis + 1` merged.
RankedTensorType mergeDims(Type type, int64_t axis) {
  auto tensorType = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensorType.getShape());
  shape[axis] *= shape[axis + 1];
  shape.erase(shape.begin() + axis + 1);
  return RankedTensorType::get(shape, tensorType.getElementType());
}

/// A shared table with batched indices, or a batched table with shared
/// indices, is one take. When both are batched, each member's rows are
/// gathered from its own table by flattening the member axis into the
/// gathered axis and offsetting each member's (clamped) indices.
struct TakeBatching : BatchingOpInterface::ExternalModel<TakeBatching, TakeOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    Location loc = op->getLoc();
    int64_t axis = cast<TakeOp>(op).getAxis();
    BatchedValue table = operands[0], indices = operands[1];
    int64_t indexRank = shapeOf(indices.value).size() - indices.isBatched();
    if (!indices.isBatched()) {
      int64_t tableAxis = toBatchedDim(axis, table.axis);
      auto result =
          builder.create<TakeOp>(loc, table.value, indices.value, tableAxis);
      return single(result, table.axis < tableAxis
                                ? table.axis
                                : table.axis - 1 + indexRank);
    }
    if (!table.isBatched()) {
      auto result =
          builder.create<TakeOp>(loc, table.value, indices.value, axis);
      return single(result, axis + indices.axis);
    }

    // Both batched: table [pre..., N*A, post...], indices + member * A.
    Value tableValue =
        moveBatchAxis(builder, loc, table.value, table.axis, axis);
    int64_t rows = shapeOf(tableValue)[axis + 1];
    Value flatTable = builder.create<ReshapeOp>(
        loc, mergeDims(tableValue.getType(), axis), tableValue);
    Value index = offsetMemberIndices(
        builder, loc,
        moveBatchAxis(builder, loc, indices.value, indices.axis, 0), rows,
        size);
    auto result = builder.create<TakeOp>(loc, flatTable, index, axis);
    return single(result, axis);
  }
};

/// The transpose of take: shared indices scatter each member's updates into
/// its own slice of the result; batched indices use the flattened form.
struct ScatterAddBatching
    : BatchingOpInterface::ExternalModel<ScatterAddBatching, ScatterAddOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto scatter = cast<ScatterAddOp>(op);
    Location loc = op->getLoc();
    int64_t axis = scatter.getAxis();
    BatchedValue updates = operands[0], indices = operands[1];
    if (!indices.isBatched()) {
      int64_t indexRank = shapeOf(indices.value).size();
      int64_t resultAxis = 0;
      Value value = updates.value;
      if (updates.axis < axis) {
        resultAxis = updates.axis;
      } else if (updates.axis >= axis + indexRank) {
        resultAxis = updates.axis - indexRank + 1;
      } else {
        value = moveBatchAxis(builder, loc, value, updates.axis, 0);
      }
      auto result = builder.create<ScatterAddOp>(
          loc, insertBatchDim(scatter.getType(), resultAxis, size), value,
          indices.value, toBatchedDim(axis, resultAxis));
      return single(result, resultAxis);
    }

    // Both batched (shared updates are broadcast): scatter into the result
    // with its member axis flattened into `axis`, then split it again.
    Value values =
        updates.isBatched()
            ? moveBatchAxis(builder, loc, updates.value, updates.axis, axis)
            : broadcastToBatch(builder, loc, updates.value, axis, size);
    RankedTensorType resultType = insertBatchDim(scatter.getType(), axis, size);
    int64_t rows = resultType.getShape()[axis + 1];
    Value index = offsetMemberIndices(
        builder, loc,
        moveBatchAxis(builder, loc, indices.value, indices.axis, 0), rows,
        size);
    Value flat = builder.create<ScatterAddOp>(loc, mergeDims(resultType, axis),
                                              values, index, axis);
    return single(builder.create<ReshapeOp>(loc, resultType, flat), axis);
  }
};

struct PadBatching : BatchingOpInterface::ExternalModel<PadBatching, PadOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto pad = cast<PadOp>(op);
    int64_t axis = operands[0].axis;
    auto withBatch = [&](ArrayRef<int64_t> values) {
      SmallVector<int64_t> result(values);
      result.insert(result.begin() + axis, 0);
      return result;
    };
    auto result = builder.create<PadOp>(
        op->getLoc(), operands[0].value, withBatch(pad.getLow()),
        withBatch(pad.getHigh()), withBatch(pad.getInterior()));
    return single(result, axis);
  }
};

/// Ops that need the batch to lead: random ops take batches of keys in
/// leading dims (so each member draws from its own key). Shared operands
/// are broadcast there.
template <typename OpTy>
struct LeadingBatching
    : BatchingOpInterface::ExternalModel<LeadingBatching<OpTy>, OpTy> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    SmallVector<Value> aligned =
        alignOperands(builder, op->getLoc(), operands, 0, size);
    return single(cloneBatched(builder, op, aligned, 0, size)->getResult(0), 0);
  }
};

/// A reshape keeps the batch where it is when the member's dims before it
/// hold as many elements as some leading dims of the result: the batched
/// reshape then splits and merges dims on either side of the batch only,
/// and reorders nothing. Otherwise the batch moves to the front first.
struct ReshapeBatching
    : BatchingOpInterface::ExternalModel<ReshapeBatching, ReshapeOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto reshape = cast<ReshapeOp>(op);
    BatchedValue operand = operands[0];
    ArrayRef<int64_t> shape = shapeOf(operand.value);
    ArrayRef<int64_t> resultShape = reshape.getType().getShape();
    int64_t before = 1;
    for (int64_t dim : shape.take_front(operand.axis))
      before *= dim;
    // The fewest leading result dims with that many elements.
    int64_t resultAxis = 0, leading = 1;
    while (leading < before &&
           resultAxis < static_cast<int64_t>(resultShape.size()))
      leading *= resultShape[resultAxis++];
    Value value = operand.value;
    if (leading != before || before == 0) {
      value = moveBatchAxis(builder, op->getLoc(), value, operand.axis, 0);
      resultAxis = 0;
    }
    auto result = builder.create<ReshapeOp>(
        op->getLoc(), insertBatchDim(reshape.getType(), resultAxis, size),
        value);
    return single(result, resultAxis);
  }
};

struct OneHotBatching
    : BatchingOpInterface::ExternalModel<OneHotBatching, OneHotOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    int64_t axis = operands[0].axis;
    return single(
        cloneBatched(builder, op, operands[0].value, axis, size)->getResult(0),
        axis);
  }
};

/// Reductions keep the batch dim and reduce the member's dims.
template <typename OpTy>
struct ReduceBatching
    : BatchingOpInterface::ExternalModel<ReduceBatching<OpTy>, OpTy> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    int64_t axis = operands[0].axis, reducedBefore = 0;
    SmallVector<int64_t> dims;
    for (int64_t d : cast<OpTy>(op).getDims()) {
      dims.push_back(toBatchedDim(d, axis));
      reducedBefore += d < axis;
    }
    auto result = builder.create<OpTy>(op->getLoc(), operands[0].value, dims);
    return single(result, axis - reducedBefore);
  }
};

template <typename OpTy>
struct SoftmaxBatching
    : BatchingOpInterface::ExternalModel<SoftmaxBatching<OpTy>, OpTy> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    int64_t axis = operands[0].axis;
    auto result =
        builder.create<OpTy>(op->getLoc(), operands[0].value,
                             toBatchedDim(cast<OpTy>(op).getDim(), axis));
    return single(result, axis);
  }
};

//===----------------------------------------------------------------------===//
// Contractions: all become one einsum with a fresh label for the batch.
//===----------------------------------------------------------------------===//

/// Reshapes away the member dims `dropped` of a (possibly batched) operand.
BatchedValue dropDims(OpBuilder &builder, Location loc, BatchedValue operand,
                      ArrayRef<int64_t> dropped) {
  if (dropped.empty())
    return operand;
  SmallVector<int64_t> shape(shapeOf(operand.value));
  int64_t axis = operand.axis;
  for (int64_t d : llvm::reverse(dropped)) {
    shape.erase(shape.begin() +
                (operand.isBatched() ? toBatchedDim(d, operand.axis) : d));
    if (operand.isBatched() && d < operand.axis)
      --axis;
  }
  auto type = cast<RankedTensorType>(operand.value.getType());
  Value reshaped = builder.create<ReshapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), operand.value);
  return {reshaped, axis};
}

/// einsum, tensordot and matmul alike: in einsum form, the batch gets a
/// label of its own on each batched operand and leads the output, while a
/// shared operand keeps its labels and is not broadcast. (tensordot has no
/// batch dims, which is why a model written for one example uses it.)
template <typename OpTy>
struct ContractionBatching
    : BatchingOpInterface::ExternalModel<ContractionBatching<OpTy>, OpTy> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    FailureOr<EinsumForm> form = getEinsumForm(op);
    if (failed(form))
      return failure();
    EinsumSpec spec = form->spec;
    std::string used = spec.lhs + spec.rhs;
    char label = 'a';
    while (label <= 'z' && used.find(label) != std::string::npos)
      ++label;
    if (label > 'z')
      return op->emitOpError()
             << "cannot be batched: all 26 einsum labels are in use";
    BatchedValue lhs =
        dropDims(builder, op->getLoc(), operands[0], form->lhsDropped);
    BatchedValue rhs =
        dropDims(builder, op->getLoc(), operands[1], form->rhsDropped);
    if (lhs.isBatched())
      spec.lhs.insert(spec.lhs.begin() + lhs.axis, label);
    if (rhs.isBatched())
      spec.rhs.insert(spec.rhs.begin() + rhs.axis, label);
    spec.out.insert(spec.out.begin(), label);
    auto result = builder.create<EinsumOp>(op->getLoc(), lhs.value, rhs.value,
                                           builder.getStringAttr(spec.str()));
    return single(result, 0);
  }
};

//===----------------------------------------------------------------------===//
// Convolutions: the members become one convolution, never a loop, and a
// shared operand is read as it is (docs/batching.md).
//===----------------------------------------------------------------------===//

struct ConvBatching : BatchingOpInterface::ExternalModel<ConvBatching, ConvOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    Location loc = op->getLoc();
    ConvDims dims = cast<ConvOp>(op).getConvDims();
    BatchedValue lhs = operands[0], rhs = operands[1];
    int64_t outFeature = dims.out[1];
    if (!rhs.isBatched()) {
      // Shared filters: the members are more batch, member-major.
      Value input = mergeDimInto(builder, loc, lhs.value, lhs.axis,
                                 toBatchedDim(dims.lhs[0], lhs.axis));
      Value result = builder.create<ConvOp>(loc, input, rhs.value, dims);
      return single(splitDim(builder, loc, result, dims.out[0], size),
                    dims.out[0]);
    }
    Value filters = rhs.value;
    int64_t filterOut = toBatchedDim(dims.rhs[0], rhs.axis);
    if (lhs.isBatched()) {
      // Each member its own input and filters: one grouped convolution
      // whose groups are the members' groups, member-major.
      Value input = mergeDimInto(builder, loc, lhs.value, lhs.axis,
                                 toBatchedDim(dims.lhs[1], lhs.axis));
      filters = mergeDimInto(builder, loc, filters, rhs.axis, filterOut);
      ConvDims grouped = dims;
      grouped.groups *= size;
      Value result = builder.create<ConvOp>(loc, input, filters, grouped);
      return single(splitDim(builder, loc, result, outFeature, size),
                    outFeature);
    }
    // A shared input with each member's filters: the members' filters of
    // each group join that group's output features, so the input is read
    // once. With one group, that is the members' filters stacked.
    if (dims.groups == 1) {
      filters = mergeDimInto(builder, loc, filters, rhs.axis, filterOut);
      Value result = builder.create<ConvOp>(loc, lhs.value, filters, dims);
      return single(splitDim(builder, loc, result, outFeature, size),
                    outFeature);
    }
    // Output features in (group, member, feature of the group) order.
    int64_t groups = dims.groups;
    filters = splitDim(builder, loc, filters, filterOut, groups);
    int64_t member = rhs.axis < filterOut ? rhs.axis : rhs.axis + 1;
    filters = mergeDimInto(builder, loc, filters, member, filterOut + 1);
    int64_t groupDim = dims.rhs[0];
    filters = mergeDimInto(builder, loc, filters, groupDim, groupDim + 1);
    Value result = builder.create<ConvOp>(loc, lhs.value, filters, dims);
    result = splitDim(builder, loc, result, outFeature, groups);
    result = splitDim(builder, loc, result, outFeature + 1, size);
    result = mergeDimInto(builder, loc, result, outFeature, outFeature + 2);
    return single(result, outFeature);
  }
};

/// Pooling: the member axis gets a window of one, which is the member
/// axis folded into the batch without a reshape.
struct ReduceWindowBatching
    : BatchingOpInterface::ExternalModel<ReduceWindowBatching, ReduceWindowOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto pool = cast<ReduceWindowOp>(op);
    int64_t axis = operands[0].axis;
    Window window = pool.getWindow();
    window.dimensions.insert(window.dimensions.begin() + axis, 1);
    window.strides.insert(window.strides.begin() + axis, 1);
    window.padding.insert(window.padding.begin() + 2 * axis, {0, 0});
    auto result = builder.create<ReduceWindowOp>(op->getLoc(), pool.getKind(),
                                                 operands[0].value, window);
    return single(result, axis);
  }
};

template <typename... OpTys> void attachElementwise(MLIRContext *context) {
  (OpTys::template attachInterface<ElementwiseBatching<OpTys>>(*context), ...);
}

} // namespace

void mlir::ens::registerBatchingRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, EnsDialect *) {
    attachElementwise<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, NegOp,
                      ExpOp, LogOp, TanhOp, SigmoidOp, ReluOp, SqrtOp, RsqrtOp,
                      AbsOp, SquareOp, CmpOp, SelectOp, ConvertOp>(context);
    BroadcastInDimOp::attachInterface<BroadcastInDimBatching>(*context);
    ReshapeOp::attachInterface<ReshapeBatching>(*context);
    TransposeOp::attachInterface<TransposeBatching>(*context);
    SliceOp::attachInterface<SliceBatching>(*context);
    ConcatOp::attachInterface<ConcatBatching>(*context);
    TakeOp::attachInterface<TakeBatching>(*context);
    OneHotOp::attachInterface<OneHotBatching>(*context);
    ScatterAddOp::attachInterface<ScatterAddBatching>(*context);
    PadOp::attachInterface<PadBatching>(*context);
    RandomUniformOp::attachInterface<LeadingBatching<RandomUniformOp>>(
        *context);
    RandomNormalOp::attachInterface<LeadingBatching<RandomNormalOp>>(*context);
    RandomSplitOp::attachInterface<LeadingBatching<RandomSplitOp>>(*context);
    RandomFoldInOp::attachInterface<LeadingBatching<RandomFoldInOp>>(*context);
    ReduceSumOp::attachInterface<ReduceBatching<ReduceSumOp>>(*context);
    ReduceMaxOp::attachInterface<ReduceBatching<ReduceMaxOp>>(*context);
    ReduceMeanOp::attachInterface<ReduceBatching<ReduceMeanOp>>(*context);
    LogsumexpOp::attachInterface<ReduceBatching<LogsumexpOp>>(*context);
    SoftmaxOp::attachInterface<SoftmaxBatching<SoftmaxOp>>(*context);
    LogSoftmaxOp::attachInterface<SoftmaxBatching<LogSoftmaxOp>>(*context);
    EinsumOp::attachInterface<ContractionBatching<EinsumOp>>(*context);
    TensordotOp::attachInterface<ContractionBatching<TensordotOp>>(*context);
    MatmulOp::attachInterface<ContractionBatching<MatmulOp>>(*context);
    ConvOp::attachInterface<ConvBatching>(*context);
    ReduceWindowOp::attachInterface<ReduceWindowBatching>(*context);
  });
}
