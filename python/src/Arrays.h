//===- Arrays.h - DLPack arrays for the ens Python package ------*- C++ -*-===//
//
// Conversions between the arrays Python passes (any DLPack producer, through
// nanobind's ndarray) and what include/ens/ens.h takes: DLTensor views that
// share the caller's memory, the TensorType of an array, and new arrays for
// results.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_PYTHON_ARRAYS_H
#define ENS_PYTHON_ARRAYS_H

#include <ens/ens.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <string>

namespace ens::python {

/// An array the bindings read: any DLPack producer, read-only allowed.
using InArray = nanobind::ndarray<nanobind::ro>;
/// An array the bindings write.
using OutArray = nanobind::ndarray<>;
/// A result allocated by the bindings, returned as a NumPy array (which is
/// itself a DLPack producer).
using NewArray = nanobind::ndarray<nanobind::numpy>;

/// The Python type name of `object`, for messages.
std::string typeName(nanobind::handle object);

/// `object` as an array, or an ens::Error naming `what` (e.g. "argument 2")
/// when it is no DLPack producer (or is read-only and `writable` is asked).
InArray toInArray(nanobind::handle object, const std::string &what);
OutArray toOutArray(nanobind::handle object, const std::string &what);

/// A DLTensor sharing `array`'s memory, shape and strides (valid while
/// `array` lives). Booleans are presented as uint8, ens's spelling of i1.
template <typename... Args>
DLTensor toDLTensor(const nanobind::ndarray<Args...> &array) {
  DLTensor tensor{};
  tensor.data = const_cast<void *>(static_cast<const void *>(array.data()));
  tensor.device = {static_cast<DLDeviceType>(array.device_type()),
                   array.device_id()};
  tensor.ndim = static_cast<int32_t>(array.ndim());
  nanobind::dlpack::dtype dtype = array.dtype();
  tensor.dtype = {dtype.code, dtype.bits, dtype.lanes};
  if (dtype.code == static_cast<uint8_t>(nanobind::dlpack::dtype_code::Bool))
    tensor.dtype.code = kDLUInt;
  tensor.shape = const_cast<int64_t *>(array.shape_ptr());
  tensor.strides = const_cast<int64_t *>(array.stride_ptr());
  return tensor;
}

/// The ens TensorType of `array`, or an ens::Error naming `what` when ens
/// has no element type for its dtype.
TensorType typeOf(const InArray &array, const std::string &what);

/// A new host array of `type`, uninitialised.
NewArray allocate(const TensorType &type);

/// The address of an array's first element as the bindings see it.
uintptr_t dataPointer(nanobind::handle object);

} // namespace ens::python

#endif // ENS_PYTHON_ARRAYS_H
