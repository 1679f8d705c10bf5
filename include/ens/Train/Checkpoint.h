//===- Checkpoint.h - ens-train's checkpoints -------------------*- C++ -*-===//
//
// A checkpoint directory holds generations, each one complete checkpoint,
// and a pointer to the committed one:
//
//   CURRENT                 the committed generation's name and a newline
//   gen-<step>-<random>/    a generation (the step in 12 digits, then 16
//                           random hexadecimal digits), with two files:
//     state.npz       the stacked parameters [members x ...] under the
//                     model's parameter names (w1, b1, ...), Adam's moments
//                     m_<name> and v_<name>, each member's learning rate
//                     "lr", the step count "step", each member's loss
//                     before training "initial_loss" and the loss curve
//                     "loss_curve" [steps x 3] (min, median, max over
//                     members), all uncompressed;
//     manifest.json   what the arrays are (shapes, dtypes), the step, the
//                     number of members, the seed, the model, the data, the
//                     hyperparameters, and the state file's name, size and
//                     checksum (XXH3-64).
//
// Writing is one commit. A new generation directory is made (mkdir, which
// never reuses a name), state.npz and then manifest.json are written into it
// with writeFileAtomically (a temporary file opened with O_EXCL, fsynced and
// renamed, then the directory fsynced), the checkpoint directory is fsynced,
// and only then is CURRENT replaced, again with writeFileAtomically: that
// rename is the commit. After it, older generations, the temporary files of
// interrupted writes and the files of a version-1 checkpoint are removed. A
// crash at any moment therefore leaves CURRENT naming a complete generation
// (or, before the first commit, no CURRENT), and a failed write leaves the
// previous generation committed. One run writes to a directory at a time.
//
// Reading takes CURRENT's generation. If CURRENT is missing or does not
// name a generation that validates, the newest generation (by step) that
// validates is taken instead. Nothing read is trusted: the state file must
// be a plain file name inside its generation and match the size and the
// checksum that the manifest records, and every manifest field and every
// array is checked against the model and its valid range before use.
//
// Version 1 checkpoints, with manifest.json and state.npz directly in the
// directory and no size or checksum, are still read.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_CHECKPOINT_H
#define ENS_TRAIN_CHECKPOINT_H

#include "ens/Train/EarlyStopping.h"
#include "ens/Train/Program.h"

#include "ens/ens.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ens::train {

/// The last step a checkpoint can hold: "step" is stored as an i32.
inline constexpr int64_t kMaxSteps = INT32_MAX;

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
  /// With --patience.
  std::optional<EarlyStoppingState> stopping;
  /// A classification's, per epoch done: the ensembles' mean accuracy on
  /// the validation set, or the training data without one.
  std::vector<float> accuracyCurve;
};

/// Writes `state` to `directory` (created if needed) as a new generation
/// and commits it. `settings` holds the run's settings (seed, model, data,
/// hyperparameters); the manifest adds the step, the members, the
/// parameters and the arrays. Throws Failure if the generation cannot be
/// written or committed; the previous generation is then still committed.
void writeCheckpoint(const std::string &directory, const Model &model,
                     const TrainState &state, nlohmann::json settings);

/// The largest model text a checkpoint embeds (Settings::modelText).
inline constexpr uint64_t kMaxCheckpointModelBytes = uint64_t(4) << 20;

/// A checkpoint found in a directory, whose state file matched its
/// manifest.
struct Checkpoint {
  /// The checkpoint directory, and the directory of the generation's files
  /// (the same for a version-1 checkpoint).
  std::string directory, generation;
  nlohmann::json manifest;
  /// The contents of the state file.
  std::string state;
  /// Why it was not found through CURRENT; empty when it was (or for a
  /// version-1 checkpoint, which has no CURRENT).
  std::string note;

  std::string manifestPath() const;
  std::string statePath() const;
};

/// Finds the newest complete checkpoint in `directory`; throws
/// Failure("cannot resume from <directory>: ...") if there is none.
Checkpoint findCheckpoint(const std::string &directory);

/// Checks that `checkpoint` was written for `model`, and every array's
/// shape, dtype and range, and decodes its state, with the state of early
/// stopping if `earlyStopping`.
TrainState readCheckpoint(const Checkpoint &checkpoint, const Model &model,
                          bool earlyStopping);

} // namespace ens::train

#endif // ENS_TRAIN_CHECKPOINT_H
