//===- Metrics.h - How good an ensemble's predictions are -------*- C++ -*-===//
//
// The task's metrics of M members' predictions for N rows, computed in
// double from the members' outputs:
//
// - a regression (outputs [M x N x O], targets [N x O]): the RMSE of the
//   ensemble mean, the members' mean RMSE, and the spread, the mean over
//   rows and outputs of the members' population standard deviation;
// - a classification (logits [M x N x C], labels [N]) of the ensemble's
//   probabilities p = mean over members of softmax(logits):
//     accuracy  the share of rows whose label is argmax p (ties go to the
//               first class, as NumPy's and PyTorch's argmax);
//     NLL       the mean of -log p[label] (natural log);
//     ECE       the expected calibration error over 15 equal-width bins of
//               confidence max p: sum over bins of |bin| / N times
//               |accuracy - mean confidence| of the bin's rows (a
//               confidence of exactly 1 falls in the last bin);
//     Brier     the mean over rows of sum over classes of
//               (p[c] - [c == label])^2, between 0 and 2;
//   and the members' mean accuracy, each member by its own argmax.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_METRICS_H
#define ENS_TRAIN_METRICS_H

#include <cstdint>
#include <vector>

namespace ens::train {

/// The bins of the expected calibration error and the reliability diagram.
inline constexpr int kCalibrationBins = 15;

/// A regression's metrics (see the file comment).
struct RegressionMetrics {
  double rmseOfMean = 0, meanMemberRmse = 0, spread = 0;
};

/// The metrics of `members` members' predictions [M x N x O] of the
/// targets [N x O].
RegressionMetrics computeRegressionMetrics(const float *predictions,
                                           int64_t members, int64_t rows,
                                           int64_t outputs,
                                           const float *targets);

/// One bin of the reliability diagram: the rows whose confidence falls in
/// it, their mean confidence and their accuracy (both 0 for no rows).
struct CalibrationBin {
  int64_t rows = 0;
  double confidence = 0, accuracy = 0;
};

/// A classification's metrics (see the file comment).
struct ClassificationMetrics {
  double accuracy = 0, nll = 0, ece = 0, brier = 0, meanMemberAccuracy = 0;
  std::vector<CalibrationBin> bins;
};

/// The ensemble's probabilities [N x C]: the mean over `members` members
/// of the softmax of their logits [M x N x C], in double.
std::vector<double> computeMeanProbabilities(const float *logits,
                                             int64_t members, int64_t rows,
                                             int64_t classes);

/// The metrics of `members` members' logits [M x N x C] for `labels` [N],
/// integers in [0, C) held as floats.
ClassificationMetrics
computeClassificationMetrics(const float *logits, int64_t members, int64_t rows,
                             int64_t classes, const float *labels);

} // namespace ens::train

#endif // ENS_TRAIN_METRICS_H
