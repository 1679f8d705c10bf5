//===- EnsOps.cpp - ens dialect operations --------------------------------===//
//
// Thin op hooks: verifiers and type inference delegate to ShapeInference.cpp;
// folders implement the algebraic identities of canonicalization.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"
#include "ens/Support/Sizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::ens;

#include "ens/Dialect/Ens/IR/EnsEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

/// Builds the inferred result type: `shape` with the element type of `like`.
static LogicalResult inferred(FailureOr<Shape> shape, Value like,
                              SmallVectorImpl<Type> &types) {
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(
      *shape, cast<ShapedType>(like.getType()).getElementType()));
  return success();
}

/// Whether `a` and `b` are tensors of one element type whose shapes may be
/// equal: a `?` matches any size (docs/shapes.md).
static bool isCompatibleTensorType(Type a, Type b) {
  return getElementTypeOrSelf(a) == getElementTypeOrSelf(b) &&
         succeeded(verifyCompatibleShape(a, b));
}

/// True if `attr` is a splat whose elements all equal `value`.
static bool isSplatOf(Attribute attr, double value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type elementType = splat.getElementType();
  if (isa<FloatType>(elementType))
    return splat.getSplatValue<APFloat>().convertToDouble() == value;
  if (elementType.isInteger(32))
    return splat.getSplatValue<APInt>().getSExtValue() ==
           static_cast<int64_t>(value);
  return false;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// The bytes of one element of a shaped type, rounded up to whole bytes.
static int64_t getElementBytes(ShapedType type) {
  Type element = type.getElementType();
  if (element.isIntOrFloat())
    return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
  if (auto complex = dyn_cast<ComplexType>(element))
    if (complex.getElementType().isIntOrFloat())
      return 2 *
             std::max<int64_t>(
                 1, (complex.getElementType().getIntOrFloatBitWidth() + 7) / 8);
  return 8;
}

llvm::Expected<int64_t> mlir::ens::getTypeByteSize(ShapedType type) {
  SmallVector<int64_t> sizes;
  for (int64_t size : type.getShape())
    sizes.push_back(ShapedType::isDynamic(size) ? 1 : size);
  std::string what;
  llvm::raw_string_ostream(what) << type;
  return getCheckedByteSize(sizes, getElementBytes(type), what);
}

llvm::Error mlir::ens::checkTypeSize(Type type) {
  if (auto function = dyn_cast<FunctionType>(type)) {
    for (Type inner :
         llvm::concat<const Type>(function.getInputs(), function.getResults()))
      if (llvm::Error error = checkTypeSize(inner))
        return error;
    return llvm::Error::success();
  }
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return llvm::Error::success();
  llvm::Expected<int64_t> bytes = getTypeByteSize(shaped);
  return bytes ? llvm::Error::success() : bytes.takeError();
}

LogicalResult mlir::ens::verifyValueSizes(Operation *op) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (llvm::Error error = checkTypeSize(type))
      return op->emitOpError()
             << "operand " << i << ": " << llvm::toString(std::move(error));
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (llvm::Error error = checkTypeSize(type))
      return op->emitOpError()
             << "result " << i << ": " << llvm::toString(std::move(error));
  return success();
}

LogicalResult mlir::ens::verifyShapesAgree(Operation *op) {
  ArrayRef<int64_t> shape = shapeOf(op->getOperand(0));
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (!isCompatibleShape(shapeOf(operand), shape))
      return op->emitOpError()
             << "operand " << i << " has shape "
             << formatShape(shapeOf(operand)) << " but operand 0 has shape "
             << formatShape(shape)
             << "; ens never broadcasts implicitly (use ens.broadcast_in_dim)";
  if (!isCompatibleShape(shapeOf(op->getResult(0)), shape))
    return op->emitOpError()
           << "result has shape " << formatShape(shapeOf(op->getResult(0)))
           << " but its operands have shape " << formatShape(shape)
           << "; an elementwise op keeps the shape";
  return success();
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 0.0))
    return getLhs();
  if (isSplatOf(adaptor.getLhs(), 0.0))
    return getRhs();
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 1.0))
    return getLhs();
  if (isSplatOf(adaptor.getLhs(), 1.0))
    return getRhs();
  return {};
}

LogicalResult CmpOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location>, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  types.push_back(RankedTensorType::get(shapeOf(adaptor.getLhs()),
                                        IntegerType::get(context, 1)));
  return success();
}

OpFoldResult ConvertOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  return {};
}

//===----------------------------------------------------------------------===//
// Constants and shape manipulation
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstantOp::verify() {
  if (!isa<DenseElementsAttr>(getValue()))
    return emitOpError() << "value must be dense elements, got " << getValue();
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  return verifyBroadcastInDim(getLoc(), shapeOf(getOperand()),
                              shapeOf(getResult()), getDims());
}

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType() &&
      llvm::equal(getDims(), llvm::seq<int64_t>(0, getDims().size())))
    return getOperand();
  auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getOperand());
  if (splat && getType().hasStaticShape())
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ReshapeOp::verify() {
  ArrayRef<int64_t> operand = shapeOf(getOperand());
  ArrayRef<int64_t> result = shapeOf(getResult());
  // ens-specialize resolves a `?` of the result from the element count,
  // which determines one unknown size but not two.
  if (llvm::count_if(result, ShapedType::isDynamic) > 1)
    return emitOpError() << "result shape " << formatShape(result)
                         << " may have at most one `?`";
  if (!getOperand().getType().hasStaticShape() || !getType().hasStaticShape())
    return success();
  // Ens_SizedValues has checked that neither count overflows.
  int64_t operandCount =
      llvm::cantFail(getCheckedNumElements(operand, "the operand"));
  int64_t resultCount =
      llvm::cantFail(getCheckedNumElements(result, "the result"));
  if (operandCount != resultCount)
    return emitOpError() << "cannot reshape " << formatShape(operand) << " ("
                         << operandCount << " elements) to "
                         << formatShape(result) << " (" << resultCount
                         << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  if (auto inner = getOperand().getDefiningOp<ReshapeOp>()) {
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand());
  if (dense && getType().hasStaticShape())
    return dense.reshape(getType());
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferred(inferTransposeShape(loc, shapeOf(adaptor.getOperand()),
                                      adaptor.getPermutation()),
                  adaptor.getOperand(), types);
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  bool composed = false;
  if (auto inner = getOperand().getDefiningOp<TransposeOp>()) {
    // transpose(transpose(x, p), q)[i] = x[p[q[i]]].
    ArrayRef<int64_t> p = inner.getPermutation();
    SmallVector<int64_t> permutation;
    for (int64_t q : getPermutation())
      permutation.push_back(p[q]);
    getOperandMutable().assign(inner.getOperand());
    setPermutation(permutation);
    composed = true;
  }
  if (llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getPermutation().size())))
    return getOperand();
  return composed ? getResult() : OpFoldResult();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  return inferred(inferSliceShape(loc, shapeOf(adaptor.getOperand()),
                                  adaptor.getStart(), adaptor.getLimit(),
                                  adaptor.getStride()),
                  adaptor.getOperand(), types);
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(loc, "needs at least one input");
  SmallVector<Shape> shapes;
  for (Value input : adaptor.getInputs())
    shapes.push_back(Shape(shapeOf(input)));
  return inferred(inferConcatShape(loc, shapes, adaptor.getDim()),
                  adaptor.getInputs().front(), types);
}

LogicalResult TakeOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  return inferred(inferTakeShape(loc, shapeOf(adaptor.getTable()),
                                 shapeOf(adaptor.getIndices()),
                                 adaptor.getAxis()),
                  adaptor.getTable(), types);
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  return inferred(inferPadShape(loc, shapeOf(adaptor.getOperand()),
                                adaptor.getLow(), adaptor.getHigh(),
                                adaptor.getInterior()),
                  adaptor.getOperand(), types);
}

LogicalResult ScatterAddOp::verify() {
  FailureOr<Shape> updates = inferTakeShape(getLoc(), shapeOf(getResult()),
                                            shapeOf(getIndices()), getAxis());
  if (failed(updates))
    return failure();
  if (!isCompatibleShape(*updates, shapeOf(getUpdates())))
    return emitOpError() << "updates have shape "
                         << formatShape(shapeOf(getUpdates()))
                         << " but taking these indices from the result "
                            "would give "
                         << formatShape(*updates);
  return success();
}

LogicalResult OneHotOp::verify() {
  ArrayRef<int64_t> indices = shapeOf(getIndices());
  ArrayRef<int64_t> result = shapeOf(getResult());
  if (result.size() != indices.size() + 1 ||
      !isCompatibleShape(result.drop_back(), indices))
    return emitOpError() << "result shape " << formatShape(result)
                         << " must be the indices shape "
                         << formatShape(indices) << " followed by the depth";
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

#define ENS_REDUCE_INFERENCE(OP)                                               \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, Adaptor adaptor,             \
      SmallVectorImpl<Type> &types) {                                          \
    return inferred(inferReduceShape(loc, shapeOf(adaptor.getOperand()),       \
                                     adaptor.getDims()),                       \
                    adaptor.getOperand(), types);                              \
  }
ENS_REDUCE_INFERENCE(ReduceSumOp)
ENS_REDUCE_INFERENCE(ReduceMaxOp)
ENS_REDUCE_INFERENCE(ReduceMeanOp)
ENS_REDUCE_INFERENCE(LogsumexpOp)
#undef ENS_REDUCE_INFERENCE

LogicalResult EinsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  FailureOr<EinsumSpec> spec = EinsumSpec::parse(adaptor.getSpec(), loc);
  if (failed(spec))
    return failure();
  return inferred(inferEinsumShape(loc, *spec, shapeOf(adaptor.getLhs()),
                                   shapeOf(adaptor.getRhs())),
                  adaptor.getLhs(), types);
}

LogicalResult TensordotOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferred(inferTensordotShape(
                      loc, shapeOf(adaptor.getLhs()), shapeOf(adaptor.getRhs()),
                      adaptor.getLhsDims(), adaptor.getRhsDims()),
                  adaptor.getLhs(), types);
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferred(inferMatmulShape(loc, shapeOf(adaptor.getLhs()),
                                   shapeOf(adaptor.getRhs())),
                  adaptor.getLhs(), types);
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  return verifyDimInRange(getLoc(), "dim", getDim(),
                          shapeOf(getOperand()).size());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifyDimInRange(getLoc(), "dim", getDim(),
                          shapeOf(getOperand()).size());
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

/// Checks that `key` is a batch of keys (last dimension 2) and returns the
/// batch shape.
static FailureOr<ArrayRef<int64_t>> verifyKey(Operation *op, Value key) {
  ArrayRef<int64_t> shape = shapeOf(key);
  if (shape.empty() || !isCompatibleSize(shape.back(), 2))
    return op->emitOpError() << "key must have a last dimension of 2 (two "
                                "32-bit words), got shape "
                             << formatShape(shape);
  return shape.drop_back();
}

/// Draws and derived keys lead with the key's batch shape.
static LogicalResult verifyKeyBatchLeads(Operation *op, Value key,
                                         Value result) {
  FailureOr<ArrayRef<int64_t>> batch = verifyKey(op, key);
  if (failed(batch))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(result);
  if (shape.size() < batch->size() ||
      !isCompatibleShape(shape.take_front(batch->size()), *batch))
    return op->emitOpError()
           << "result shape " << formatShape(shape)
           << " must start with the key batch shape " << formatShape(*batch);
  return success();
}

LogicalResult RandomUniformOp::verify() {
  return verifyKeyBatchLeads(*this, getKey(), getResult());
}

LogicalResult RandomNormalOp::verify() {
  return verifyKeyBatchLeads(*this, getKey(), getResult());
}

LogicalResult RandomSplitOp::verify() {
  if (failed(verifyKeyBatchLeads(*this, getKey(), getResult())))
    return failure();
  ArrayRef<int64_t> key = shapeOf(getKey()), result = shapeOf(getResult());
  if (result.size() != key.size() + 1 || !isCompatibleSize(result.back(), 2))
    return emitOpError() << "result shape " << formatShape(result)
                         << " must be the key batch shape, the number of "
                            "keys, then 2";
  return success();
}

LogicalResult RandomFoldInOp::verify() {
  FailureOr<ArrayRef<int64_t>> batch = verifyKey(*this, getKey());
  if (failed(batch))
    return failure();
  if (!isCompatibleShape(shapeOf(getData()), *batch))
    return emitOpError() << "data shape " << formatShape(shapeOf(getData()))
                         << " must equal the key batch shape "
                         << formatShape(*batch);
  if (getResult().getType() != getKey().getType())
    return emitOpError() << "result type must equal the key type";
  return success();
}

//===----------------------------------------------------------------------===//
// Function transforms
//===----------------------------------------------------------------------===//

LogicalResult VmapOp::verify() {
  int64_t size = getSize();
  if (size < 1)
    return emitOpError() << "size must be at least 1, got " << size;
  // Member indices are i32 wherever they become data (random keys, take).
  if (size > std::numeric_limits<int32_t>::max())
    return emitOpError() << "size must be at most "
                         << std::numeric_limits<int32_t>::max()
                         << " (member indices are i32), got " << size;
  if (getRandomness() != "different" && getRandomness() != "same")
    return emitOpError() << "randomness must be \"different\" or \"same\", "
                            "got \""
                         << getRandomness() << "\"";
  if (getInAxes().size() != getArgs().size())
    return emitOpError() << "has " << getInAxes().size() << " in_axes for "
                         << getArgs().size() << " arguments";
  if (getOutAxes().size() != getNumResults())
    return emitOpError() << "has " << getOutAxes().size() << " out_axes for "
                         << getNumResults() << " results";
  for (auto [i, arg, axis] : llvm::enumerate(getArgs(), getInAxes())) {
    if (axis == -1)
      continue;
    ArrayRef<int64_t> shape = shapeOf(arg);
    if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
      return emitOpError() << "in_axes[" << i << "] = " << axis
                           << " is out of range for argument " << i
                           << " of rank " << shape.size()
                           << " (use -1 for a shared argument)";
    if (!isCompatibleSize(shape[axis], size))
      return emitOpError() << "argument " << i << " has size " << shape[axis]
                           << " along its batch axis " << axis
                           << " but size is " << size;
  }
  for (auto [j, result, axis] : llvm::enumerate(getResults(), getOutAxes())) {
    ArrayRef<int64_t> shape = shapeOf(result);
    if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
      return emitOpError() << "out_axes[" << j << "] = " << axis
                           << " is out of range for result " << j << " of rank "
                           << shape.size();
    if (!isCompatibleSize(shape[axis], size))
      return emitOpError() << "result " << j << " has size " << shape[axis]
                           << " along its batch axis " << axis
                           << " but size is " << size;
  }
  return success();
}

/// `type` without dimension `axis`, or `type` itself for a shared value.
static Type memberType(Type type, int64_t axis) {
  if (axis == -1)
    return type;
  auto tensorType = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensorType.getShape());
  shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, tensorType.getElementType());
}

LogicalResult VmapOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "callee @" << getCallee()
                         << " is not a function in this module";
  FunctionType type = callee.getFunctionType();
  if (type.getNumInputs() != getArgs().size())
    return emitOpError() << "passes " << getArgs().size() << " arguments to @"
                         << getCallee() << ", which takes "
                         << type.getNumInputs();
  if (type.getNumResults() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but @"
                         << getCallee() << " returns " << type.getNumResults();
  for (auto [i, arg, axis, expected] :
       llvm::enumerate(getArgs(), getInAxes(), type.getInputs())) {
    Type member = memberType(arg.getType(), axis);
    if (!isCompatibleTensorType(member, expected))
      return emitOpError() << "argument " << i << " gives each member "
                           << member << " but @" << getCallee() << " takes "
                           << expected;
  }
  for (auto [j, result, axis, expected] :
       llvm::enumerate(getResults(), getOutAxes(), type.getResults())) {
    Type member = memberType(result.getType(), axis);
    if (!isCompatibleTensorType(member, expected))
      return emitOpError() << "result " << j << " holds " << member
                           << " per member but @" << getCallee() << " returns "
                           << expected;
  }
  return success();
}

LogicalResult ValueAndGradOp::verify() {
  auto lossType = getNumResults()
                      ? dyn_cast<RankedTensorType>(getResult(0).getType())
                      : RankedTensorType();
  if (!lossType || lossType.getRank() != 0 ||
      !(lossType.getElementType().isF32() || lossType.getElementType().isF64()))
    return emitOpError() << "first result must be the loss, a rank-0 f32 or "
                            "f64 tensor";
  if (getNumResults() != 1 + getWrt().size())
    return emitOpError() << "has " << getNumResults()
                         << " results but returns the loss and "
                         << getWrt().size() << " gradients";
  int64_t numArgs = getArgs().size();
  for (auto [k, index] : llvm::enumerate(getWrt())) {
    if (index < 0 || index >= numArgs)
      return emitOpError() << "wrt[" << k << "] = " << index
                           << " is not an argument index (there are " << numArgs
                           << " arguments)";
    if (llvm::is_contained(getWrt().take_front(k), index))
      return emitOpError() << "wrt names argument " << index << " twice";
    Type argType = getArgs()[index].getType();
    if (!isa<FloatType>(getElementTypeOrSelf(argType)))
      return emitOpError() << "cannot differentiate with respect to argument "
                           << index << " of integer or boolean type "
                           << argType;
    if (getResult(1 + k).getType() != argType)
      return emitOpError() << "gradient " << k << " has type "
                           << getResult(1 + k).getType() << " but argument "
                           << index << " has type " << argType;
  }
  return success();
}

LogicalResult
ValueAndGradOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "callee @" << getCallee()
                         << " is not a function in this module";
  FunctionType type = callee.getFunctionType();
  if (type.getNumInputs() != getArgs().size() ||
      !llvm::all_of(llvm::zip_equal(getArgs().getTypes(), type.getInputs()),
                    [](auto types) {
                      return isCompatibleTensorType(std::get<0>(types),
                                                    std::get<1>(types));
                    }))
    return emitOpError() << "argument types " << getArgs().getTypes()
                         << " do not match @" << getCallee() << "'s inputs "
                         << type.getInputs();
  if (type.getNumResults() == 0 ||
      !isCompatibleTensorType(type.getResult(0), getResult(0).getType()))
    return emitOpError() << "@" << getCallee() << " must return the loss "
                         << getResult(0).getType() << " first";
  return success();
}

#define GET_OP_CLASSES
#include "ens/Dialect/Ens/IR/EnsOps.cpp.inc"
