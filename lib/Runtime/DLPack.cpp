//===- DLPack.cpp - What ens reads of DLPack tensors ----------------------===//

#include "ens/Runtime/DLPack.h"

using namespace ens::runtime;

std::optional<DType> ens::runtime::getDTypeOfDLPack(DLDataType type) {
  if (type.lanes != 1)
    return std::nullopt;
  if (type.code == kDLFloat && type.bits == 32)
    return DType::F32;
  if (type.code == kDLFloat && type.bits == 64)
    return DType::F64;
  if (type.code == kDLFloat && type.bits == 16)
    return DType::F16;
  if (type.code == kDLBfloat && type.bits == 16)
    return DType::BF16;
  if (type.code == kDLInt && type.bits == 32)
    return DType::I32;
  if (type.code == kDLUInt && type.bits == 8)
    return DType::I1;
  return std::nullopt;
}

bool ens::runtime::isCompactRowMajor(const DLTensor &tensor) {
  if (!tensor.strides)
    return true;
  int64_t stride = 1;
  for (int64_t d = tensor.ndim - 1; d >= 0; --d) {
    if (tensor.shape[d] != 1 && tensor.strides[d] != stride)
      return false;
    stride *= tensor.shape[d];
  }
  return true;
}
