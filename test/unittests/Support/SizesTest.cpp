//===- SizesTest.cpp - Tests of checked shape products and limits ---------===//
//
// Expected counts are written out by hand; overflow cases sit just past
// INT64_MAX, whose factors are spelled out in each comment.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Sizes.h"
#include "ens/Support/HostTensor.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <limits>

using namespace mlir::ens;

namespace {

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(SizesTest, CountsElementsAndBytes) {
  EXPECT_EQ(*getCheckedNumElements({}, "x"), 1);
  EXPECT_EQ(*getCheckedNumElements({2, 3, 4}, "x"), 24);
  EXPECT_EQ(*getCheckedNumElements({3, 0, 5}, "x"), 0);
  // Zero elements, although the other sizes alone would overflow.
  EXPECT_EQ(
      *getCheckedNumElements({int64_t(1) << 40, int64_t(1) << 40, 0}, "x"), 0);
  EXPECT_EQ(*getCheckedByteSize({2, 3}, 4, "x"), 24);
}

TEST(SizesTest, OverflowNamesTheValueAndShape) {
  // 3 * 6148914691236517206 = 18446744073709551618 > 2^63 - 1.
  llvm::Expected<int64_t> count =
      getCheckedNumElements({3, 6148914691236517206}, "result 0");
  ASSERT_FALSE(static_cast<bool>(count));
  EXPECT_EQ(errorText(count.takeError()),
            "result 0 has shape 3x6148914691236517206, whose element count "
            "overflows 64 bits");
  // 2^61 elements fit, but 2^61 * 4 bytes does not.
  llvm::Expected<int64_t> bytes =
      getCheckedByteSize({int64_t(1) << 61}, 4, "argument 1");
  ASSERT_FALSE(static_cast<bool>(bytes));
  EXPECT_NE(errorText(bytes.takeError()).find("size in bytes overflows"),
            std::string::npos);
}

TEST(SizesTest, DynamicSizesAreErrors) {
  llvm::Expected<int64_t> count = getCheckedNumElements({-1, 4}, "input x");
  ASSERT_FALSE(static_cast<bool>(count));
  EXPECT_EQ(errorText(count.takeError()),
            "input x has shape ?x4, whose sizes are not all known");
}

TEST(SizesTest, SumOverflow) {
  EXPECT_EQ(*getCheckedSum(2, 3, "total"), 5);
  llvm::Expected<int64_t> sum =
      getCheckedSum(std::numeric_limits<int64_t>::max(), 1, "the arena");
  ASSERT_FALSE(static_cast<bool>(sum));
  EXPECT_EQ(errorText(sum.takeError()), "the arena overflows 64 bits");
}

TEST(SizesTest, LimitIsCheckedAndSettable) {
  EXPECT_FALSE(static_cast<bool>(checkBufferBytes(1000, 1000, "buffer")));
  std::string message = errorText(checkBufferBytes(1001, 1000, "result 0"));
  EXPECT_EQ(message,
            "result 0 needs 1.0 kB (1001 bytes), over the buffer "
            "limit of 1.0 kB (1000 bytes) (raise it with --max-buffer-bytes "
            "or CompileOptions::maxBufferBytes)");
  ::setenv("ENS_MAX_BUFFER_BYTES", "4096", 1);
  EXPECT_EQ(getDefaultMaxBufferBytes(), 4096);
  EXPECT_TRUE(static_cast<bool>(checkBufferBytes(4097, 0, "x")));
  ::setenv("ENS_MAX_BUFFER_BYTES", "not a number", 1);
  EXPECT_GT(getDefaultMaxBufferBytes(), 4096);
  ::unsetenv("ENS_MAX_BUFFER_BYTES");
}

// Found by the npy fuzz target: dimensions whose product overflows 64 bits
// before a zero dimension makes the shape empty. Under UBSan the old
// left-to-right product was a signed overflow.
TEST(SizesTest, EmptyShapeWithHugeDimensions) {
  const int64_t huge = int64_t(1) << 40;
  EXPECT_EQ(*getCheckedNumElements({huge, huge, 0, 3}, "x"), 0);
  EXPECT_EQ(getNumElements({huge, huge, 0, 3}), 0);
  EXPECT_EQ(getNumElements({0, huge, huge, huge}), 0);
  llvm::SmallVector<int64_t, 4> strides =
      getRowMajorStrides({0, huge, huge, huge});
  EXPECT_EQ(strides[3], 1);
  EXPECT_EQ(strides[2], huge);
  EXPECT_EQ(strides[1], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(getRowMajorStrides({2, 3, 4})[0], 12);
}

} // namespace
