//===- TensorTypes.cpp - ens element and tensor types in MLIR -------------===//

#include "ens/Support/TensorTypes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ens;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

std::optional<DType> mlir::ens::getDType(Type type) {
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (type.isSignlessInteger(32))
    return DType::I32;
  if (type.isSignlessInteger(1))
    return DType::I1;
  return std::nullopt;
}

Type mlir::ens::getElementType(MLIRContext *context, DType dtype) {
  Builder b(context);
  switch (dtype) {
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  case DType::F32:
    return b.getF32Type();
  case DType::F64:
    return b.getF64Type();
  case DType::I32:
    return b.getI32Type();
  case DType::I1:
    return b.getI1Type();
  }
  llvm_unreachable("unknown dtype");
}

/// Formats `type` as MLIR prints it.
static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

llvm::Error mlir::ens::checkTensorType(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape() ||
      !getDType(tensorType.getElementType()))
    return createStringError(
        inconvertibleErrorCode(),
        llvm::formatv("{0} is not a statically shaped tensor of f16, bf16, "
                      "f32, f64, i32 or i1",
                      typeToString(type)));
  // Zero sizes are skipped so that the strides of an empty tensor are
  // bounded too.
  int64_t count = 1;
  for (int64_t size : tensorType.getShape())
    if (size != 0 &&
        (llvm::MulOverflow(count, size, count) || count > kMaxTensorElements))
      return createStringError(
          inconvertibleErrorCode(),
          llvm::formatv("{0} is too large for the interpreter, which holds "
                        "at most {1} elements per tensor",
                        typeToString(type), kMaxTensorElements));
  return llvm::Error::success();
}

/// True if `tensor` has exactly the ranked tensor type `type`.
static bool hasType(const HostTensor &tensor, Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  return tensorType && tensorType.getShape() == ArrayRef(tensor.shape) &&
         getDType(tensorType.getElementType()) == tensor.dtype;
}

llvm::Expected<::ens::runtime::Signature>
mlir::ens::getRuntimeSignature(FunctionType type) {
  ::ens::runtime::Signature signature;
  for (auto [types, specs, what] :
       {std::tuple(type.getInputs(), &signature.args, "argument"),
        std::tuple(type.getResults(), &signature.results, "result")})
    for (auto [i, type] : llvm::enumerate(types)) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      std::optional<DType> dtype =
          tensor ? getDType(tensor.getElementType()) : std::nullopt;
      if (!dtype || !tensor.hasStaticShape())
        return createStringError(
            inconvertibleErrorCode(),
            llvm::formatv("{0} {1} is a {2}; ens needs tensors of static "
                          "shape and an ens element type",
                          what, i, typeToString(type)));
      specs->push_back(
          {"", *dtype, {tensor.getShape().begin(), tensor.getShape().end()}});
    }
  return signature;
}

llvm::Error mlir::ens::checkArguments(FunctionType type,
                                      ArrayRef<HostTensor> args) {
  if (args.size() != type.getNumInputs())
    return createStringError(inconvertibleErrorCode(),
                             llvm::formatv("expected {0} argument(s), got {1}",
                                           type.getNumInputs(), args.size()));
  for (auto [i, arg, expected] : llvm::enumerate(args, type.getInputs())) {
    if (arg.getNumElements() != getNumElements(arg.shape))
      return createStringError(
          inconvertibleErrorCode(),
          llvm::formatv("argument {0}: holds {1} values for shape {2}", i,
                        arg.getNumElements(), arg.getTypeString()));
    if (!hasType(arg, expected))
      return createStringError(
          inconvertibleErrorCode(),
          llvm::formatv("argument {0}: expected {1}, got {2}", i,
                        typeToString(expected), arg.getTypeString()));
  }
  return llvm::Error::success();
}

llvm::Error mlir::ens::checkBuffers(StringRef what, ArrayRef<BufferRef> buffers,
                                    TypeRange types) {
  if (buffers.size() != types.size())
    return createStringError(inconvertibleErrorCode(),
                             llvm::formatv("expected {0} {1}, got {2}",
                                           types.size(), what, buffers.size()));
  for (auto [i, buffer, type] : llvm::enumerate(buffers, types)) {
    auto tensorType = cast<RankedTensorType>(type);
    if (!buffer.data && tensorType.getNumElements() != 0)
      return createStringError(inconvertibleErrorCode(),
                               llvm::formatv("{0} {1} has no data", what, i));
    DType dtype = *getDType(tensorType.getElementType());
    if (buffer.shape != tensorType.getShape() || buffer.dtype != dtype)
      return createStringError(
          inconvertibleErrorCode(),
          llvm::formatv("{0} {1}: expected {2}, got {3}", what, i,
                        getTensorTypeString(dtype, tensorType.getShape()),
                        getTensorTypeString(buffer.dtype, buffer.shape)));
  }
  return llvm::Error::success();
}
