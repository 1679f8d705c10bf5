//===- HostTensor.cpp - Tensors in host memory ----------------------------===//

#include "ens/Support/HostTensor.h"

#include <cstring>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::ens;

llvm::StringRef mlir::ens::getDTypeName(DType dtype) {
  return ::ens::runtime::getDTypeSpelling(dtype);
}

std::optional<DType> mlir::ens::parseDTypeName(llvm::StringRef name) {
  return ::ens::runtime::parseDTypeSpelling(name);
}

bool mlir::ens::isFloatDType(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

/// Rounds through APFloat for the formats C++ has no type for.
static double roundThrough(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(value);
  bool losesInfo;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

double mlir::ens::roundToDType(double value, DType dtype) {
  switch (dtype) {
  case DType::F64:
    return value;
  case DType::F32:
    return static_cast<float>(value);
  case DType::F16:
    return roundThrough(value, llvm::APFloat::IEEEhalf());
  case DType::BF16:
    return roundThrough(value, llvm::APFloat::BFloat());
  case DType::I32: {
    if (std::isnan(value))
      return 0;
    // Integer arithmetic is carried out exactly in double and wraps here;
    // saturation only applies to conversions from huge floats.
    double truncated = std::trunc(value);
    constexpr double kTwo64 = 18446744073709551616.0;
    if (std::fabs(truncated) >= kTwo64)
      return truncated > 0 ? std::numeric_limits<int32_t>::max()
                           : std::numeric_limits<int32_t>::min();
    double wrapped = std::fmod(truncated, 4294967296.0);
    if (wrapped >= 2147483648.0)
      wrapped -= 4294967296.0;
    else if (wrapped < -2147483648.0)
      wrapped += 4294967296.0;
    return wrapped + 0.0; // Integers have no negative zero.
  }
  case DType::I1:
    return value != 0 ? 1 : 0;
  }
  llvm_unreachable("unknown dtype");
}

size_t mlir::ens::getElementSize(DType dtype) {
  return ::ens::runtime::getDTypeBytes(dtype);
}

/// The bits of `value` rounded to a 16-bit float format.
static uint16_t toHalfBits(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(value);
  bool losesInfo;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

void mlir::ens::storeElement(void *data, DType dtype, int64_t i, double value) {
  auto put = [&](auto typed) {
    std::memcpy(static_cast<char *>(data) + i * sizeof(typed), &typed,
                sizeof(typed));
  };
  switch (dtype) {
  case DType::F16:
    return put(toHalfBits(value, llvm::APFloat::IEEEhalf()));
  case DType::BF16:
    return put(toHalfBits(value, llvm::APFloat::BFloat()));
  case DType::F64:
    return put(value);
  case DType::F32:
    return put(static_cast<float>(value));
  case DType::I32:
    return put(static_cast<int32_t>(value));
  case DType::I1:
    return put(static_cast<uint8_t>(value != 0));
  }
  llvm_unreachable("unknown dtype");
}

void HostTensor::storeTo(void *data) const {
  for (int64_t i = 0, e = getNumElements(); i < e; ++i)
    storeElement(data, dtype, i, values[i]);
}

HostTensor HostTensor::loadFrom(DType dtype, llvm::ArrayRef<int64_t> shape,
                                const void *data) {
  HostTensor tensor(dtype, shape);
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
    tensor.values[i] = loadElement(data, dtype, i);
  return tensor;
}

llvm::SmallVector<int64_t, 4>
mlir::ens::getRowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  // Only the strides of an empty shape can overflow (a zero dimension leaves
  // the others unchecked); nothing reads them, so they saturate.
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    int64_t stride;
    strides[d] = llvm::MulOverflow(strides[d + 1], shape[d + 1], stride)
                     ? std::numeric_limits<int64_t>::max()
                     : stride;
  }
  return strides;
}

int64_t mlir::ens::getNumElements(llvm::ArrayRef<int64_t> shape) {
  // A zero anywhere makes the product 0, even where the dimensions before
  // it would overflow: (2^40, 2^40, 0) is a valid, empty shape.
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : dtype(dtype), shape(shape.begin(), shape.end()),
      values(mlir::ens::getNumElements(shape), 0.0) {}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                       std::vector<double> values)
    : dtype(dtype), shape(shape.begin(), shape.end()),
      values(std::move(values)) {
  assert(static_cast<int64_t>(this->values.size()) ==
             mlir::ens::getNumElements(shape) &&
         "value count does not match the shape");
  roundToDType();
}

void HostTensor::roundToDType() {
  for (double &value : values)
    value = mlir::ens::roundToDType(value, dtype);
}

std::string mlir::ens::getTensorTypeString(DType dtype,
                                           llvm::ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tensor<";
  for (int64_t size : shape)
    os << size << "x";
  os << getDTypeName(dtype) << ">";
  return text;
}

std::string HostTensor::getTypeString() const {
  return getTensorTypeString(dtype, shape);
}

/// Appends one element in the shortest form that reads back exactly.
static void printElement(llvm::raw_ostream &os, double value, DType dtype) {
  if (dtype == DType::I1) {
    os << (value != 0 ? "true" : "false");
    return;
  }
  if (dtype == DType::I32) {
    os << static_cast<int64_t>(value);
    return;
  }
  char buffer[64];
  std::to_chars_result end =
      dtype == DType::F64
          ? std::to_chars(buffer, buffer + sizeof(buffer), value)
          : std::to_chars(buffer, buffer + sizeof(buffer),
                          static_cast<float>(value));
  os << llvm::StringRef(buffer, end.ptr - buffer);
}

void mlir::ens::printHostTensor(llvm::raw_ostream &os,
                                const HostTensor &tensor) {
  llvm::SmallVector<int64_t, 4> strides = getRowMajorStrides(tensor.shape);
  // Prints the sub-tensor of dimension `dim` starting at element `offset`.
  auto print = [&](auto &self, size_t dim, int64_t offset) -> void {
    if (dim == tensor.shape.size()) {
      printElement(os, tensor.values[offset], tensor.dtype);
      return;
    }
    os << "[";
    for (int64_t i = 0; i < tensor.shape[dim]; ++i) {
      if (i)
        os << ", ";
      self(self, dim + 1, offset + i * strides[dim]);
    }
    os << "]";
  };
  print(print, 0, 0);
}
