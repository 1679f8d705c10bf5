//===- Arrays.cpp - DLPack arrays for the ens Python package --------------===//
//
// Part of ens. See Arrays.h.
//
//===----------------------------------------------------------------------===//

#include "Arrays.h"

#include <memory>
#include <string>
#include <vector>

namespace nb = nanobind;
using nb::dlpack::dtype_code;

namespace ens::python {

namespace {
/// One ens element type and its DLPack dtype as ens reads and writes it.
struct DTypeEntry {
  DType dtype;
  dtype_code code;
  uint8_t bits;
};
} // namespace

static const DTypeEntry dtypeTable[] = {
    {DType::F16, dtype_code::Float, 16}, {DType::BF16, dtype_code::Bfloat, 16},
    {DType::F32, dtype_code::Float, 32}, {DType::F64, dtype_code::Float, 64},
    {DType::I32, dtype_code::Int, 32},   {DType::I1, dtype_code::Bool, 8},
};

std::string typeName(nb::handle object) {
  return nb::type_name(object.type()).c_str();
}

InArray toInArray(nb::handle object, const std::string &what) {
  InArray array;
  if (!nb::try_cast(object, array, /*convert=*/false))
    throw Error(what + " (of type " + typeName(object) +
                ") is not an array ens can read (a DLPack producer such as "
                "a NumPy array or a torch.Tensor)");
  return array;
}

OutArray toOutArray(nb::handle object, const std::string &what) {
  OutArray array;
  if (!nb::try_cast(object, array, /*convert=*/false))
    throw Error(what + " (of type " + typeName(object) +
                ") is not a writable array (a DLPack producer such as a "
                "NumPy array or a torch.Tensor)");
  return array;
}

TensorType typeOf(const InArray &array, const std::string &what) {
  nb::dlpack::dtype dtype = array.dtype();
  for (const DTypeEntry &entry : dtypeTable) {
    if (dtype.lanes == 1 && dtype.bits == entry.bits &&
        dtype.code == static_cast<uint8_t>(entry.code)) {
      TensorType type{entry.dtype, {}};
      for (size_t i = 0; i < array.ndim(); ++i)
        type.shape.push_back(array.shape(i));
      return type;
    }
  }
  throw Error(what + " has DLPack dtype (code " + std::to_string(dtype.code) +
              ", " + std::to_string(dtype.bits) + " bits, " +
              std::to_string(dtype.lanes) +
              " lanes), which ens does not support (float16, bfloat16, "
              "float32, float64, int32, bool)");
}

NewArray allocate(const TensorType &type) {
  if (type.dtype == DType::BF16)
    throw Error("a bf16 result cannot be returned as a NumPy array; pass "
                "out= arrays for it");
  const DTypeEntry *entry = nullptr;
  for (const DTypeEntry &candidate : dtypeTable)
    if (candidate.dtype == type.dtype)
      entry = &candidate;
  size_t bytes = static_cast<size_t>(type.numElements()) * entry->bits / 8;
  std::unique_ptr<std::byte[]> data(new std::byte[bytes ? bytes : 1]);
  nb::capsule owner(data.get(), [](void *pointer) noexcept {
    delete[] static_cast<std::byte *>(pointer);
  });
  std::vector<size_t> shape(type.shape.begin(), type.shape.end());
  NewArray array(
      data.release(), shape.size(), shape.data(), owner,
      /*strides=*/nullptr,
      nb::dlpack::dtype{static_cast<uint8_t>(entry->code), entry->bits, 1});
  return array;
}

uintptr_t dataPointer(nb::handle object) {
  InArray array = toInArray(object, "the object");
  return reinterpret_cast<uintptr_t>(array.data());
}

} // namespace ens::python
