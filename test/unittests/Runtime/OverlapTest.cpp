//===- OverlapTest.cpp - The search for results that share memory ---------===//
//
// findResultOverlap sorts and sweeps; the oracle here is the definition,
// checked pair by pair: the first result, in call order, that shares a
// byte with a buffer before it (arguments first), and the first such
// buffer.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Overlap.h"

#include <gtest/gtest.h>

#include <random>

using namespace ens::runtime;

namespace {

/// The answer by the definition: every pair of bytes' ranges compared.
std::optional<std::pair<size_t, size_t>>
overlapByDefinition(const std::vector<ByteRange> &ranges, size_t numArgs) {
  for (size_t r = numArgs; r < ranges.size(); ++r)
    for (size_t o = 0; o < r; ++o) {
      const ByteRange &x = ranges[r], &y = ranges[o];
      if (x.space != y.space)
        continue;
      for (uintptr_t byte = x.begin; byte < x.end; ++byte)
        if (y.begin <= byte && byte < y.end)
          return std::make_pair(r, o);
    }
  return std::nullopt;
}

TEST(OverlapTest, NamesTheFirstOverlappingPairInCallOrder) {
  // Arguments may share memory with each other; results may not share any.
  std::vector<ByteRange> ranges = {
      {0, 64}, {0, 64}, {128, 192}, {192, 256}, {100, 128}};
  EXPECT_EQ(findResultOverlap(ranges, 2), std::nullopt);
  ranges[4].end = 129;
  EXPECT_EQ(findResultOverlap(ranges, 2), std::make_pair(size_t(4), size_t(2)));
  ranges.push_back({60, 61});
  EXPECT_EQ(findResultOverlap(ranges, 2), std::make_pair(size_t(4), size_t(2)));
  ranges[4].end = 128;
  EXPECT_EQ(findResultOverlap(ranges, 2), std::make_pair(size_t(5), size_t(0)));
  // Touching ranges, empty ranges and other address spaces do not overlap.
  EXPECT_EQ(findResultOverlap({{0, 8}, {8, 16}, {4, 4}, {0, 8, 1}}, 1),
            std::nullopt);
}

TEST(OverlapTest, AgreesWithTheDefinitionOnRandomCalls) {
  std::mt19937 random(7);
  int found = 0;
  for (int call = 0; call < 3000; ++call) {
    size_t count = 1 + random() % 12;
    size_t numArgs = random() % (count + 1);
    std::vector<ByteRange> ranges(count);
    for (ByteRange &range : ranges) {
      range.begin = random() % 200;
      range.end = range.begin + random() % 24;
      range.space = random() % 4 == 0;
    }
    auto expected = overlapByDefinition(ranges, numArgs);
    found += expected.has_value();
    EXPECT_EQ(findResultOverlap(ranges, numArgs), expected) << "call " << call;
  }
  // Both answers came up often.
  EXPECT_GT(found, 500);
  EXPECT_LT(found, 2500);
}

} // namespace
