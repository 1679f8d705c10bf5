//===- Npy.cpp - NumPy .npy containers ------------------------------------===//
//
// A strict reader of what NumPy writes: the header dict is parsed as the
// subset of a Python literal NumPy produces, in any key order, with either
// quote style, any whitespace between tokens and an optional trailing
// comma; everything else is an error that says what is wrong.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Npy.h"

#include <algorithm>
#include <cstring>

using namespace ens::runtime;

namespace {
/// A .npy dtype that maps onto an ens dtype.
struct NpyDType {
  const char *descr;
  DType dtype;
};
constexpr NpyDType kNpyDTypes[] = {
    {"<f2", DType::F16}, {"<f4", DType::F32}, {"<f8", DType::F64},
    {"<i4", DType::I32}, {"|b1", DType::I1},
};

/// The integer dtypes that are decoded as i32 on request (NumPy's default
/// integer is <i8; labels often come as |u1).
struct NpyInteger {
  const char *descr;
  unsigned bytes;
  bool isSigned;
};
constexpr NpyInteger kNpyIntegers[] = {
    {"|i1", 1, true},  {"|u1", 1, false}, {"<i2", 2, true},  {"<u2", 2, false},
    {"<u4", 4, false}, {"<i8", 8, true},  {"<u8", 8, false},
};

constexpr std::string_view kMagic = "\x93NUMPY";
/// The header is padded so that the data starts at a multiple of this.
constexpr size_t kHeaderAlignment = 64;
constexpr std::string_view kSpace = " \t\r\n";

/// The fields of a .npy header dict.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Parses the header dict.
class HeaderParser {
public:
  HeaderParser(std::string_view text, const std::string &name)
      : rest(text), name(name) {}

  Expected<NpyHeader> parse();

private:
  Error error(const std::string &message) const {
    return Error(name + ": bad header: " + message);
  }
  void skipSpace() {
    rest.remove_prefix(std::min(rest.find_first_not_of(kSpace), rest.size()));
  }
  /// Skips whitespace, then consumes `token` if it comes next.
  bool consume(std::string_view token) {
    skipSpace();
    if (rest.substr(0, token.size()) != token)
      return false;
    rest.remove_prefix(token.size());
    return true;
  }
  bool startsWith(char c) const { return !rest.empty() && rest.front() == c; }
  Expected<std::string> parseString();
  Expected<bool> parseBool();
  Error parseShape(std::vector<int64_t> &shape);

  std::string_view rest;
  const std::string &name;
};
} // namespace

Expected<std::string> HeaderParser::parseString() {
  skipSpace();
  if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
    return error("expected a string");
  size_t end = rest.find(rest.front(), 1);
  if (end == std::string_view::npos)
    return error("unterminated string");
  std::string value(rest.substr(1, end - 1));
  rest.remove_prefix(end + 1);
  return value;
}

Expected<bool> HeaderParser::parseBool() {
  if (consume("True"))
    return true;
  if (consume("False"))
    return false;
  return error("expected True or False");
}

Error HeaderParser::parseShape(std::vector<int64_t> &shape) {
  if (!consume("("))
    return error("expected a tuple for 'shape'");
  while (!consume(")")) {
    if (startsWith('-'))
      return Error(name + ": negative dimension in shape");
    size_t digits = std::min(rest.find_first_not_of("0123456789"), rest.size());
    if (digits == 0)
      return error("expected a dimension in 'shape'");
    int64_t size = 0;
    for (char digit : rest.substr(0, digits))
      if (__builtin_mul_overflow(size, 10, &size) ||
          __builtin_add_overflow(size, digit - '0', &size))
        return Error(name + ": shape is too large");
    shape.push_back(size);
    rest.remove_prefix(digits);
    if (!consume(",") && !startsWith(')'))
      return error("expected ',' or ')' in 'shape'");
  }
  return Error::success();
}

Expected<NpyHeader> HeaderParser::parse() {
  NpyHeader header;
  bool seenDescr = false, seenFortranOrder = false, seenShape = false;
  if (!consume("{"))
    return error("expected '{'");
  while (!consume("}")) {
    Expected<std::string> key = parseString();
    if (!key)
      return key.takeError();
    if (!consume(":"))
      return error("expected ':' after '" + *key + "'");
    if (*key == "descr" && !seenDescr) {
      seenDescr = true;
      Expected<std::string> descr = parseString();
      if (!descr)
        return descr.takeError();
      header.descr = *descr;
    } else if (*key == "fortran_order" && !seenFortranOrder) {
      seenFortranOrder = true;
      Expected<bool> fortranOrder = parseBool();
      if (!fortranOrder)
        return fortranOrder.takeError();
      header.fortranOrder = *fortranOrder;
    } else if (*key == "shape" && !seenShape) {
      seenShape = true;
      if (Error failure = parseShape(header.shape))
        return failure;
    } else {
      return error("unexpected or repeated key '" + *key + "'");
    }
    if (!consume(",") && !startsWith('}'))
      return error("expected ',' or '}'");
  }
  skipSpace();
  if (!rest.empty())
    return error("unexpected text after '}'");
  if (!seenDescr)
    return error("missing key 'descr'");
  if (!seenFortranOrder)
    return error("missing key 'fortran_order'");
  if (!seenShape)
    return error("missing key 'shape'");
  return header;
}

static uint32_t readLittleEndian(const char *data, int bytes) {
  uint32_t value = 0;
  for (int i = bytes - 1; i >= 0; --i)
    value = value << 8 | static_cast<unsigned char>(data[i]);
  return value;
}

Expected<NpyArray> ens::runtime::parseNpyArray(std::string_view bytes,
                                               const std::string &name,
                                               bool anyInteger) {
  auto fail = [&](const std::string &message) {
    return Error(name + ": " + message);
  };
  if (bytes.substr(0, kMagic.size()) != kMagic)
    return fail("not a .npy file (bad magic)");
  if (bytes.size() < kMagic.size() + 2)
    return fail("truncated header");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  unsigned minor = static_cast<uint8_t>(bytes[7]);
  // Version 3.0 only differs from 2.0 in allowing UTF-8 in field names,
  // which the dtypes supported here never have.
  if (major < 1 || major > 3 || minor != 0)
    return fail("unsupported .npy version " + std::to_string(major) + "." +
                std::to_string(minor));
  size_t prefixSize = major == 1 ? 10 : 12;
  if (bytes.size() < prefixSize)
    return fail("truncated header");
  uint64_t headerSize = readLittleEndian(bytes.data() + 8, major == 1 ? 2 : 4);
  if (bytes.size() - prefixSize < headerSize)
    return fail("truncated header: expected " + std::to_string(headerSize) +
                " bytes, got " + std::to_string(bytes.size() - prefixSize));

  Expected<NpyHeader> header =
      HeaderParser(bytes.substr(prefixSize, headerSize), name).parse();
  if (!header)
    return header.takeError();
  if (header->fortranOrder)
    return fail("Fortran-order arrays are not supported");
  if (!header->descr.empty() && header->descr.front() == '>')
    return fail("big-endian data is not supported");
  const std::string &descr = header->descr;
  const NpyDType *npyDType =
      std::find_if(std::begin(kNpyDTypes), std::end(kNpyDTypes),
                   [&](const NpyDType &info) { return descr == info.descr; });
  const NpyInteger *integer =
      std::find_if(std::begin(kNpyIntegers), std::end(kNpyIntegers),
                   [&](const NpyInteger &info) { return descr == info.descr; });
  if (npyDType == std::end(kNpyDTypes) &&
      (!anyInteger || integer == std::end(kNpyIntegers)))
    return fail("unsupported dtype '" + descr + "'");
  bool widened = npyDType == std::end(kNpyDTypes);
  DType dtype = widened ? DType::I32 : npyDType->dtype;

  // Widened integers' data holds the shape's elements of integer->bytes.
  std::optional<int64_t> dataSize = getDenseBytes(dtype, header->shape);
  if (dataSize && widened) {
    int64_t elements = *dataSize / 4, scaled;
    if (__builtin_mul_overflow(elements, int64_t(integer->bytes), &scaled))
      dataSize.reset();
    else
      dataSize = scaled;
  }
  if (!dataSize)
    return fail("shape is too large");
  std::string_view data = bytes.substr(prefixSize + headerSize);
  uint64_t expectedSize = *dataSize;
  if (data.size() != expectedSize)
    return fail(std::string(data.size() < expectedSize
                                ? "truncated data"
                                : "extra data after the array") +
                ": expected " + std::to_string(expectedSize) + " bytes, got " +
                std::to_string(data.size()));
  // NumPy itself only ever writes 0 and 1 for bools.
  if (dtype == DType::I1)
    for (size_t i = 0; i < data.size(); ++i)
      if (static_cast<uint8_t>(data[i]) > 1)
        return fail("bool element " + std::to_string(i) + " is " +
                    std::to_string(static_cast<uint8_t>(data[i])) +
                    ", not 0 or 1");
  NpyArray array{dtype, std::move(header->shape), data};
  if (widened) {
    array.integerBytes = integer->bytes;
    array.integerSigned = integer->isSigned;
  }
  return array;
}

Expected<std::string>
ens::runtime::serializeNpyArray(DType dtype, const std::vector<int64_t> &shape,
                                std::string_view data) {
  const NpyDType *npyDType =
      std::find_if(std::begin(kNpyDTypes), std::end(kNpyDTypes),
                   [&](const NpyDType &info) { return info.dtype == dtype; });
  if (npyDType == std::end(kNpyDTypes))
    return Error(std::string(getDTypeSpelling(dtype)) + " has no .npy dtype");

  // The dict is formatted as NumPy formats it.
  std::string dict = std::string("{'descr': '") + npyDType->descr +
                     "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i)
    dict += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    dict += ",";
  dict += "), }";

  // Version 1.0 unless the header length overflows its uint16 field.
  auto alignUp = [](size_t size) {
    return (size + kHeaderAlignment - 1) / kHeaderAlignment * kHeaderAlignment;
  };
  unsigned major = 1;
  size_t prefixSize = 10;
  size_t headerEnd = alignUp(prefixSize + dict.size() + 1);
  if (headerEnd - prefixSize > UINT16_MAX) {
    major = 2;
    prefixSize = 12;
    headerEnd = alignUp(prefixSize + dict.size() + 1);
  }
  std::string bytes(headerEnd, ' ');
  std::memcpy(bytes.data(), kMagic.data(), kMagic.size());
  bytes[6] = static_cast<char>(major);
  bytes[7] = 0;
  uint32_t headerSize = static_cast<uint32_t>(headerEnd - prefixSize);
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    bytes[8 + i] = static_cast<char>(headerSize >> (8 * i));
  std::memcpy(bytes.data() + prefixSize, dict.data(), dict.size());
  bytes[headerEnd - 1] = '\n';
  return bytes.append(data);
}
