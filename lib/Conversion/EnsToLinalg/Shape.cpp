//===- Shape.cpp - Lowering ens constants and shape ops to linalg ---------===//
//
// Ops that move elements without computing on them. A broadcast reads its
// operand through a projected map and a transpose is linalg.transpose, so
// neither copies before fusion; reshapes are tensor reshapes; slices, pads
// and concatenations are tensor slice ops.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

static FailureOr<Value> lowerConstant(ConstantOp op, ConstantOp::Adaptor,
                                      OpBuilder &b) {
  return b.create<arith::ConstantOp>(op.getLoc(), op.getValue()).getResult();
}

/// Operand dimension i is read at result dimension dims[i], or at 0 where it
/// has size 1 and the result's does not (the expanding case).
static FailureOr<Value> lowerBroadcastInDim(BroadcastInDimOp op,
                                            BroadcastInDimOp::Adaptor adaptor,
                                            OpBuilder &b) {
  RankedTensorType result = op.getType();
  ArrayRef<int64_t> operandShape = tensorType(adaptor.getOperand()).getShape();
  SmallVector<AffineExpr> exprs;
  for (auto [i, d] : llvm::enumerate(op.getDims()))
    exprs.push_back(operandShape[i] == 1 && result.getDimSize(d) != 1
                        ? b.getAffineConstantExpr(0)
                        : b.getAffineDimExpr(d));
  AffineMap map = AffineMap::get(result.getRank(), 0, exprs, b.getContext());
  return generic(
      b, op.getLoc(), result, adaptor.getOperand(), map,
      [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

static FailureOr<Value> lowerReshape(ReshapeOp op, ReshapeOp::Adaptor adaptor,
                                     OpBuilder &b) {
  return reshapeTo(b, op.getLoc(), adaptor.getOperand(), op.getType());
}

static FailureOr<Value>
lowerTranspose(TransposeOp op, TransposeOp::Adaptor adaptor, OpBuilder &b) {
  RankedTensorType type = op.getType();
  Value init = b.create<tensor::EmptyOp>(op.getLoc(), type.getShape(),
                                         type.getElementType());
  return b
      .create<linalg::TransposeOp>(op.getLoc(), adaptor.getOperand(), init,
                                   op.getPermutation())
      .getResult()[0];
}

static FailureOr<Value> lowerSlice(SliceOp op, SliceOp::Adaptor adaptor,
                                   OpBuilder &b) {
  return b
      .create<tensor::ExtractSliceOp>(op.getLoc(), op.getType(),
                                      adaptor.getOperand(), ValueRange{},
                                      ValueRange{}, ValueRange{}, op.getStart(),
                                      op.getType().getShape(), op.getStride())
      .getResult();
}

/// A strided insert into zeros: `interior` zeros between elements are a
/// stride of `interior + 1`, the low padding is the offset, and the high
/// padding is what the result's shape leaves over.
static FailureOr<Value> lowerPad(PadOp op, PadOp::Adaptor adaptor,
                                 OpBuilder &b) {
  SmallVector<int64_t> strides;
  for (int64_t interior : op.getInterior())
    strides.push_back(interior + 1);
  return insertSlice(b, op.getLoc(), adaptor.getOperand(),
                     filled(b, op.getLoc(), op.getType(), 0), op.getLow(),
                     strides);
}

/// Each input inserted in turn, at the sum of the earlier inputs' sizes
/// along `dim`.
static FailureOr<Value> lowerConcat(ConcatOp op, ConcatOp::Adaptor adaptor,
                                    OpBuilder &b) {
  RankedTensorType type = op.getType();
  Value result = b.create<tensor::EmptyOp>(op.getLoc(), type.getShape(),
                                           type.getElementType());
  SmallVector<int64_t> offsets(type.getRank(), 0), strides(type.getRank(), 1);
  for (Value input : adaptor.getInputs()) {
    result = insertSlice(b, op.getLoc(), input, result, offsets, strides);
    offsets[op.getDim()] += tensorType(input).getDimSize(op.getDim());
  }
  return result;
}

void lowering::populateEnsToLinalgShapePatterns(RewritePatternSet &patterns) {
  patterns.add<OpLowering<ConstantOp, lowerConstant>,
               OpLowering<BroadcastInDimOp, lowerBroadcastInDim>,
               OpLowering<ReshapeOp, lowerReshape>,
               OpLowering<TransposeOp, lowerTranspose>,
               OpLowering<SliceOp, lowerSlice>, OpLowering<PadOp, lowerPad>,
               OpLowering<ConcatOp, lowerConcat>>(patterns.getContext());
}
