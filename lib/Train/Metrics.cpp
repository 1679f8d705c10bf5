//===- Metrics.cpp - How good an ensemble's predictions are ---------------===//

#include "ens/Train/Metrics.h"

#include <algorithm>
#include <cmath>

using namespace ens::train;

RegressionMetrics ens::train::computeRegressionMetrics(const float *predictions,
                                                       int64_t members,
                                                       int64_t rows,
                                                       int64_t outputs,
                                                       const float *targets) {
  const int64_t count = rows * outputs;
  RegressionMetrics metrics;
  if (count == 0 || members == 0)
    return metrics;
  double meanSquares = 0, spread = 0, memberRmse = 0;
  std::vector<double> memberSquares(members, 0.0);
  for (int64_t i = 0; i < count; ++i) {
    double sum = 0;
    for (int64_t member = 0; member < members; ++member) {
      double value = predictions[member * count + i];
      sum += value;
      double error = value - targets[i];
      memberSquares[member] += error * error;
    }
    double mean = sum / members, variance = 0;
    for (int64_t member = 0; member < members; ++member) {
      double d = predictions[member * count + i] - mean;
      variance += d * d;
    }
    spread += std::sqrt(variance / members);
    meanSquares += (mean - targets[i]) * (mean - targets[i]);
  }
  for (double squares : memberSquares)
    memberRmse += std::sqrt(squares / count);
  metrics.rmseOfMean = std::sqrt(meanSquares / count);
  metrics.meanMemberRmse = memberRmse / members;
  metrics.spread = spread / count;
  return metrics;
}

/// The index of the largest of `values`, the first of equal ones.
template <typename T> static int64_t argmax(const T *values, int64_t count) {
  return std::max_element(values, values + count) - values;
}

std::vector<double> ens::train::computeMeanProbabilities(const float *logits,
                                                         int64_t members,
                                                         int64_t rows,
                                                         int64_t classes) {
  std::vector<double> probabilities(rows * classes, 0.0);
  for (int64_t member = 0; member < members; ++member)
    for (int64_t row = 0; row < rows; ++row) {
      const float *z = logits + (member * rows + row) * classes;
      // softmax(z) = exp(z - max z) / sum exp(z - max z), which cannot
      // overflow.
      double top = z[argmax(z, classes)], sum = 0;
      for (int64_t c = 0; c < classes; ++c)
        sum += std::exp(double(z[c]) - top);
      for (int64_t c = 0; c < classes; ++c)
        probabilities[row * classes + c] +=
            std::exp(double(z[c]) - top) / sum / members;
    }
  return probabilities;
}

ClassificationMetrics
ens::train::computeClassificationMetrics(const float *logits, int64_t members,
                                         int64_t rows, int64_t classes,
                                         const float *labels) {
  ClassificationMetrics metrics;
  metrics.bins.resize(kCalibrationBins);
  if (rows == 0 || members == 0)
    return metrics;
  std::vector<double> p =
      computeMeanProbabilities(logits, members, rows, classes);
  int64_t correct = 0, memberCorrect = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const double *q = p.data() + row * classes;
    const int64_t label = static_cast<int64_t>(labels[row]);
    const int64_t predicted = argmax(q, classes);
    const bool right = predicted == label;
    correct += right;
    metrics.nll -= std::log(q[label]);
    for (int64_t c = 0; c < classes; ++c) {
      double d = q[c] - (c == label ? 1.0 : 0.0);
      metrics.brier += d * d;
    }
    double confidence = q[predicted];
    int bin = std::min(static_cast<int>(confidence * kCalibrationBins),
                       kCalibrationBins - 1);
    CalibrationBin &into = metrics.bins[bin];
    ++into.rows;
    into.confidence += confidence;
    into.accuracy += right;
    for (int64_t member = 0; member < members; ++member)
      memberCorrect +=
          argmax(logits + (member * rows + row) * classes, classes) == label;
  }
  for (CalibrationBin &bin : metrics.bins) {
    if (!bin.rows)
      continue;
    bin.confidence /= bin.rows;
    bin.accuracy /= bin.rows;
    metrics.ece +=
        double(bin.rows) / rows * std::fabs(bin.accuracy - bin.confidence);
  }
  metrics.accuracy = double(correct) / rows;
  metrics.nll /= rows;
  metrics.brier /= rows;
  metrics.meanMemberAccuracy = double(memberCorrect) / (rows * members);
  return metrics;
}
