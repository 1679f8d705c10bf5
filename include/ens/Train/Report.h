//===- Report.h - What ens-train prints after training ----------*- C++ -*-===//

#ifndef ENS_TRAIN_REPORT_H
#define ENS_TRAIN_REPORT_H

#include "ens/Train/Checkpoint.h"
#include "ens/Train/Data.h"
#include "ens/Train/Evaluation.h"
#include "ens/Train/Metrics.h"
#include "ens/Train/Program.h"

#include <string>
#include <vector>

namespace ens::train {

/// The fit panel. For the built-in 1-D problem (`overInput`), it shows the
/// training points (t, y), the ensemble mean over the curve's t with a band
/// of +-2 standard deviations, and the gap shaded. For real data, it shows
/// each training point's mean prediction against its target, with bars of
/// +-2 standard deviations.
struct FitPanel {
  bool overInput = true;
  std::string yLabel;
  /// Training points: (t, target) or, for real data, targets.
  std::vector<double> pointsX, pointsY;
  /// The ensemble over t (or, for real data, at each target in pointsX).
  std::vector<double> curveX, mean, stddev;
  double gapLow = 0, gapHigh = 0;
};

/// Per step (from step 1), the minimum, median and maximum over members.
struct LossCurves {
  std::vector<double> min, median, max;
};

/// Prints, with `printLosses`, each member's learning rate, final loss and
/// `validationLoss` (if any); with early stopping each member's best epoch
/// and when it stopped; and the validation losses' range. With several
/// ensembles of `membersPerEnsemble` members, a member is named by its
/// ensemble and its index in it.
void reportMembers(const TrainState &state, const std::vector<float> &finalLoss,
                   const std::vector<float> *validationLoss, bool printLosses,
                   int64_t membersPerEnsemble);

/// One line of a regression's metrics: "RMSE of the ensemble mean ...".
std::string describe(const RegressionMetrics &metrics);
/// One line of a classification's metrics: "accuracy 97.1% (members' ...".
std::string describe(const ClassificationMetrics &metrics);

/// The accuracy on `data` of the ensembles with `params` (their mean over
/// the ensembles), predicted in batches of `rows` rows.
double measureAccuracy(Programs &programs, const Model &model, int64_t rows,
                       llvm::ArrayRef<ens::Tensor> params, const Dataset &data);

/// Prints the classification metrics of the ensemble on `data`, which
/// `what` names ("training data"), predicted in batches of `rows` rows, and
/// returns them.
ClassificationMetrics reportClassification(Programs &programs,
                                           const Model &model, int64_t rows,
                                           const TrainState &state,
                                           const Dataset &data,
                                           const std::string &what);

/// Prints the ensemble mean's error and the members' spread, predicted in
/// batches of `rows` rows: on the built-in `problem`'s held-out data inside
/// and outside its gap, or with the members' mean error on the training
/// data and on `validation` (if any); and returns the plot's panel of the
/// fit.
FitPanel reportFit(Programs &programs, const Model &model, int64_t rows,
                   const TrainState &state, const Dataset &train,
                   const Dataset *validation, const SyntheticProblem *problem);

} // namespace ens::train

#endif // ENS_TRAIN_REPORT_H
