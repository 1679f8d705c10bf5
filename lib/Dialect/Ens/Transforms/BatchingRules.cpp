//===- BatchingRules.cpp - The batching rule of every ens op --------------===//
//
// One rule per op, attached through BatchingOpInterface. Rules follow JAX's
// discipline: a shared operand stays shared wherever the op can take it so
// (contractions and gathers keep shared weights and data unbatched), and the
// batch axis is tracked rather than normalised, so it moves only where an op
// needs it in a particular place (reshape, and operands of elementwise ops
// that disagree).
//
//===----------------------------------------------------------------------===//

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

/// The member's dims keep their mapping, shifted past a leading batch dim.
struct BroadcastInDimBatching
    : BatchingOpInterface::ExternalModel<BroadcastInDimBatching,
                                         BroadcastInDimOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto broadcast = cast<BroadcastInDimOp>(op);
    int64_t axis = operands[0].axis;
    ArrayRef<int64_t> dims = broadcast.getDims();
    SmallVector<int64_t> batchedDims;
    for (int64_t d = 0; d <= static_cast<int64_t>(dims.size()); ++d)
      batchedDims.push_back(d == axis ? 0 : dims[d < axis ? d : d - 1] + 1);
    auto result = builder.create<BroadcastInDimOp>(
        op->getLoc(), insertBatchDim(broadcast.getType(), 0, size),
        operands[0].value, batchedDims);
    return single(result, 0);
  }
};

/// A reshape reorders nothing only if the batch leads, so it moves there.
struct ReshapeBatching
    : BatchingOpInterface::ExternalModel<ReshapeBatching, ReshapeOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    Value leading = moveBatchAxis(builder, op->getLoc(), operands[0].value,
                                  operands[0].axis, 0);
    return single(cloneBatched(builder, op, leading, 0, size)->getResult(0),
                  0);
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
    auto result = builder.create<TransposeOp>(op->getLoc(), operands[0].value,
                                              batched);
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
        op->getLoc(), aligned,
        toBatchedDim(cast<ConcatOp>(op).getDim(), axis));
    return single(result, axis);
  }
};

/// A shared table with batched indices, or a batched table with shared
/// indices, is one take. When both are batched, each member's rows are
/// gathered from its own table by flattening the member axis into the
/// gathered axis and offsetting each member's (clamped) indices.
struct TakeBatching
    : BatchingOpInterface::ExternalModel<TakeBatching, TakeOp> {
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
    SmallVector<int64_t> flatShape(shapeOf(tableValue));
    int64_t rows = flatShape[axis + 1];
    flatShape[axis] *= rows;
    flatShape.erase(flatShape.begin() + axis + 1);
    auto tableType = cast<RankedTensorType>(tableValue.getType());
    Value flatTable = builder.create<ReshapeOp>(
        loc, RankedTensorType::get(flatShape, tableType.getElementType()),
        tableValue);

    Value index = moveBatchAxis(builder, loc, indices.value, indices.axis, 0);
    auto indexType = cast<RankedTensorType>(index.getType());
    auto splat = [&](int64_t value) -> Value {
      return builder.create<ConstantOp>(
          loc, DenseElementsAttr::get(indexType,
                                      builder.getI32IntegerAttr(value)
                                          .getValue()));
    };
    Value clamped = builder.create<MinOp>(
        loc, builder.create<MaxOp>(loc, index, splat(0)), splat(rows - 1));
    SmallVector<int32_t> offsets;
    for (int64_t member = 0; member < size; ++member)
      offsets.push_back(static_cast<int32_t>(member * rows));
    Value memberOffsets = builder.create<ConstantOp>(
        loc, DenseElementsAttr::get(
                 RankedTensorType::get({size}, indexType.getElementType()),
                 ArrayRef<int32_t>(offsets)));
    Value offsetGrid = builder.create<BroadcastInDimOp>(
        loc, indexType, memberOffsets, ArrayRef<int64_t>{0});
    Value flatIndex = builder.create<AddOp>(loc, clamped, offsetGrid);
    auto result = builder.create<TakeOp>(loc, flatTable, flatIndex, axis);
    return single(result, axis);
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
    auto result =
        builder.create<OpTy>(op->getLoc(), operands[0].value, dims);
    return single(result, axis - reducedBefore);
  }
};

template <typename OpTy>
struct SoftmaxBatching
    : BatchingOpInterface::ExternalModel<SoftmaxBatching<OpTy>, OpTy> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    int64_t axis = operands[0].axis;
    auto result = builder.create<OpTy>(
        op->getLoc(), operands[0].value,
        toBatchedDim(cast<OpTy>(op).getDim(), axis));
    return single(result, axis);
  }
};

//===----------------------------------------------------------------------===//
// Contractions: all become one einsum with a fresh label for the batch.
//===----------------------------------------------------------------------===//

/// Emits the member contraction `spec` over batched operands: the batch gets
/// a label of its own on each batched operand and leads the output, while a
/// shared operand keeps its labels and is not broadcast.
Batched batchContraction(OpBuilder &builder, Operation *op,
                         const EinsumSpec &spec, BatchedValue lhs,
                         BatchedValue rhs) {
  std::string used = spec.lhs + spec.rhs;
  char label = 'a';
  while (label <= 'z' && used.find(label) != std::string::npos)
    ++label;
  if (label > 'z')
    return op->emitOpError()
           << "cannot be batched: all 26 einsum labels are in use";
  EinsumSpec batched = spec;
  if (lhs.isBatched())
    batched.lhs.insert(batched.lhs.begin() + lhs.axis, label);
  if (rhs.isBatched())
    batched.rhs.insert(batched.rhs.begin() + rhs.axis, label);
  batched.out.insert(batched.out.begin(), label);
  auto result = builder.create<EinsumOp>(op->getLoc(), lhs.value, rhs.value,
                                         builder.getStringAttr(batched.str()));
  return single(result, 0);
}

/// Letters for labels numbered 0, 1, ...; fails past 'y', leaving 'z' free
/// is not needed because batchContraction picks any unused letter.
FailureOr<std::string> toLetters(Operation *op, ArrayRef<int64_t> labels) {
  std::string letters;
  for (int64_t label : labels) {
    if (label >= 26)
      return op->emitOpError() << "cannot be batched: it needs more than 26 "
                                  "einsum labels";
    letters.push_back(static_cast<char>('a' + label));
  }
  return letters;
}

struct EinsumBatching
    : BatchingOpInterface::ExternalModel<EinsumBatching, EinsumOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    FailureOr<EinsumSpec> spec =
        EinsumSpec::parse(cast<EinsumOp>(op).getSpec(), op->getLoc());
    if (failed(spec))
      return failure();
    return batchContraction(builder, op, *spec, operands[0], operands[1]);
  }
};

/// tensordot has no batch dimensions, which is why a model written for one
/// example uses it; as an einsum it gains one.
struct TensordotBatching
    : BatchingOpInterface::ExternalModel<TensordotBatching, TensordotOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto dot = cast<TensordotOp>(op);
    int64_t lhsRank = cast<RankedTensorType>(dot.getLhs().getType()).getRank();
    int64_t rhsRank = cast<RankedTensorType>(dot.getRhs().getType()).getRank();
    ArrayRef<int64_t> lhsDims = dot.getLhsDims(), rhsDims = dot.getRhsDims();
    SmallVector<int64_t> lhsLabels, rhsLabels, outLabels;
    for (int64_t d = 0; d < lhsRank; ++d) {
      lhsLabels.push_back(d);
      if (!llvm::is_contained(lhsDims, d))
        outLabels.push_back(d);
    }
    for (int64_t d = 0; d < rhsRank; ++d) {
      const int64_t *pair = llvm::find(rhsDims, d);
      int64_t label =
          pair != rhsDims.end() ? lhsDims[pair - rhsDims.begin()] : lhsRank + d;
      rhsLabels.push_back(label);
      if (pair == rhsDims.end())
        outLabels.push_back(label);
    }
    FailureOr<std::string> lhs = toLetters(op, lhsLabels),
                           rhs = toLetters(op, rhsLabels),
                           out = toLetters(op, outLabels);
    if (failed(lhs) || failed(rhs) || failed(out))
      return failure();
    return batchContraction(builder, op, EinsumSpec{*lhs, *rhs, *out},
                            operands[0], operands[1]);
  }
};

/// matmul as an einsum: rank-1 operands contribute just the contracted
/// label; batch dims of size 1 that broadcast against a larger one are
/// reshaped away so that the other operand's label alone indexes the output.
struct MatmulBatching
    : BatchingOpInterface::ExternalModel<MatmulBatching, MatmulOp> {
  Batched batch(Operation *op, OpBuilder &builder,
                ArrayRef<BatchedValue> operands, int64_t size) const {
    auto matmul = cast<MatmulOp>(op);
    ArrayRef<int64_t> lhsShape = shapeOf(matmul.getLhs());
    ArrayRef<int64_t> rhsShape = shapeOf(matmul.getRhs());
    ArrayRef<int64_t> outShape = shapeOf(matmul.getResult());
    bool lhsVector = lhsShape.size() == 1, rhsVector = rhsShape.size() == 1;
    int64_t batchRank = static_cast<int64_t>(outShape.size()) - !lhsVector -
                        !rhsVector;
    // Labels: batch dims 0..batchRank-1, then m, k, n.
    int64_t m = batchRank, k = batchRank + 1, n = batchRank + 2;

    // Labels and kept dims of one operand; `matrixDims` are its trailing
    // non-batch dims' labels.
    auto operandLabels = [&](ArrayRef<int64_t> shape,
                             ArrayRef<int64_t> matrixDims,
                             SmallVector<int64_t> &dropped) {
      SmallVector<int64_t> labels;
      int64_t operandBatch = shape.size() - matrixDims.size();
      for (int64_t d = 0; d < operandBatch; ++d) {
        int64_t label = batchRank - operandBatch + d;
        if (shape[d] == 1 && outShape[label] != 1)
          dropped.push_back(d);
        else
          labels.push_back(label);
      }
      labels.append(matrixDims.begin(), matrixDims.end());
      return labels;
    };
    SmallVector<int64_t> lhsDropped, rhsDropped;
    SmallVector<int64_t> lhsLabels = operandLabels(
        lhsShape, lhsVector ? ArrayRef<int64_t>{k} : ArrayRef<int64_t>{m, k},
        lhsDropped);
    SmallVector<int64_t> rhsLabels = operandLabels(
        rhsShape, rhsVector ? ArrayRef<int64_t>{k} : ArrayRef<int64_t>{k, n},
        rhsDropped);
    auto outLabels = llvm::to_vector(llvm::seq<int64_t>(0, batchRank));
    if (!lhsVector)
      outLabels.push_back(m);
    if (!rhsVector)
      outLabels.push_back(n);

    auto dropDims = [&](BatchedValue operand, ArrayRef<int64_t> dropped) {
      if (dropped.empty())
        return operand;
      SmallVector<int64_t> shape(shapeOf(operand.value));
      int64_t axis = operand.axis;
      for (int64_t d : llvm::reverse(dropped)) {
        int64_t batched =
            operand.isBatched() ? toBatchedDim(d, operand.axis) : d;
        shape.erase(shape.begin() + batched);
        if (operand.isBatched() && d < operand.axis)
          --axis;
      }
      auto type = cast<RankedTensorType>(operand.value.getType());
      Value reshaped = builder.create<ReshapeOp>(
          op->getLoc(), RankedTensorType::get(shape, type.getElementType()),
          operand.value);
      return BatchedValue{reshaped, axis};
    };
    FailureOr<std::string> lhs = toLetters(op, lhsLabels),
                           rhs = toLetters(op, rhsLabels),
                           out = toLetters(op, outLabels);
    if (failed(lhs) || failed(rhs) || failed(out))
      return failure();
    return batchContraction(builder, op, EinsumSpec{*lhs, *rhs, *out},
                            dropDims(operands[0], lhsDropped),
                            dropDims(operands[1], rhsDropped));
  }
};

template <typename... OpTys>
void attachElementwise(MLIRContext *context) {
  (OpTys::template attachInterface<ElementwiseBatching<OpTys>>(*context), ...);
}

} // namespace

void mlir::ens::registerBatchingRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, EnsDialect *) {
    attachElementwise<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, NegOp,
                      ExpOp, LogOp, TanhOp, SigmoidOp, ReluOp, SqrtOp,
                      RsqrtOp, AbsOp, SquareOp, CmpOp, SelectOp, ConvertOp>(
        context);
    BroadcastInDimOp::attachInterface<BroadcastInDimBatching>(*context);
    ReshapeOp::attachInterface<ReshapeBatching>(*context);
    TransposeOp::attachInterface<TransposeBatching>(*context);
    SliceOp::attachInterface<SliceBatching>(*context);
    ConcatOp::attachInterface<ConcatBatching>(*context);
    TakeOp::attachInterface<TakeBatching>(*context);
    OneHotOp::attachInterface<OneHotBatching>(*context);
    ReduceSumOp::attachInterface<ReduceBatching<ReduceSumOp>>(*context);
    ReduceMaxOp::attachInterface<ReduceBatching<ReduceMaxOp>>(*context);
    ReduceMeanOp::attachInterface<ReduceBatching<ReduceMeanOp>>(*context);
    LogsumexpOp::attachInterface<ReduceBatching<LogsumexpOp>>(*context);
    SoftmaxOp::attachInterface<SoftmaxBatching<SoftmaxOp>>(*context);
    LogSoftmaxOp::attachInterface<SoftmaxBatching<LogSoftmaxOp>>(*context);
    EinsumOp::attachInterface<EinsumBatching>(*context);
    TensordotOp::attachInterface<TensordotBatching>(*context);
    MatmulOp::attachInterface<MatmulBatching>(*context);
  });
}
