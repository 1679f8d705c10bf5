//===- Types.cpp - Tensor types and host tensors of the C++ API -----------===//

#include "Internal.h"

#include "ens/Support/TensorTypes.h"

using namespace ens;
namespace me = mlir::ens;

const char *ens::toString(DType dtype) {
  return me::getDTypeName(toInternal(dtype)).data();
}

// The public and the internal DType list the same element types in the same
// order, so that one converts to the other as it is; these tie each public
// enumerator to its internal twin, so that neither list can change alone.
static_assert(static_cast<int>(DType::F16) == static_cast<int>(me::DType::F16));
static_assert(static_cast<int>(DType::BF16) ==
              static_cast<int>(me::DType::BF16));
static_assert(static_cast<int>(DType::F32) == static_cast<int>(me::DType::F32));
static_assert(static_cast<int>(DType::F64) == static_cast<int>(me::DType::F64));
static_assert(static_cast<int>(DType::I32) == static_cast<int>(me::DType::I32));
static_assert(static_cast<int>(DType::I1) == static_cast<int>(me::DType::I1));

me::DType ens::toInternal(DType dtype) {
  switch (dtype) {
  case DType::F16:
  case DType::BF16:
  case DType::F32:
  case DType::F64:
  case DType::I32:
  case DType::I1:
    return static_cast<me::DType>(dtype);
  }
  throw Error("unknown dtype " + std::to_string(static_cast<int>(dtype)));
}

DType ens::toPublic(me::DType dtype) { return static_cast<DType>(dtype); }

mlir::Type ens::toElementType(mlir::MLIRContext *context, DType dtype) {
  return me::getElementType(context, toInternal(dtype));
}

mlir::RankedTensorType ens::toMlirType(mlir::MLIRContext *context,
                                       const TensorType &type) {
  for (int64_t size : type.shape)
    if (size < 0)
      throw Error("tensor " + type.str() + " has " +
                  (size == -1 ? "a `?` size where a size is needed"
                              : "a negative size"));
  return mlir::RankedTensorType::get(type.shape,
                                     toElementType(context, type.dtype));
}

TensorType ens::toTensorType(mlir::Type type) {
  auto tensorType = mlir::cast<mlir::RankedTensorType>(type);
  TensorType result{toPublic(*me::getDType(tensorType.getElementType())), {}};
  for (int64_t size : tensorType.getShape())
    result.shape.push_back(mlir::ShapedType::isDynamic(size) ? -1 : size);
  return result;
}

Signature ens::toSignature(mlir::FunctionType type) {
  Signature signature;
  for (mlir::Type input : type.getInputs())
    signature.inputs.push_back(toTensorType(input));
  for (mlir::Type result : type.getResults())
    signature.results.push_back(toTensorType(result));
  return signature;
}

int64_t TensorType::numElements() const { return me::getNumElements(shape); }

std::string TensorType::str() const {
  // Spelled from the sizes alone: the type may be far too large to allocate.
  // -1 is a `?` size, as Module::signature gives it; another negative size
  // is printed as it is, for toMlirType's message.
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += (size == -1 ? "?" : std::to_string(size)) + "x";
  return text + toString(dtype) + ">";
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor(TensorType type)
    : type_(std::move(type)),
      bytes_(type_.numElements() *
             me::getElementSize(toInternal(type_.dtype))) {}

Tensor::Tensor(TensorType type, const std::vector<double> &values)
    : Tensor(std::move(type)) {
  if (static_cast<int64_t>(values.size()) != type_.numElements())
    throw Error("a tensor " + type_.str() + " needs " +
                std::to_string(type_.numElements()) + " values, got " +
                std::to_string(values.size()));
  me::DType dtype = toInternal(type_.dtype);
  for (size_t i = 0; i < values.size(); ++i)
    me::storeElement(bytes_.data(), dtype, i,
                     me::roundToDType(values[i], dtype));
}

double Tensor::at(int64_t i) const {
  if (i < 0 || i >= type_.numElements())
    throw Error("index " + std::to_string(i) + " is out of range for " +
                type_.str());
  return me::loadElement(bytes_.data(), toInternal(type_.dtype), i);
}

std::vector<double> Tensor::values() const {
  std::vector<double> result;
  for (int64_t i = 0, e = type_.numElements(); i < e; ++i)
    result.push_back(at(i));
  return result;
}

DLTensor Tensor::dlpack() {
  static const DLDataType kTypes[] = {{kDLFloat, 16, 1}, {kDLBfloat, 16, 1},
                                      {kDLFloat, 32, 1}, {kDLFloat, 64, 1},
                                      {kDLInt, 32, 1},   {kDLUInt, 8, 1}};
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
