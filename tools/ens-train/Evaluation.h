//===- Evaluation.h - Running ens-train's programs on data ------*- C++ -*-===//
//
// The host side of training and evaluation: the compiled programs, the
// batches they are fed, and the statistics made of their results. Data is
// fed in batches of the model's size; rows past the last whole batch are
// left out (of an epoch, or of an evaluation).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_EVALUATION_H
#define ENS_TRAIN_EVALUATION_H

#include "Batches.h"
#include "Checkpoint.h"
#include "Data.h"
#include "Program.h"

#include "ens/ens.h"

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace ens_train {

/// The compiled programs, on one model for a number of members.
struct Programs {
  ens::Executable step, losses, predict;
  std::optional<ens::Executable> init;
};

/// An f32 tensor of `shape` holding `values`.
ens::Tensor makeTensor(std::vector<int64_t> shape,
                       const std::vector<float> &values);

/// The values of an f32 tensor.
const float *floats(const ens::Tensor &tensor);

/// Every member's loss with the stacked `params` on `data`: the mean of
/// @loss over its whole batches of the model's size, in order.
std::vector<float> evaluateLosses(const Programs &programs, const Model &model,
                                  llvm::ArrayRef<ens::Tensor> params,
                                  const Dataset &data);

/// Copies the rows that each member trains on at `step` into `x` and
/// `targets`: one batch for all members, or with per-member batching one
/// per member, member after member.
void fillBatch(BatchSchedule &schedule, const Batching &batching,
               const Dataset &data, int64_t step, int64_t members,
               ens::Tensor &x, ens::Tensor &targets);

/// The members' mean and standard deviation per row and output.
struct EnsembleStats {
  std::vector<double> mean, stddev; // rows x outputs
};

/// The statistics of the members' predictions for `data`'s whole batches.
EnsembleStats ensembleStats(const Programs &programs, const Model &model,
                            const TrainState &state, const Dataset &data);

/// The minimum, median and maximum of `values`; NaNs (diverged members)
/// count as the largest.
std::array<float, 3> minMedianMax(std::vector<float> values);

} // namespace ens_train

#endif // ENS_TRAIN_EVALUATION_H
