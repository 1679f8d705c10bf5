//===- BatchesTest.cpp - Which rows each member trains on -----------------===//
//
// The batch schedule of ens-train (include/ens/Train/Batches.h), checked
// against what each mode promises, by counting rows.
//
//===----------------------------------------------------------------------===//

#include "ens/Train/Batches.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

using namespace ens::train;

namespace {

/// The rows `member` trains on in `epoch` (from 0), batch after batch.
std::vector<int64_t> epochRows(BatchSchedule &schedule, int64_t epoch,
                               int64_t member) {
  std::vector<int64_t> rows;
  for (int64_t b = 0; b < schedule.stepsPerEpoch(); ++b) {
    const std::vector<int64_t> &batch =
        schedule.rowsAt(epoch * schedule.stepsPerEpoch() + b + 1, member);
    rows.insert(rows.end(), batch.begin(), batch.end());
  }
  return rows;
}

TEST(BatchesTest, UnshuffledEpochsReadTheRowsInOrder) {
  // 10 rows in batches of 3: 3 batches per epoch, row 9 left out.
  BatchSchedule schedule({3, Shuffle::None, false}, 10, 2, 7);
  EXPECT_EQ(schedule.stepsPerEpoch(), 3);
  std::vector<int64_t> expected = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  for (int64_t epoch = 0; epoch < 3; ++epoch)
    for (int64_t member = 0; member < 2; ++member)
      EXPECT_EQ(epochRows(schedule, epoch, member), expected);
}

TEST(BatchesTest, APartialLastBatchIsTrainedUnlessDropped) {
  // 10 rows in batches of 4: 4, 4 and 2, or with dropLast 4 and 4.
  Batching batching{4, Shuffle::Shared, false, /*dropLast=*/false};
  BatchSchedule schedule(batching, 10, 1, 3);
  ASSERT_EQ(schedule.stepsPerEpoch(), 3);
  std::vector<int64_t> rows = epochRows(schedule, 0, 0);
  std::sort(rows.begin(), rows.end());
  std::vector<int64_t> all(10);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(rows, all) << "an epoch reads every row once";
  EXPECT_EQ(schedule.rowsAt(3, 0).size(), 2u);
  EXPECT_EQ(schedule.rowsAt(4, 0).size(), 4u) << "the next epoch's first";
  batching.dropLast = true;
  EXPECT_EQ(BatchSchedule(batching, 10, 1, 3).stepsPerEpoch(), 2);
}

TEST(BatchesTest, SharedShuffleGivesEveryMemberTheSamePermutation) {
  BatchSchedule schedule({4, Shuffle::Shared, false}, 20, 3, 1);
  std::vector<int64_t> first = epochRows(schedule, 0, 0);
  // A permutation of all 20 rows (5 whole batches).
  std::vector<int64_t> sorted = first;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> all(20);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(sorted, all);
  EXPECT_NE(first, all) << "the first epoch is not shuffled";
  for (int64_t member = 1; member < 3; ++member)
    EXPECT_EQ(epochRows(schedule, 0, member), first);
  EXPECT_NE(epochRows(schedule, 1, 0), first)
      << "two epochs have the same order";
}

TEST(BatchesTest, MemberShuffleGivesEachMemberItsOwnPermutation) {
  BatchSchedule schedule({5, Shuffle::Member, false}, 23, 4, 3);
  std::set<std::vector<int64_t>> orders;
  for (int64_t member = 0; member < 4; ++member) {
    std::vector<int64_t> rows = epochRows(schedule, 0, member);
    ASSERT_EQ(rows.size(), 20u);
    // Distinct rows of the data.
    EXPECT_EQ(std::set<int64_t>(rows.begin(), rows.end()).size(), 20u);
    EXPECT_LT(*std::max_element(rows.begin(), rows.end()), 23);
    orders.insert(rows);
  }
  EXPECT_EQ(orders.size(), 4u);
}

TEST(BatchesTest, BootstrapResamplesWithReplacement) {
  const int64_t rows = 1000;
  BatchSchedule schedule({100, Shuffle::None, true}, rows, 2, 5);
  std::vector<int64_t> sample = epochRows(schedule, 0, 0);
  ASSERT_EQ(sample.size(), size_t(rows));
  std::set<int64_t> distinct(sample.begin(), sample.end());
  // A resample of n rows with replacement misses about n / e of them:
  // 368 of 1000, with a standard deviation of about 15.
  EXPECT_GT(distinct.size(), 560u);
  EXPECT_LT(distinct.size(), 700u);
  EXPECT_GE(*distinct.begin(), 0);
  EXPECT_LT(*distinct.rbegin(), rows);
  // The sample is drawn once: every epoch walks the same one.
  EXPECT_EQ(epochRows(schedule, 1, 0), sample);
  EXPECT_NE(epochRows(schedule, 0, 1), sample);
}

TEST(BatchesTest, AMembersRowsDependOnItsIndexAlone) {
  // Member 1 of a 2-member run and of a 5-member run train on the same
  // rows: results do not depend on how many members train beside it.
  for (Batching batching : {Batching{3, Shuffle::Member, false},
                            Batching{3, Shuffle::Shared, true}}) {
    BatchSchedule two(batching, 17, 2, 11), five(batching, 17, 5, 11);
    for (int64_t epoch = 0; epoch < 2; ++epoch)
      EXPECT_EQ(epochRows(two, epoch, 1), epochRows(five, epoch, 1));
  }
}

TEST(BatchesTest, ResumingAtAnyStepReadsTheSameRows) {
  // A schedule asked for steps in any order, as a resumed run asks from
  // its checkpoint's step on, gives the rows of an uninterrupted run.
  Batching batching{4, Shuffle::Member, true};
  BatchSchedule straight(batching, 30, 3, 9);
  std::vector<std::vector<int64_t>> expected;
  for (int64_t step = 1; step <= 40; ++step)
    for (int64_t member = 0; member < 3; ++member)
      expected.push_back(straight.rowsAt(step, member));
  for (int64_t from : {1, 5, 7, 8, 23}) {
    BatchSchedule resumed(batching, 30, 3, 9);
    for (int64_t step = from; step <= 40; ++step)
      for (int64_t member = 0; member < 3; ++member)
        EXPECT_EQ(resumed.rowsAt(step, member),
                  expected[(step - 1) * 3 + member])
            << "resumed at step " << from << ", step " << step;
  }
}

TEST(BatchesTest, SeedsGiveDifferentOrders) {
  BatchSchedule one({2, Shuffle::Shared, false}, 12, 1, 1),
      other({2, Shuffle::Shared, false}, 12, 1, 2);
  EXPECT_NE(epochRows(one, 0, 0), epochRows(other, 0, 0));
}

TEST(BatchesTest, ShuffleNamesRoundTrip) {
  for (Shuffle shuffle : {Shuffle::None, Shuffle::Shared, Shuffle::Member})
    EXPECT_EQ(parseShuffle(getShuffleName(shuffle)), shuffle);
  EXPECT_EQ(parseShuffle("random"), std::nullopt);
}

} // namespace
