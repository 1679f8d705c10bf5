//===- LivenessTest.cpp - Offsets for buffers by their live ranges --------===//
//
// Random live ranges, checked pair by pair: buffers live at the same step
// never share a byte, offsets are aligned, and the peak is the end of the
// highest buffer; and buffers that are never live together share memory.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "ens/Backend/Liveness.h"

#include <gtest/gtest.h>

using namespace mlir::ens;

namespace {

TEST(LivenessTest, BuffersLiveTogetherNeverOverlap) {
  test::RandomSource random(11);
  for (int trial = 0; trial < 500; ++trial) {
    llvm::SmallVector<LiveRange> ranges;
    int count = random.integer(1, 12);
    for (int i = 0; i < count; ++i) {
      unsigned first = random.integer(0, 10);
      ranges.push_back({random.integer(1, 1000), first,
                        first + static_cast<unsigned>(random.integer(0, 5))});
    }
    int64_t alignment = int64_t(1) << random.integer(0, 8);
    Placement placement = placeByLiveness(ranges, alignment);
    ASSERT_EQ(placement.offsets.size(), ranges.size());
    int64_t peak = 0;
    for (auto [i, a] : llvm::enumerate(ranges)) {
      int64_t at = placement.offsets[i];
      EXPECT_EQ(at % alignment, 0);
      EXPECT_GE(at, 0);
      peak = std::max(peak, at + a.bytes);
      for (auto [j, b] : llvm::enumerate(ranges)) {
        if (j <= i || a.last < b.first || b.last < a.first)
          continue;
        int64_t bt = placement.offsets[j];
        EXPECT_TRUE(at + a.bytes <= bt || bt + b.bytes <= at)
            << "trial " << trial << ": buffers " << i << " and " << j
            << " are live together and overlap";
      }
    }
    EXPECT_EQ(placement.peak, peak);
  }
}

TEST(LivenessTest, BuffersNeverLiveTogetherShareMemory) {
  // A chain: each buffer is read by the step that writes the next.
  Placement chain = placeByLiveness(
      {{1000, 0, 1}, {1000, 1, 2}, {1000, 2, 3}, {1000, 3, 4}}, 256);
  EXPECT_EQ(chain.offsets, (llvm::SmallVector<int64_t>{0, 1024, 0, 1024}));
  EXPECT_EQ(chain.peak, 2024);
}

} // namespace
