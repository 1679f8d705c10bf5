//===- ConvOp.cpp - The ens.conv op
//----------------------------------------===//
//
// The hooks of ens.conv: its dimension numbers with defaults filled in, a
// builder that infers the result type, and the verifier, all over the
// shape rule in ShapeInference.cpp.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"
#include "ens/Support/Sizes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::ens;

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

/// `values` as an attribute, or null when every entry is `neutral`, so
/// that a default prints as nothing.
static DenseI64ArrayAttr
optionalAttr(OpBuilder &builder, ArrayRef<int64_t> values, int64_t neutral) {
  if (llvm::all_of(values, [&](int64_t v) { return v == neutral; }))
    return nullptr;
  return builder.getDenseI64ArrayAttr(values);
}

/// The entries of an optional attribute, or `count` copies of `neutral`.
static Shape orDefault(std::optional<ArrayRef<int64_t>> values, int64_t count,
                       int64_t neutral) {
  return values ? Shape(values->begin(), values->end()) : Shape(count, neutral);
}

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

ConvDims ConvOp::getConvDims() {
  ConvDims dims;
  dims.lhs.assign(getLhsDims().begin(), getLhsDims().end());
  dims.rhs.assign(getRhsDims().begin(), getRhsDims().end());
  dims.out.assign(getOutDims().begin(), getOutDims().end());
  // An absent window attribute has one neutral entry per spatial dimension.
  int64_t spatial = std::max<int64_t>(0, dims.getSpatialRank());
  dims.strides = orDefault(getWindowStrides(), spatial, 1);
  dims.padding = orDefault(getPadding(), 2 * spatial, 0);
  dims.lhsDilation = orDefault(getLhsDilation(), spatial, 1);
  dims.rhsDilation = orDefault(getRhsDilation(), spatial, 1);
  dims.groups = getFeatureGroupCount();
  return dims;
}

void ConvOp::build(OpBuilder &builder, OperationState &state, Value lhs,
                   Value rhs, const ConvDims &dims) {
  FailureOr<Shape> shape =
      inferConvShape(nullptr, shapeOf(lhs), shapeOf(rhs), dims);
  if (failed(shape))
    llvm::report_fatal_error("ens.conv built from operands that fail its "
                             "shape rule");
  auto optional = [&](ArrayRef<int64_t> values, int64_t neutral) {
    return optionalAttr(builder, values, neutral);
  };
  build(builder, state,
        RankedTensorType::get(*shape,
                              cast<ShapedType>(lhs.getType()).getElementType()),
        lhs, rhs, builder.getDenseI64ArrayAttr(dims.lhs),
        builder.getDenseI64ArrayAttr(dims.rhs),
        builder.getDenseI64ArrayAttr(dims.out), optional(dims.strides, 1),
        optional(dims.padding, 0), optional(dims.lhsDilation, 1),
        optional(dims.rhsDilation, 1), builder.getI64IntegerAttr(dims.groups));
}

LogicalResult ConvOp::verify() {
  FailureOr<Shape> shape =
      inferConvShape([&] { return emitOpError(); }, shapeOf(getLhs()),
                     shapeOf(getRhs()), getConvDims());
  if (failed(shape))
    return failure();
  if (!isCompatibleShape(shapeOf(getResult()), *shape))
    return emitOpError() << "result shape " << formatShape(shapeOf(getResult()))
                         << " does not match the shape " << formatShape(*shape)
                         << " the dimension numbers give";
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceWindowOp
//===----------------------------------------------------------------------===//

Window ReduceWindowOp::getWindow() {
  Window window;
  window.dimensions.assign(getWindowDimensions().begin(),
                           getWindowDimensions().end());
  int64_t rank = shapeOf(getOperand()).size();
  window.strides = orDefault(getWindowStrides(), rank, 1);
  window.padding = orDefault(getPadding(), 2 * rank, 0);
  return window;
}

void ReduceWindowOp::build(OpBuilder &builder, OperationState &state,
                           WindowKind kind, Value operand,
                           const Window &window) {
  FailureOr<Shape> shape =
      inferReduceWindowShape(nullptr, shapeOf(operand), window);
  if (failed(shape))
    llvm::report_fatal_error("ens.reduce_window built from an operand that "
                             "fails its shape rule");
  build(builder, state,
        RankedTensorType::get(
            *shape, cast<ShapedType>(operand.getType()).getElementType()),
        WindowKindAttr::get(builder.getContext(), kind), operand,
        builder.getDenseI64ArrayAttr(window.dimensions),
        optionalAttr(builder, window.strides, 1),
        optionalAttr(builder, window.padding, 0));
}

LogicalResult ReduceWindowOp::verify() {
  FailureOr<Shape> shape = inferReduceWindowShape(
      [&] { return emitOpError(); }, shapeOf(getOperand()), getWindow());
  if (failed(shape))
    return failure();
  if (!isCompatibleShape(shapeOf(getResult()), *shape))
    return emitOpError() << "result shape " << formatShape(shapeOf(getResult()))
                         << " does not match the shape " << formatShape(*shape)
                         << " the window gives";
  return success();
}
