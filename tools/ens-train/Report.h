//===- Report.h - What ens-train prints after training ----------*- C++ -*-===//

#ifndef ENS_TRAIN_REPORT_H
#define ENS_TRAIN_REPORT_H

#include "Checkpoint.h"
#include "Data.h"
#include "Evaluation.h"
#include "Metrics.h"
#include "Plot.h"
#include "Program.h"

#include <string>
#include <vector>

namespace ens_train {

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

} // namespace ens_train

#endif // ENS_TRAIN_REPORT_H
