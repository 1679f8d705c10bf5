//===- Report.h - What ens-train prints after training ----------*- C++ -*-===//

#ifndef ENS_TRAIN_REPORT_H
#define ENS_TRAIN_REPORT_H

#include "Checkpoint.h"
#include "Data.h"
#include "Evaluation.h"
#include "Plot.h"
#include "Program.h"

#include <vector>

namespace ens_train {

/// Prints, with `printLosses`, each member's learning rate, final loss and
/// `validationLoss` (if any); with early stopping each member's best epoch
/// and when it stopped; and the validation losses' range.
void reportMembers(const TrainState &state, const std::vector<float> &finalLoss,
                   const std::vector<float> *validationLoss, bool printLosses);

/// Prints the ensemble mean's error and the members' spread, predicted in
/// batches of `rows` rows: on the built-in `problem`'s held-out data inside
/// and outside its gap, or on the training data; and returns the plot's
/// panel of the fit.
FitPanel reportFit(Programs &programs, const Model &model, int64_t rows,
                   const TrainState &state, const Dataset &train,
                   const SyntheticProblem *problem);

} // namespace ens_train

#endif // ENS_TRAIN_REPORT_H
