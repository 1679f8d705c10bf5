//===- Npy.cpp - NumPy .npy files for host tensors ------------------------===//
//
// The format is described in numpy/lib/format.py: the magic "\x93NUMPY", a
// major and a minor version byte, the header length (uint16 little-endian in
// version 1.0, uint32 in 2.0 and 3.0), the header, then the raw data. The
// header is the repr of a Python dict such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a final '\n' so that the data is 64-byte aligned.
//
// Files come from outside, so the reader checks every length before it reads
// and reports anything malformed as an error. A file is read only if it is a
// regular file within the buffer limit (getDefaultMaxBufferBytes), and the
// decoded array must fit that limit too. Files are written atomically, so a
// failed write (a full disk) keeps the previous file.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Npy.h"

#include "ens/Runtime/Npy.h"
#include "ens/Support/FileSystem.h"
#include "ens/Support/Sizes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace mlir::ens;
using namespace llvm::support::endian;

static llvm::Error makeError(llvm::StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": " + message);
}

/// Decodes one little-endian element of a float or i32 dtype.
static double decodeElement(const char *data, DType dtype) {
  switch (dtype) {
  case DType::F16:
    return llvm::APFloat(llvm::APFloat::IEEEhalf(),
                         llvm::APInt(16, read16le(data)))
        .convertToDouble();
  case DType::F32:
    return llvm::bit_cast<float>(read32le(data));
  case DType::F64:
    return llvm::bit_cast<double>(read64le(data));
  case DType::I32:
    return static_cast<int32_t>(read32le(data));
  case DType::BF16:
  case DType::I1:
    break;
  }
  llvm_unreachable("dtype has no generic .npy decoding");
}

/// Decodes element `index`, a little-endian integer of `bytes` bytes, as
/// the i32 it is read as; a value outside i32 is an error.
static llvm::Expected<int32_t> decodeInteger(const char *data, unsigned bytes,
                                             bool isSigned, int64_t index,
                                             llvm::StringRef name) {
  uint64_t raw = 0;
  for (unsigned i = bytes; i-- > 0;)
    raw = raw << 8 | static_cast<uint8_t>(data[i]);
  // Sign-extend from the element's width.
  int64_t value = static_cast<int64_t>(raw);
  if (isSigned && bytes < 8 && (raw >> (8 * bytes - 1)) & 1)
    value = static_cast<int64_t>(raw | ~uint64_t(0) << (8 * bytes));
  bool fits = isSigned ? value >= INT32_MIN && value <= INT32_MAX
                       : raw <= uint64_t(INT32_MAX);
  if (!fits)
    return makeError(
        name, "integer element " + llvm::Twine(index) + " is " +
                  (isSigned ? std::to_string(value) : std::to_string(raw)) +
                  ", outside i32, which integer arrays are "
                  "read as");
  return static_cast<int32_t>(value);
}

llvm::Expected<HostTensor> mlir::ens::parseNpy(llvm::StringRef bytes,
                                               llvm::StringRef nameForErrors) {
  ::ens::runtime::Expected<::ens::runtime::NpyArray> array =
      ::ens::runtime::parseNpyArray(bytes, nameForErrors.str(),
                                    /*anyInteger=*/true);
  if (!array)
    return toLlvmError(array.takeError());
  size_t itemSize =
      array->integerBytes ? array->integerBytes : getElementSize(array->dtype);
  int64_t numElements = array->data.size() / itemSize;
  // A HostTensor holds every element as a double, up to 8 times the bytes
  // of the file, so that size is checked before anything is allocated (it
  // cannot overflow: the data is in memory, so numElements is below 2^60).
  if (llvm::Error error =
          checkBufferBytes(numElements * static_cast<int64_t>(sizeof(double)),
                           0, "decoding its elements"))
    return makeError(nameForErrors, llvm::toString(std::move(error)));

  // The values are exact in their dtype, so they are stored without the
  // rounding the HostTensor constructor would do.
  HostTensor tensor;
  tensor.dtype = array->dtype;
  tensor.shape.assign(array->shape.begin(), array->shape.end());
  tensor.values.reserve(numElements);
  for (int64_t i = 0; i < numElements; ++i) {
    const char *element = array->data.data() + i * itemSize;
    if (array->integerBytes) {
      llvm::Expected<int32_t> value = decodeInteger(
          element, array->integerBytes, array->integerSigned, i, nameForErrors);
      if (!value)
        return value.takeError();
      tensor.values.push_back(*value);
      continue;
    }
    tensor.values.push_back(tensor.dtype == DType::I1
                                ? static_cast<uint8_t>(*element)
                                : decodeElement(element, tensor.dtype));
  }
  return tensor;
}

llvm::Expected<HostTensor> mlir::ens::readNpy(llvm::StringRef path) {
  // A device, a FIFO or a directory is refused before anything is read, and
  // no file larger than the buffer limit is read at all.
  ReadOptions options;
  options.maxBytes = getDefaultMaxBufferBytes();
  llvm::Expected<std::string> bytes = readFileBounded(path, options);
  if (!bytes) {
    // readFileBounded's messages end with ": <reason>"; here the path leads.
    std::string message = llvm::toString(bytes.takeError());
    llvm::StringRef reason = message;
    if (size_t colon = reason.rfind(": "); colon != llvm::StringRef::npos)
      reason = reason.drop_front(colon + 2);
    return makeError(path, reason);
  }
  return parseNpy(*bytes, path);
}

/// Writes `value`, already rounded to `dtype`, as one little-endian element.
static void encodeElement(char *data, double value, DType dtype) {
  switch (dtype) {
  case DType::F16: {
    llvm::APFloat half(value);
    bool losesInfo;
    half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                 &losesInfo);
    write16le(data, half.bitcastToAPInt().getZExtValue());
    return;
  }
  case DType::F32:
    write32le(data, llvm::bit_cast<uint32_t>(static_cast<float>(value)));
    return;
  case DType::F64:
    write64le(data, llvm::bit_cast<uint64_t>(value));
    return;
  case DType::I32:
    // Rounding again keeps the cast defined for out-of-range values.
    write32le(data, static_cast<int32_t>(roundToDType(value, DType::I32)));
    return;
  case DType::I1:
    *data = value != 0;
    return;
  case DType::BF16:
    break;
  }
  llvm_unreachable("dtype has no .npy encoding");
}

llvm::Expected<std::string> mlir::ens::serializeNpy(const HostTensor &tensor) {
  assert(static_cast<int64_t>(tensor.values.size()) ==
             getNumElements(tensor.shape) &&
         "value count does not match the shape");
  if (tensor.dtype == DType::BF16)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bf16 has no .npy dtype");
  size_t itemSize = getElementSize(tensor.dtype);
  std::string data(tensor.values.size() * itemSize, '\0');
  for (auto [i, value] : llvm::enumerate(tensor.values))
    encodeElement(&data[i * itemSize], value, tensor.dtype);
  ::ens::runtime::Expected<std::string> bytes =
      ::ens::runtime::serializeNpyArray(
          tensor.dtype, {tensor.shape.begin(), tensor.shape.end()}, data);
  if (!bytes)
    return toLlvmError(bytes.takeError());
  return std::move(*bytes);
}

llvm::Error mlir::ens::writeNpy(llvm::StringRef path,
                                const HostTensor &tensor) {
  // Serializing first means that a bf16 tensor creates no file at all.
  llvm::Expected<std::string> bytes = serializeNpy(tensor);
  if (!bytes)
    return makeError(path, llvm::toString(bytes.takeError()));
  if (path == "-") {
    llvm::outs() << *bytes;
    llvm::outs().flush();
    return llvm::Error::success();
  }
  return writeFileAtomically(path, *bytes);
}
