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

namespace {
/// A .npy dtype that maps onto an ens dtype.
struct NpyDType {
  llvm::StringLiteral descr;
  DType dtype;
  unsigned itemSize;
};
constexpr NpyDType kNpyDTypes[] = {
    {"<f2", DType::F16, 2}, {"<f4", DType::F32, 4}, {"<f8", DType::F64, 8},
    {"<i4", DType::I32, 4}, {"|b1", DType::I1, 1},
};

constexpr llvm::StringLiteral kMagic = "\x93NUMPY";
/// The header is padded so that the data starts at a multiple of this.
constexpr size_t kHeaderAlignment = 64;

/// The fields of a .npy header dict.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t, 4> shape;
};

/// Parses the header dict, a Python literal. Only the subset NumPy writes is
/// accepted, but in any key order, with either quote style, any whitespace
/// between tokens and an optional trailing comma.
class HeaderParser {
public:
  HeaderParser(llvm::StringRef text, llvm::StringRef name)
      : rest(text), name(name) {}

  llvm::Expected<NpyHeader> parse();

private:
  llvm::Error error(const llvm::Twine &message) const;
  /// Skips whitespace, then consumes `token` if it comes next.
  bool consume(llvm::StringRef token);
  llvm::Expected<llvm::StringRef> parseString();
  llvm::Expected<bool> parseBool();
  llvm::Error parseShape(llvm::SmallVectorImpl<int64_t> &shape);

  llvm::StringRef rest;
  llvm::StringRef name;
};
} // namespace

static llvm::Error makeError(llvm::StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": " + message);
}

llvm::Error HeaderParser::error(const llvm::Twine &message) const {
  return makeError(name, "bad header: " + message);
}

bool HeaderParser::consume(llvm::StringRef token) {
  rest = rest.ltrim(" \t\r\n");
  return rest.consume_front(token);
}

llvm::Expected<llvm::StringRef> HeaderParser::parseString() {
  rest = rest.ltrim(" \t\r\n");
  if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
    return error("expected a string");
  size_t end = rest.find(rest.front(), 1);
  if (end == llvm::StringRef::npos)
    return error("unterminated string");
  llvm::StringRef value = rest.slice(1, end);
  rest = rest.drop_front(end + 1);
  return value;
}

llvm::Expected<bool> HeaderParser::parseBool() {
  if (consume("True"))
    return true;
  if (consume("False"))
    return false;
  return error("expected True or False");
}

llvm::Error HeaderParser::parseShape(llvm::SmallVectorImpl<int64_t> &shape) {
  if (!consume("("))
    return error("expected a tuple for 'shape'");
  while (!consume(")")) {
    if (rest.starts_with("-"))
      return makeError(name, "negative dimension in shape");
    llvm::StringRef digits =
        rest.take_front(rest.find_first_not_of("0123456789"));
    if (digits.empty())
      return error("expected a dimension in 'shape'");
    int64_t size;
    if (digits.getAsInteger(10, size))
      return makeError(name, "shape is too large");
    shape.push_back(size);
    rest = rest.drop_front(digits.size());
    if (!consume(",") && !rest.starts_with(")"))
      return error("expected ',' or ')' in 'shape'");
  }
  return llvm::Error::success();
}

llvm::Expected<NpyHeader> HeaderParser::parse() {
  NpyHeader header;
  bool seenDescr = false, seenFortranOrder = false, seenShape = false;
  if (!consume("{"))
    return error("expected '{'");
  while (!consume("}")) {
    llvm::Expected<llvm::StringRef> key = parseString();
    if (!key)
      return key.takeError();
    if (!consume(":"))
      return error("expected ':' after '" + *key + "'");
    if (*key == "descr" && !seenDescr) {
      seenDescr = true;
      llvm::Expected<llvm::StringRef> descr = parseString();
      if (!descr)
        return descr.takeError();
      header.descr = descr->str();
    } else if (*key == "fortran_order" && !seenFortranOrder) {
      seenFortranOrder = true;
      llvm::Expected<bool> fortranOrder = parseBool();
      if (!fortranOrder)
        return fortranOrder.takeError();
      header.fortranOrder = *fortranOrder;
    } else if (*key == "shape" && !seenShape) {
      seenShape = true;
      if (llvm::Error err = parseShape(header.shape))
        return std::move(err);
    } else {
      return error("unexpected or repeated key '" + *key + "'");
    }
    if (!consume(",") && !rest.starts_with("}"))
      return error("expected ',' or '}'");
  }
  if (!rest.trim(" \t\r\n").empty())
    return error("unexpected text after '}'");
  if (!seenDescr)
    return error("missing key 'descr'");
  if (!seenFortranOrder)
    return error("missing key 'fortran_order'");
  if (!seenShape)
    return error("missing key 'shape'");
  return header;
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

llvm::Expected<HostTensor> mlir::ens::parseNpy(llvm::StringRef bytes,
                                               llvm::StringRef nameForErrors) {
  llvm::StringRef name = nameForErrors;
  if (!bytes.starts_with(kMagic))
    return makeError(name, "not a .npy file (bad magic)");
  if (bytes.size() < kMagic.size() + 2)
    return makeError(name, "truncated header");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  unsigned minor = static_cast<uint8_t>(bytes[7]);
  // Version 3.0 only differs from 2.0 in allowing UTF-8 in field names,
  // which the dtypes supported here never have.
  if (major < 1 || major > 3 || minor != 0)
    return makeError(name, "unsupported .npy version " + llvm::Twine(major) +
                               "." + llvm::Twine(minor));
  size_t prefixSize = major == 1 ? 10 : 12;
  if (bytes.size() < prefixSize)
    return makeError(name, "truncated header");
  uint64_t headerSize =
      major == 1 ? read16le(bytes.data() + 8) : read32le(bytes.data() + 8);
  if (bytes.size() - prefixSize < headerSize)
    return makeError(name, "truncated header: expected " +
                               llvm::Twine(headerSize) + " bytes, got " +
                               llvm::Twine(bytes.size() - prefixSize));

  llvm::Expected<NpyHeader> header =
      HeaderParser(bytes.substr(prefixSize, headerSize), name).parse();
  if (!header)
    return header.takeError();
  if (header->fortranOrder)
    return makeError(name, "Fortran-order arrays are not supported");
  if (llvm::StringRef(header->descr).starts_with(">"))
    return makeError(name, "big-endian data is not supported");
  const NpyDType *npyDType =
      llvm::find_if(kNpyDTypes, [&](const NpyDType &info) {
        return info.descr == header->descr;
      });
  if (npyDType == std::end(kNpyDTypes))
    return makeError(name, "unsupported dtype '" + header->descr + "'");

  llvm::Expected<int64_t> dataSize =
      getCheckedByteSize(header->shape, npyDType->itemSize, "the array");
  if (!dataSize) {
    llvm::consumeError(dataSize.takeError());
    return makeError(name, "shape is too large");
  }
  // Exact: the byte size is the element count times the item size.
  int64_t numElements = *dataSize / npyDType->itemSize;
  llvm::StringRef data = bytes.drop_front(prefixSize + headerSize);
  uint64_t expectedSize = *dataSize;
  if (data.size() != expectedSize) {
    llvm::StringRef problem = data.size() < expectedSize
                                  ? "truncated data"
                                  : "extra data after the array";
    return makeError(name, problem + ": expected " + llvm::Twine(expectedSize) +
                               " bytes, got " + llvm::Twine(data.size()));
  }

  // A HostTensor holds every element as a double, up to 8 times the bytes
  // of the file, so that size is checked before anything is allocated (it
  // cannot overflow: the data is in memory, so numElements is below 2^60).
  if (llvm::Error error =
          checkBufferBytes(numElements * static_cast<int64_t>(sizeof(double)),
                           0, "decoding its elements"))
    return makeError(name, llvm::toString(std::move(error)));

  // The values are exact in their dtype, so they are stored without the
  // rounding the HostTensor constructor would do.
  HostTensor tensor;
  tensor.dtype = npyDType->dtype;
  tensor.shape = header->shape;
  tensor.values.reserve(numElements);
  for (int64_t i = 0; i < numElements; ++i) {
    const char *element = data.data() + i * npyDType->itemSize;
    if (tensor.dtype != DType::I1) {
      tensor.values.push_back(decodeElement(element, tensor.dtype));
      continue;
    }
    // NumPy itself only ever writes 0 and 1 for bools.
    uint8_t byte = static_cast<uint8_t>(*element);
    if (byte > 1)
      return makeError(name, "bool element " + llvm::Twine(i) + " is " +
                                 llvm::Twine(static_cast<unsigned>(byte)) +
                                 ", not 0 or 1");
    tensor.values.push_back(byte);
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
  const NpyDType *npyDType =
      llvm::find_if(kNpyDTypes, [&](const NpyDType &info) {
        return info.dtype == tensor.dtype;
      });
  if (npyDType == std::end(kNpyDTypes))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   getDTypeName(tensor.dtype) +
                                       " has no .npy dtype");

  // The dict is formatted as NumPy formats it.
  std::string dict;
  llvm::raw_string_ostream os(dict);
  os << "{'descr': '" << npyDType->descr
     << "', 'fortran_order': False, 'shape': (";
  llvm::interleave(tensor.shape, os, ", ");
  if (tensor.shape.size() == 1)
    os << ",";
  os << "), }";

  // Version 1.0 unless the header length overflows its uint16 field.
  unsigned major = 1;
  size_t prefixSize = 10;
  size_t headerEnd =
      llvm::alignTo(prefixSize + dict.size() + 1, kHeaderAlignment);
  if (headerEnd - prefixSize > UINT16_MAX) {
    major = 2;
    prefixSize = 12;
    headerEnd = llvm::alignTo(prefixSize + dict.size() + 1, kHeaderAlignment);
  }

  std::string bytes(headerEnd + tensor.values.size() * npyDType->itemSize, ' ');
  llvm::copy(kMagic, bytes.begin());
  bytes[6] = static_cast<char>(major);
  bytes[7] = 0;
  if (major == 1)
    write16le(&bytes[8], static_cast<uint16_t>(headerEnd - prefixSize));
  else
    write32le(&bytes[8], static_cast<uint32_t>(headerEnd - prefixSize));
  llvm::copy(dict, bytes.begin() + prefixSize);
  bytes[headerEnd - 1] = '\n';
  for (auto [i, value] : llvm::enumerate(tensor.values))
    encodeElement(&bytes[headerEnd + i * npyDType->itemSize], value,
                  tensor.dtype);
  return bytes;
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
