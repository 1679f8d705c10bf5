//===- Checkpoint.h - ens-train's checkpoints -------------------*- C++ -*-===//
//
// A checkpoint is a directory with two files:
//
//   state.npz      the stacked parameters [members x ...] under the model's
//                  parameter names (w1, b1, ...), Adam's moments m_<name>
//                  and v_<name>, each member's learning rate "lr", the step
//                  count "step", each member's loss before training
//                  "initial_loss" and the loss curve "loss_curve" [steps x
//                  3] (min, median, max over members), all uncompressed.
//   manifest.json  what the arrays are (shapes, dtypes), the step, the
//                  number of members, the seed, the model, the data and the
//                  hyperparameters.
//
// Both are written to temporary files and renamed into place, the state
// first; each records the step, so a checkpoint torn between the two
// renames is detected when read.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_CHECKPOINT_H
#define ENS_TRAIN_CHECKPOINT_H

#include "Program.h"

#include "ens/ens.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ens_train {

/// Everything training needs to continue exactly where it stopped.
struct TrainState {
  /// Steps done so far.
  int64_t step = 0;
  /// Stacked parameters and Adam's first and second moments, in the order
  /// of Model::params.
  std::vector<ens::Tensor> params, m, v;
  /// Per member.
  std::vector<float> learningRates, initialLoss;
  /// Per step done: min, median and max of the members' losses.
  std::vector<float> curveMin, curveMedian, curveMax;
};

/// Writes `state` to `directory` (created if needed). `settings` holds the
/// run's settings (seed, model, data, hyperparameters); the manifest adds
/// the step, the members, the parameters and the arrays.
void writeCheckpoint(const std::string &directory, const Model &model,
                     const TrainState &state, nlohmann::json settings);

/// Reads `directory`/manifest.json.
nlohmann::json readManifest(const std::string &directory);

/// Checks that the checkpoint in `directory`, whose manifest is
/// `manifest`, was written for `model`, and reads its state.
TrainState readCheckpoint(const std::string &directory,
                          const nlohmann::json &manifest, const Model &model);

} // namespace ens_train

#endif // ENS_TRAIN_CHECKPOINT_H
