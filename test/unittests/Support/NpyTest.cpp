//===- NpyTest.cpp - Tests of .npy reading and writing --------------------===//
//
// The fixtures are byte-exact files written by NumPy, so that the reader is
// checked against the real format and not only against the writer.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <csignal>
#include <cstdlib>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace mlir::ens;

namespace {

// The fixtures below are the bytes NumPy 2.4.6 writes (under python3) with
//   f = io.BytesIO(); np.save(f, ARRAY); f.getvalue()
// where ARRAY is given in each comment; kNumPyI32V2 used
// np.lib.format.write_array(f, ARRAY, version=(2, 0)) instead of np.save.
// The header dict and its space padding are spelled out as text; every other
// byte is an escape.

// np.array([[1, 2, 3], [4, 5, 6]], dtype='<f4')
constexpr char kNumPyF32[] =
    "\x93NUMPY\x01\x00\x76\x00"
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                          "
    "\n"
    "\x00\x00\x80\x3f\x00\x00\x00\x40"
    "\x00\x00\x40\x40\x00\x00\x80\x40"
    "\x00\x00\xa0\x40\x00\x00\xc0\x40";

// np.array([-1, 0, 2147483647, -2147483648, 7], dtype='<i4'), version 2.0
constexpr char kNumPyI32V2[] =
    "\x93NUMPY\x02\x00\x74\x00\x00\x00"
    "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }"
    "                                                          "
    "\n"
    "\xff\xff\xff\xff\x00\x00\x00\x00"
    "\xff\xff\xff\x7f\x00\x00\x00\x80"
    "\x07\x00\x00\x00";

// np.array([0.5, -2.0, 65504.0, 2.0**-24], dtype='<f2')
constexpr char kNumPyF16[] =
    "\x93NUMPY\x01\x00\x76\x00"
    "{'descr': '<f2', 'fortran_order': False, 'shape': (4,), }"
    "                                                            "
    "\n"
    "\x00\x38\x00\xc0\xff\x7b\x01\x00";

// np.array([True, False, True])
constexpr char kNumPyBool[] =
    "\x93NUMPY\x01\x00\x76\x00"
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }"
    "                                                            "
    "\n"
    "\x01\x00\x01";

// np.array(3.25, dtype='<f8')
constexpr char kNumPyF64Scalar[] =
    "\x93NUMPY\x01\x00\x76\x00"
    "{'descr': '<f8', 'fortran_order': False, 'shape': (), }"
    "                                                              "
    "\n"
    "\x00\x00\x00\x00\x00\x00\x0a\x40";

/// The bytes of a string literal, including embedded NULs.
template <size_t N> llvm::StringRef bytesOf(const char (&literal)[N]) {
  return llvm::StringRef(literal, N - 1);
}

struct NumPyFixture {
  const char *name;
  llvm::StringRef bytes;
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<double> values;
  /// The size of the data after the header.
  size_t dataSize;
};

std::vector<NumPyFixture> getNumPyFixtures() {
  return {
      {"f32", bytesOf(kNumPyF32), DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}, 24},
      {"i32 v2.0",
       bytesOf(kNumPyI32V2),
       DType::I32,
       {5},
       {-1, 0, 2147483647, -2147483648.0, 7},
       20},
      {"f16",
       bytesOf(kNumPyF16),
       DType::F16,
       {4},
       {0.5, -2, 65504, 5.9604644775390625e-08},
       8},
      {"bool", bytesOf(kNumPyBool), DType::I1, {3}, {1, 0, 1}, 3},
      {"f64 scalar", bytesOf(kNumPyF64Scalar), DType::F64, {}, {3.25}, 8},
  };
}

/// Builds a .npy file by hand: magic, version `major`.0, the little-endian
/// length of `dict` (which is not padded), `dict`, then `data`.
std::string makeNpy(llvm::StringRef dict, llvm::StringRef data,
                    unsigned major = 1) {
  std::string bytes("\x93NUMPY", 6);
  bytes += static_cast<char>(major);
  bytes += '\0';
  unsigned lengthBytes = major == 1 ? 2 : 4;
  for (unsigned i = 0; i < lengthBytes; ++i)
    bytes += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  bytes += dict;
  bytes += data;
  return bytes;
}

/// A valid header for a <i4 array of `shape`, for malformed-data tests.
std::string i32Dict(llvm::StringRef shape) {
  return ("{'descr': '<i4', 'fortran_order': False, 'shape': " + shape + ", }")
      .str();
}

/// Checks that parsing `bytes` fails with a message that names the file and
/// contains `expected`.
::testing::AssertionResult failsWith(llvm::StringRef bytes,
                                     llvm::StringRef expected) {
  llvm::Expected<HostTensor> tensor = parseNpy(bytes, "a.npy");
  if (tensor)
    return ::testing::AssertionFailure() << "parsed without an error";
  std::string message = llvm::toString(tensor.takeError());
  if (!llvm::StringRef(message).starts_with("a.npy: ") ||
      !llvm::StringRef(message).contains(expected))
    return ::testing::AssertionFailure()
           << "error \"" << message << "\" lacks \"" << expected.str() << "\"";
  return ::testing::AssertionSuccess();
}

/// Equality that treats all NaNs as equal and, for floats, tells -0 from 0.
bool sameValue(double a, double b, DType dtype) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && (!isFloatDType(dtype) || std::signbit(a) == std::signbit(b));
}

void expectSameTensor(const HostTensor &actual, const HostTensor &expected) {
  EXPECT_EQ(actual.dtype, expected.dtype);
  EXPECT_EQ(llvm::ArrayRef(actual.shape).vec(),
            llvm::ArrayRef(expected.shape).vec());
  ASSERT_EQ(actual.values.size(), expected.values.size());
  for (size_t i = 0; i < actual.values.size(); ++i)
    EXPECT_TRUE(sameValue(actual.values[i], expected.values[i], expected.dtype))
        << "element " << i << ": " << actual.values[i]
        << " != " << expected.values[i];
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

TEST(NpyTest, ReadsNumPyFiles) {
  for (const NumPyFixture &fixture : getNumPyFixtures()) {
    SCOPED_TRACE(fixture.name);
    llvm::Expected<HostTensor> tensor = parseNpy(fixture.bytes, "a.npy");
    ASSERT_TRUE(static_cast<bool>(tensor))
        << llvm::toString(tensor.takeError());
    EXPECT_EQ(tensor->dtype, fixture.dtype);
    EXPECT_EQ(llvm::ArrayRef(tensor->shape).vec(), fixture.shape);
    EXPECT_EQ(tensor->values, fixture.values);
  }
}

TEST(NpyTest, ReadsAnyKeyOrderQuoteStyleAndSpacing) {
  std::string data("\x01\x00\x00\x00\xfe\xff\xff\xff", 8);
  for (llvm::StringRef dict :
       {"{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<i4\"}",
        "{'fortran_order':False,'descr':'<i4','shape':(2,),}",
        " { 'descr' : '<i4' ,\n 'shape' : ( 2 , ) ,\t'fortran_order' : "
        "False , } \n",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (2)}"}) {
    SCOPED_TRACE(dict.str());
    llvm::Expected<HostTensor> tensor = parseNpy(makeNpy(dict, data), "a.npy");
    ASSERT_TRUE(static_cast<bool>(tensor))
        << llvm::toString(tensor.takeError());
    expectSameTensor(*tensor, HostTensor(DType::I32, {2}, {1, -2}));
  }
}

TEST(NpyTest, ReadsVersion3) {
  llvm::Expected<HostTensor> tensor = parseNpy(
      makeNpy(i32Dict("(1,)"), llvm::StringRef("\x05\0\0\0", 4), 3), "a.npy");
  ASSERT_TRUE(static_cast<bool>(tensor)) << llvm::toString(tensor.takeError());
  expectSameTensor(*tensor, HostTensor(DType::I32, {1}, {5}));
}

TEST(NpyTest, ReadsSizeZeroArrays) {
  llvm::Expected<HostTensor> tensor =
      parseNpy(makeNpy(i32Dict("(2, 0, 3)"), ""), "a.npy");
  ASSERT_TRUE(static_cast<bool>(tensor)) << llvm::toString(tensor.takeError());
  expectSameTensor(*tensor, HostTensor(DType::I32, {2, 0, 3}));
}

//===----------------------------------------------------------------------===//
// Malformed input
//===----------------------------------------------------------------------===//

TEST(NpyTest, RejectsBadMagic) {
  EXPECT_TRUE(failsWith("", "not a .npy file (bad magic)"));
  EXPECT_TRUE(failsWith("\x93NUMP", "not a .npy file (bad magic)"));
  std::string bytes = bytesOf(kNumPyF32).str();
  bytes[1] = 'n';
  EXPECT_TRUE(failsWith(bytes, "not a .npy file (bad magic)"));
}

TEST(NpyTest, RejectsUnsupportedVersions) {
  std::string bytes = bytesOf(kNumPyF32).str();
  bytes[6] = 4;
  EXPECT_TRUE(failsWith(bytes, "unsupported .npy version 4.0"));
  bytes[6] = 1;
  bytes[7] = 1;
  EXPECT_TRUE(failsWith(bytes, "unsupported .npy version 1.1"));
}

TEST(NpyTest, RejectsTruncatedHeaders) {
  EXPECT_TRUE(failsWith("\x93NUMPY", "truncated header"));
  EXPECT_TRUE(failsWith(llvm::StringRef("\x93NUMPY\x01\x00\x76", 9),
                        "truncated header"));
  EXPECT_TRUE(failsWith(llvm::StringRef("\x93NUMPY\x02\x00\x76\x00\x00", 11),
                        "truncated header"));
  EXPECT_TRUE(failsWith(bytesOf(kNumPyF32).take_front(30),
                        "truncated header: expected 118 bytes, got 20"));
}

TEST(NpyTest, RejectsEveryPrefixOfAFile) {
  for (const NumPyFixture &fixture : getNumPyFixtures()) {
    SCOPED_TRACE(fixture.name);
    for (size_t size = 0; size < fixture.bytes.size(); ++size)
      EXPECT_TRUE(failsWith(fixture.bytes.take_front(size), "")) << size;
  }
}

TEST(NpyTest, SurvivesCorruptedBytes) {
  // Any answer will do, as long as there is no crash and errors are
  // reported properly.
  for (const NumPyFixture &fixture : getNumPyFixtures()) {
    for (size_t i = 0; i < fixture.bytes.size(); ++i) {
      for (char replacement : {'\0', '\xff', '(', ',', '}', '\'', '9', '-'}) {
        std::string bytes = fixture.bytes.str();
        bytes[i] = replacement;
        llvm::Expected<HostTensor> tensor = parseNpy(bytes, "a.npy");
        if (!tensor) {
          EXPECT_TRUE(llvm::StringRef(llvm::toString(tensor.takeError()))
                          .starts_with("a.npy: "));
        }
      }
    }
  }
}

TEST(NpyTest, RejectsWrongDataSizes) {
  std::string data(16, '\0');
  EXPECT_TRUE(
      failsWith(makeNpy(i32Dict("(3,)"), llvm::StringRef(data).take_front(8)),
                "truncated data: expected 12 bytes, got 8"));
  EXPECT_TRUE(
      failsWith(makeNpy(i32Dict("(3,)"), data),
                "extra data after the array: expected 12 bytes, got 16"));
  EXPECT_TRUE(failsWith(makeNpy(i32Dict("()"), ""),
                        "truncated data: expected 4 bytes, got 0"));
  EXPECT_TRUE(failsWith(makeNpy(i32Dict("(0,)"), "x"),
                        "extra data after the array: expected 0 bytes, got 1"));
}

TEST(NpyTest, RejectsBadDictSyntax) {
  const std::pair<llvm::StringRef, llvm::StringRef> cases[] = {
      {"", "bad header: expected '{'"},
      {"'descr': '<i4'", "bad header: expected '{'"},
      {"{'descr' '<i4'}", "bad header: expected ':' after 'descr'"},
      {"{'descr': '<i4}", "bad header: unterminated string"},
      {"{'descr': <i4}", "bad header: expected a string"},
      {"{descr: '<i4'}", "bad header: expected a string"},
      {"{'descr': '<i4' 'shape': ()}", "bad header: expected ',' or '}'"},
      {"{'descr': '<i4', 'shape': (),", "bad header: expected a string"},
      {"{'descr': '<i4', 'fortran_order': false, 'shape': ()}",
       "bad header: expected True or False"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': [2]}",
       "bad header: expected a tuple for 'shape'"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (2 3)}",
       "bad header: expected ',' or ')' in 'shape'"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (,)}",
       "bad header: expected a dimension in 'shape'"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (2.0,)}",
       "bad header: expected ',' or ')' in 'shape'"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (2,",
       "bad header: expected a dimension in 'shape'"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (2,)} x",
       "bad header: unexpected text after '}'"},
  };
  for (const auto &[dict, expected] : cases)
    EXPECT_TRUE(failsWith(makeNpy(dict, ""), expected)) << dict.str();
}

TEST(NpyTest, RejectsMissingRepeatedAndUnknownKeys) {
  EXPECT_TRUE(failsWith(makeNpy("{'fortran_order': False, 'shape': ()}", ""),
                        "bad header: missing key 'descr'"));
  EXPECT_TRUE(failsWith(makeNpy("{'descr': '<i4', 'shape': ()}", ""),
                        "bad header: missing key 'fortran_order'"));
  EXPECT_TRUE(failsWith(makeNpy("{'descr': '<i4', 'fortran_order': False}", ""),
                        "bad header: missing key 'shape'"));
  EXPECT_TRUE(failsWith(makeNpy("{}", ""), "bad header: missing key"));
  EXPECT_TRUE(failsWith(
      makeNpy("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, "
              "'shape': ()}",
              ""),
      "bad header: unexpected or repeated key 'descr'"));
  EXPECT_TRUE(failsWith(makeNpy("{'descr': '<i4', 'fortran_order': False, "
                                "'shape': (), 'order': 'C'}",
                                ""),
                        "bad header: unexpected or repeated key 'order'"));
}

TEST(NpyTest, RejectsFortranOrder) {
  EXPECT_TRUE(failsWith(
      makeNpy("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2), }",
              std::string(16, '\0')),
      "Fortran-order arrays are not supported"));
}

TEST(NpyTest, RejectsBigEndian) {
  EXPECT_TRUE(failsWith(
      makeNpy("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
              std::string("\x3f\x80\x00\x00", 4)),
      "big-endian data is not supported"));
}

TEST(NpyTest, RejectsUnsupportedDTypes) {
  for (llvm::StringRef descr : {"=f4", "<c8", "f4", "<i16", "|i2", ""}) {
    std::string dict =
        ("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (), }")
            .str();
    EXPECT_TRUE(failsWith(makeNpy(dict, std::string(8, '\0')),
                          ("unsupported dtype '" + descr + "'").str()));
  }
  // A structured dtype is a list, not a string.
  EXPECT_TRUE(failsWith(makeNpy("{'descr': [('a', '<f4')], "
                                "'fortran_order': False, 'shape': (), }",
                                std::string(4, '\0')),
                        "bad header: expected a string"));
}

/// A header for a 1-D array of `count` elements of `descr`.
std::string vectorDict(llvm::StringRef descr, int count) {
  return ("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
          llvm::Twine(count) + ",), }")
      .str();
}

TEST(NpyTest, ReadsOtherIntegerWidthsAsI32) {
  // Each dtype's extremes that fit in i32, written out by hand in
  // little-endian order.
  struct Case {
    const char *descr;
    std::string data;
    std::vector<double> values;
  };
  const Case cases[] = {
      {"|i1", std::string("\x80\x7f\xff", 3), {-128, 127, -1}},
      {"|u1", std::string("\x00\xff\x07", 3), {0, 255, 7}},
      {"<i2", std::string("\x00\x80\xff\x7f", 4), {-32768, 32767}},
      {"<u2", std::string("\xff\xff\x02\x00", 4), {65535, 2}},
      {"<u4", std::string("\xff\xff\xff\x7f", 4), {2147483647}},
      {"<i8",
       std::string("\x00\x00\x00\x80\xff\xff\xff\xff"
                   "\x09\x00\x00\x00\x00\x00\x00\x00",
                   16),
       {-2147483648.0, 9}},
      {"<u8", std::string("\x0a\x00\x00\x00\x00\x00\x00\x00", 8), {10}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.descr);
    llvm::Expected<HostTensor> tensor = parseNpy(
        makeNpy(vectorDict(c.descr, c.values.size()), c.data), "a.npy");
    ASSERT_TRUE(static_cast<bool>(tensor))
        << llvm::toString(tensor.takeError());
    expectSameTensor(
        *tensor, HostTensor(DType::I32, {int64_t(c.values.size())}, c.values));
  }
}

TEST(NpyTest, RejectsIntegersOutsideI32) {
  EXPECT_TRUE(failsWith(
      makeNpy(vectorDict("<i8", 2),
              std::string("\x01\0\0\0\0\0\0\0\0\0\0\x80\0\0\0\0", 16)),
      "integer element 1 is 2147483648, outside i32"));
  EXPECT_TRUE(failsWith(
      makeNpy(vectorDict("<i8", 1), std::string("\xff\xff\xff\x7f\xff\xff"
                                                "\xff\xff",
                                                8)),
      "integer element 0 is -2147483649, outside i32"));
  EXPECT_TRUE(
      failsWith(makeNpy(vectorDict("<u4", 1), std::string("\0\0\0\x80", 4)),
                "integer element 0 is 2147483648, outside i32"));
  // Data of the wrong size for the element width.
  EXPECT_TRUE(failsWith(makeNpy(vectorDict("<i8", 2), std::string(12, '\0')),
                        "truncated data: expected 16 bytes, got 12"));
}

TEST(NpyTest, RejectsBadBoolBytes) {
  EXPECT_TRUE(failsWith(
      makeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
              llvm::StringRef("\x01\x00\x02", 3)),
      "bool element 2 is 2, not 0 or 1"));
  EXPECT_TRUE(failsWith(
      makeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }",
              "\xff"),
      "bool element 0 is 255, not 0 or 1"));
}

TEST(NpyTest, RejectsBadShapes) {
  EXPECT_TRUE(failsWith(makeNpy(i32Dict("(2, -3)"), ""),
                        "negative dimension in shape"));
  // Larger than int64_t.
  EXPECT_TRUE(failsWith(makeNpy(i32Dict("(99999999999999999999,)"), ""),
                        "shape is too large"));
  // The element count overflows int64_t.
  EXPECT_TRUE(failsWith(makeNpy(i32Dict("(4294967296, 4294967296)"), ""),
                        "shape is too large"));
  // The element count fits, the byte count does not.
  EXPECT_TRUE(failsWith(makeNpy(i32Dict("(4611686018427387904,)"), ""),
                        "shape is too large"));
  // Huge but representable: rejected by the size check, not by allocating.
  EXPECT_TRUE(failsWith(makeNpy(i32Dict("(1000000000000,)"), ""),
                        "truncated data: expected 4000000000000 bytes, got 0"));
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

TEST(NpyTest, SerializesExactBytes) {
  llvm::Expected<std::string> bytes =
      serializeNpy(HostTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}));
  ASSERT_TRUE(static_cast<bool>(bytes)) << llvm::toString(bytes.takeError());
  // 10 bytes of prefix, the 59-byte dict, 58 spaces and '\n' make 128.
  std::string expected("\x93NUMPY\x01\x00\x76\x00", 10);
  expected += "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  expected.append(58, ' ');
  expected += '\n';
  expected.append("\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40"
                  "\x00\x00\x80\x40\x00\x00\xa0\x40\x00\x00\xc0\x40",
                  24);
  EXPECT_EQ(*bytes, expected);
}

TEST(NpyTest, SerializesDataLikeNumPy) {
  // NumPy pads its headers differently, so only the data is compared.
  for (const NumPyFixture &fixture : getNumPyFixtures()) {
    SCOPED_TRACE(fixture.name);
    llvm::Expected<std::string> bytes =
        serializeNpy(HostTensor(fixture.dtype, fixture.shape, fixture.values));
    ASSERT_TRUE(static_cast<bool>(bytes)) << llvm::toString(bytes.takeError());
    EXPECT_EQ(llvm::StringRef(*bytes).take_back(fixture.dataSize),
              fixture.bytes.take_back(fixture.dataSize));
  }
}

TEST(NpyTest, FormatsShapesAndPadsHeaders) {
  const std::pair<std::vector<int64_t>, llvm::StringRef> cases[] = {
      {{}, "'shape': (), }"},
      {{5}, "'shape': (5,), }"},
      {{2, 0, 3}, "'shape': (2, 0, 3), }"},
      {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
       "'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "
       "1, 1, 1), }"},
  };
  for (const auto &[shape, expected] : cases) {
    SCOPED_TRACE(expected.str());
    HostTensor tensor(DType::I1, shape);
    llvm::Expected<std::string> bytes = serializeNpy(tensor);
    ASSERT_TRUE(static_cast<bool>(bytes)) << llvm::toString(bytes.takeError());
    size_t headerEnd = bytes->size() - tensor.values.size();
    EXPECT_EQ(headerEnd % 64, 0u);
    EXPECT_EQ((*bytes)[headerEnd - 1], '\n');
    llvm::StringRef header = llvm::StringRef(*bytes).take_front(headerEnd);
    EXPECT_TRUE(header.drop_back().rtrim(' ').ends_with(expected))
        << header.str();
  }
}

TEST(NpyTest, RejectsBF16) {
  llvm::Expected<std::string> bytes =
      serializeNpy(HostTensor(DType::BF16, {2}));
  ASSERT_FALSE(static_cast<bool>(bytes));
  EXPECT_EQ(llvm::toString(bytes.takeError()), "bf16 has no .npy dtype");
}

TEST(NpyTest, RoundTripsEveryDType) {
  const double inf = std::numeric_limits<double>::infinity();
  // Each is rounded to the dtype by the HostTensor constructor first.
  const std::vector<double> samples = {
      0,   -0.0, 1.5, -3.25,        1e-7,          65504, 1e300,
      inf, -inf, NAN, 2147483647.0, -2147483648.0, 0.1,   -1e-40};
  const std::vector<int64_t> shapes[] = {{},        {0},    {4},
                                         {2, 0, 3}, {2, 7}, {1, 2, 1, 7}};
  for (DType dtype :
       {DType::F16, DType::F32, DType::F64, DType::I32, DType::I1}) {
    for (const std::vector<int64_t> &shape : shapes) {
      SCOPED_TRACE(HostTensor(dtype, shape).getTypeString());
      std::vector<double> values(getNumElements(shape));
      for (size_t i = 0; i < values.size(); ++i)
        values[i] = samples[i % samples.size()];
      HostTensor tensor(dtype, shape, values);
      llvm::Expected<std::string> bytes = serializeNpy(tensor);
      ASSERT_TRUE(static_cast<bool>(bytes))
          << llvm::toString(bytes.takeError());
      llvm::Expected<HostTensor> result = parseNpy(*bytes, "a.npy");
      ASSERT_TRUE(static_cast<bool>(result))
          << llvm::toString(result.takeError());
      expectSameTensor(*result, tensor);
    }
  }
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

class NpyFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ens-npy-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string getPath(llvm::StringRef name) const {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

  /// The names of the entries of the temporary directory.
  std::vector<std::string> listDir() const {
    std::vector<std::string> names;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    return names;
  }

  llvm::SmallString<128> dir;
};

TEST_F(NpyFileTest, WritesAndReadsFiles) {
  std::string path = getPath("t.npy");
  HostTensor first(DType::F16, {2, 2}, {1, -0.5, 3, 1e-5});
  HostTensor second(DType::I32, {3}, {7, 8, 9});
  ASSERT_FALSE(static_cast<bool>(writeNpy(path, first)));
  llvm::Expected<HostTensor> tensor = readNpy(path);
  ASSERT_TRUE(static_cast<bool>(tensor)) << llvm::toString(tensor.takeError());
  expectSameTensor(*tensor, first);

  // Overwriting replaces the file and leaves no temporary file behind.
  ASSERT_FALSE(static_cast<bool>(writeNpy(path, second)));
  tensor = readNpy(path);
  ASSERT_TRUE(static_cast<bool>(tensor)) << llvm::toString(tensor.takeError());
  expectSameTensor(*tensor, second);
  EXPECT_EQ(listDir(), std::vector<std::string>{"t.npy"});
}

TEST_F(NpyFileTest, ReadsNumPyFile) {
  std::string path = getPath("numpy.npy");
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec) << ec.message();
    os << bytesOf(kNumPyF32);
  }
  llvm::Expected<HostTensor> tensor = readNpy(path);
  ASSERT_TRUE(static_cast<bool>(tensor)) << llvm::toString(tensor.takeError());
  expectSameTensor(*tensor, HostTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}));
}

TEST_F(NpyFileTest, ReportsMissingFile) {
  std::string path = getPath("missing.npy");
  llvm::Expected<HostTensor> tensor = readNpy(path);
  ASSERT_FALSE(static_cast<bool>(tensor));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(tensor.takeError()))
                  .starts_with(path + ": "));
}

TEST_F(NpyFileTest, ReportsMalformedFileByPath) {
  std::string path = getPath("bad.npy");
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec) << ec.message();
    os << "PK\x03\x04";
  }
  llvm::Expected<HostTensor> tensor = readNpy(path);
  ASSERT_FALSE(static_cast<bool>(tensor));
  EXPECT_EQ(llvm::toString(tensor.takeError()),
            path + ": not a .npy file (bad magic)");
}

TEST_F(NpyFileTest, RefusesWhatIsNotARegularFile) {
  // A FIFO without a writer would block an ordinary open, and /dev/zero
  // never ends; neither is read.
  std::string fifo = getPath("fifo.npy");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string directory = getPath("dir.npy");
  ASSERT_FALSE(llvm::sys::fs::create_directory(directory));
  // The directory comes first: a reader that opens before it checks fails
  // there rather than hang on the FIFO.
  for (const std::string &path : {directory, fifo, std::string("/dev/zero")}) {
    llvm::Expected<HostTensor> tensor = readNpy(path);
    ASSERT_FALSE(static_cast<bool>(tensor)) << path;
    ASSERT_EQ(llvm::toString(tensor.takeError()),
              path + ": not a regular file");
  }
}

TEST_F(NpyFileTest, RefusesArraysOverTheBufferLimit) {
  // 1000 f32 elements: a 4,128-byte file that decodes to 8,000 bytes.
  std::string path = getPath("big.npy");
  ASSERT_FALSE(
      static_cast<bool>(writeNpy(path, HostTensor(DType::F32, {1000}))));
  ::setenv("ENS_MAX_BUFFER_BYTES", "7999", /*overwrite=*/1);
  llvm::Expected<HostTensor> tooLarge = readNpy(path);
  ::setenv("ENS_MAX_BUFFER_BYTES", "8000", /*overwrite=*/1);
  llvm::Expected<HostTensor> fits = readNpy(path);
  ::setenv("ENS_MAX_BUFFER_BYTES", "4000", /*overwrite=*/1);
  llvm::Expected<HostTensor> fileTooLarge = readNpy(path);
  ::unsetenv("ENS_MAX_BUFFER_BYTES");

  ASSERT_FALSE(static_cast<bool>(tooLarge));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(tooLarge.takeError()))
                  .starts_with(path + ": decoding its elements needs 8.0 kB "
                                      "(8000 bytes), over the buffer limit"));
  ASSERT_TRUE(static_cast<bool>(fits)) << llvm::toString(fits.takeError());
  EXPECT_EQ(fits->values.size(), 1000u);
  ASSERT_FALSE(static_cast<bool>(fileTooLarge));
  EXPECT_EQ(llvm::toString(fileTooLarge.takeError()),
            path + ": 4128 bytes, over the limit of 4000 bytes");
}

TEST_F(NpyFileTest, FailedWriteKeepsThePreviousFile) {
  std::string path = getPath("t.npy");
  HostTensor previous(DType::I32, {3}, {7, 8, 9});
  ASSERT_FALSE(static_cast<bool>(writeNpy(path, previous)));

  // A file-size limit fails a write as a full disk does (EFBIG for ENOSPC),
  // also for root. SIGXFSZ is ignored so that write() returns the error.
  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct rlimit small = saved;
  small.rlim_cur = 1024;
  void (*handler)(int) = ::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  llvm::Error error = writeNpy(path, HostTensor(DType::F32, {64, 64}));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, handler);

  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "cannot write " + path + ": File too large");
  llvm::Expected<HostTensor> kept = readNpy(path);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  expectSameTensor(*kept, previous);
  EXPECT_EQ(listDir(), std::vector<std::string>{"t.npy"});
}

TEST_F(NpyFileTest, WriteIntoMissingDirectoryFails) {
  std::string path = getPath("missing/t.npy");
  llvm::Error error = writeNpy(path, HostTensor(DType::F32, {2}));
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(std::move(error))).contains(path));
  EXPECT_TRUE(listDir().empty());
}

TEST_F(NpyFileTest, WriteOfBF16CreatesNoFile) {
  std::string path = getPath("t.npy");
  llvm::Error error = writeNpy(path, HostTensor(DType::BF16, {2}));
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            path + ": bf16 has no .npy dtype");
  EXPECT_TRUE(listDir().empty());
}

} // namespace
