//===- Types.cpp - Tensor types and host tensors of the C++ API -----------===//

#include "Internal.h"

#include "ens/Interpreter/Interpreter.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace ens;

const char *ens::toString(DType dtype) {
  return mlir::ens::getDTypeName(toInternal(dtype)).data();
}

mlir::ens::DType ens::toInternal(DType dtype) {
  return static_cast<mlir::ens::DType>(dtype);
}

DType ens::toPublic(mlir::ens::DType dtype) {
  return static_cast<DType>(dtype);
}

mlir::Type ens::toElementType(mlir::MLIRContext *context, DType dtype) {
  mlir::Builder b(context);
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
  throw Error("unknown dtype");
}

mlir::RankedTensorType ens::toMlirType(mlir::MLIRContext *context,
                                       const TensorType &type) {
  for (int64_t size : type.shape)
    if (size < 0)
      throw Error("tensor " + type.str() + " has a negative size");
  return mlir::RankedTensorType::get(type.shape,
                                     toElementType(context, type.dtype));
}

TensorType ens::toTensorType(mlir::Type type) {
  auto tensorType = mlir::cast<mlir::RankedTensorType>(type);
  return TensorType{
      toPublic(*mlir::ens::getDType(tensorType.getElementType())),
      std::vector<int64_t>(tensorType.getShape().begin(),
                           tensorType.getShape().end())};
}

Signature ens::toSignature(mlir::FunctionType type) {
  Signature signature;
  for (mlir::Type input : type.getInputs())
    signature.inputs.push_back(toTensorType(input));
  for (mlir::Type result : type.getResults())
    signature.results.push_back(toTensorType(result));
  return signature;
}

int64_t TensorType::numElements() const {
  return mlir::ens::getNumElements(shape);
}

std::string TensorType::str() const {
  // Spelled from the sizes alone: the type may be far too large to allocate,
  // and a negative size is printed as it is, for toMlirType's message.
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += std::to_string(size) + "x";
  return text + toString(dtype) + ">";
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor(TensorType type)
    : type_(std::move(type)),
      bytes_(type_.numElements() *
             mlir::ens::getElementSize(toInternal(type_.dtype))) {}

/// Rounds through APFloat for the 16-bit formats, returning the bits.
static uint16_t toHalfBits(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(value);
  bool losesInfo;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

static double fromHalfBits(uint16_t bits, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(semantics, llvm::APInt(16, bits));
  bool losesInfo;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

Tensor::Tensor(TensorType type, const std::vector<double> &values)
    : Tensor(std::move(type)) {
  if (static_cast<int64_t>(values.size()) != type_.numElements())
    throw Error("a tensor " + type_.str() + " needs " +
                std::to_string(type_.numElements()) + " values, got " +
                std::to_string(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    double value = mlir::ens::roundToDType(values[i], toInternal(type_.dtype));
    std::byte *at = bytes_.data() + i * mlir::ens::getElementSize(
                                            toInternal(type_.dtype));
    auto put = [&](auto typed) { std::memcpy(at, &typed, sizeof(typed)); };
    switch (type_.dtype) {
    case DType::F16:
      put(toHalfBits(value, llvm::APFloat::IEEEhalf()));
      break;
    case DType::BF16:
      put(toHalfBits(value, llvm::APFloat::BFloat()));
      break;
    case DType::F32:
      put(static_cast<float>(value));
      break;
    case DType::F64:
      put(value);
      break;
    case DType::I32:
      put(static_cast<int32_t>(value));
      break;
    case DType::I1:
      put(static_cast<uint8_t>(value != 0));
      break;
    }
  }
}

double Tensor::at(int64_t i) const {
  if (i < 0 || i >= type_.numElements())
    throw Error("index " + std::to_string(i) + " is out of range for " +
                type_.str());
  const std::byte *at =
      bytes_.data() + i * mlir::ens::getElementSize(toInternal(type_.dtype));
  auto get = [&](auto typed) {
    std::memcpy(&typed, at, sizeof(typed));
    return typed;
  };
  switch (type_.dtype) {
  case DType::F16:
    return fromHalfBits(get(uint16_t()), llvm::APFloat::IEEEhalf());
  case DType::BF16:
    return fromHalfBits(get(uint16_t()), llvm::APFloat::BFloat());
  case DType::F32:
    return get(float());
  case DType::F64:
    return get(double());
  case DType::I32:
    return get(int32_t());
  case DType::I1:
    return get(uint8_t()) & 1;
  }
  throw Error("unknown dtype");
}

std::vector<double> Tensor::values() const {
  std::vector<double> result;
  for (int64_t i = 0, e = type_.numElements(); i < e; ++i)
    result.push_back(at(i));
  return result;
}

DLTensor Tensor::dlpack() {
  static const DLDataType kTypes[] = {
      {kDLFloat, 16, 1}, {kDLBfloat, 16, 1}, {kDLFloat, 32, 1},
      {kDLFloat, 64, 1}, {kDLInt, 32, 1},    {kDLUInt, 8, 1}};
  dlShape_ = type_.shape;
  DLTensor tensor{};
  tensor.data = bytes_.data();
  tensor.device = {kDLCPU, 0};
  tensor.ndim = static_cast<int32_t>(dlShape_.size());
  tensor.dtype = kTypes[static_cast<int>(type_.dtype)];
  tensor.shape = dlShape_.data();
  tensor.strides = nullptr;
  tensor.byte_offset = 0;
  return tensor;
}
