//===- HostTensor.cpp - Tensors in host memory ----------------------------===//

#include "ens/Support/HostTensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <limits>

using namespace ens;

namespace {
struct DTypeInfo {
  DType dtype;
  const char *name;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::F16, "f16"}, {DType::BF16, "bf16"}, {DType::F32, "f32"},
    {DType::F64, "f64"}, {DType::I32, "i32"},   {DType::I1, "i1"},
};
} // namespace

llvm::StringRef ens::getDTypeName(DType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return info.name;
  llvm_unreachable("unknown dtype");
}

std::optional<DType> ens::parseDTypeName(llvm::StringRef name) {
  for (const DTypeInfo &info : kDTypes)
    if (name == info.name)
      return info.dtype;
  return std::nullopt;
}

bool ens::isFloatDType(DType dtype) {
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

double ens::roundToDType(double value, DType dtype) {
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
    return wrapped;
  }
  case DType::I1:
    return value != 0 ? 1 : 0;
  }
  llvm_unreachable("unknown dtype");
}

llvm::SmallVector<int64_t, 4>
ens::getRowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

int64_t ens::getNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : dtype(dtype), shape(shape.begin(), shape.end()),
      values(ens::getNumElements(shape), 0.0) {}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                       std::vector<double> values)
    : dtype(dtype), shape(shape.begin(), shape.end()),
      values(std::move(values)) {
  assert(static_cast<int64_t>(this->values.size()) ==
             ens::getNumElements(shape) &&
         "value count does not match the shape");
  roundToDType();
}

void HostTensor::roundToDType() {
  for (double &value : values)
    value = ens::roundToDType(value, dtype);
}

std::string HostTensor::getTypeString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tensor<";
  for (int64_t size : shape)
    os << size << "x";
  os << getDTypeName(dtype) << ">";
  return text;
}
