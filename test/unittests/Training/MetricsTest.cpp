//===- MetricsTest.cpp - Tests of ens-train's metrics ---------------------===//
//
// Every expected value is worked out by hand in the comments, from logits
// chosen so that the softmax is exact: (0, ln 3) gives (1/4, 3/4) and
// (0, ln 9) gives (1/10, 9/10).
//
//===----------------------------------------------------------------------===//

#include "ens/Train/Metrics.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace ens::train;

namespace {

TEST(MetricsTest, Regression) {
  // Members' predictions [2 x 2 x 1]: (1, 2) and (3, 2); targets (2, 0).
  std::vector<float> predictions{1, 2, 3, 2}, targets{2, 0};
  RegressionMetrics metrics =
      computeRegressionMetrics(predictions.data(), 2, 2, 1, targets.data());
  // The mean is (2, 2): errors (0, 2), RMSE sqrt(4 / 2).
  EXPECT_NEAR(metrics.rmseOfMean, std::sqrt(2.0), 1e-12);
  // Member errors (-1, 2) and (1, 2): each RMSE sqrt(5 / 2).
  EXPECT_NEAR(metrics.meanMemberRmse, std::sqrt(2.5), 1e-12);
  // Population std-devs 1 (of 1 and 3) and 0 (of 2 and 2).
  EXPECT_NEAR(metrics.spread, 0.5, 1e-12);
}

TEST(MetricsTest, Classification) {
  const float ln3 = std::log(3.0f), ln9 = std::log(9.0f);
  // [2 members x 4 rows x 2 classes].
  std::vector<float> logits{
      // Member 0: (1/4, 3/4), (3/4, 1/4), (1/10, 9/10), (9/10, 1/10).
      0, ln3, ln3, 0, 0, ln9, ln9, 0,
      // Member 1: (1/4, 3/4), (1/4, 3/4), (1/2, 1/2), (9/10, 1/10).
      0, ln3, 0, ln3, 0, 0, ln9, 0};
  std::vector<float> labels{1, 1, 0, 0};
  // The ensemble's p: (.25, .75), (.5, .5), (.3, .7), (.9, .1).
  std::vector<double> p = computeMeanProbabilities(logits.data(), 2, 4, 2);
  std::vector<double> expected{.25, .75, .5, .5, .3, .7, .9, .1};
  ASSERT_EQ(p.size(), expected.size());
  for (size_t i = 0; i < p.size(); ++i)
    EXPECT_NEAR(p[i], expected[i], 1e-6) << "element " << i;

  ClassificationMetrics metrics =
      computeClassificationMetrics(logits.data(), 2, 4, 2, labels.data());
  // Predicted 1 (right), 0 (the tie's first class: wrong), 1 (wrong),
  // 0 (right).
  EXPECT_DOUBLE_EQ(metrics.accuracy, 0.5);
  // Member 0 predicts 1, 0, 1, 0: 2 right; member 1 predicts 1, 1, 0 (a
  // tie), 0: 4 right.
  EXPECT_DOUBLE_EQ(metrics.meanMemberAccuracy, 6.0 / 8);
  EXPECT_NEAR(metrics.nll,
              -(std::log(.75) + std::log(.5) + std::log(.3) + std::log(.9)) / 4,
              1e-6);
  // (.0625 + .0625) + (.25 + .25) + (.49 + .49) + (.01 + .01), over 4.
  EXPECT_NEAR(metrics.brier, 1.625 / 4, 1e-6);
  // Confidences .75, .5, .7, .9 fall in bins 11, 7, 10 and 13 of 15, one
  // row each, with accuracies 1, 0, 0, 1.
  ASSERT_EQ(metrics.bins.size(), 15u);
  for (int bin = 0; bin < 15; ++bin)
    EXPECT_EQ(metrics.bins[bin].rows,
              bin == 7 || bin == 10 || bin == 11 || bin == 13)
        << "bin " << bin;
  EXPECT_NEAR(metrics.bins[10].confidence, 0.7, 1e-6);
  EXPECT_EQ(metrics.bins[10].accuracy, 0.0);
  EXPECT_EQ(metrics.bins[13].accuracy, 1.0);
  EXPECT_NEAR(metrics.ece, (0.25 + 0.5 + 0.7 + 0.1) / 4, 1e-6);
}

TEST(MetricsTest, ConfidenceOneFallsInTheLastBin) {
  // softmax(0, 100) is 1 - 4e-44 in its second class: 1 in double.
  std::vector<float> logits{0, 100}, labels{1};
  ClassificationMetrics metrics =
      computeClassificationMetrics(logits.data(), 1, 1, 2, labels.data());
  EXPECT_EQ(metrics.bins[14].rows, 1);
  EXPECT_DOUBLE_EQ(metrics.accuracy, 1.0);
  EXPECT_NEAR(metrics.ece, 0.0, 1e-12);
}

} // namespace
