//===- Training.h - The training loop ---------------------------*- C++ -*-===//
//
// The steps of a run: each makes the batches, runs the step program of the
// process's members, keeps stopped members frozen, records the loss curves
// (of every process's members), validates after each epoch, and writes
// checkpoints (of every member, by the first process).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_TRAINING_H
#define ENS_TRAIN_TRAINING_H

#include "ens/Train/Batches.h"
#include "ens/Train/Checkpoint.h"
#include "ens/Train/Communicator.h"
#include "ens/Train/Data.h"
#include "ens/Train/Evaluation.h"
#include "ens/Train/Model.h"
#include "ens/Train/Settings.h"
#include "ens/Train/Sharding.h"

#include "llvm/ADT/ArrayRef.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ens::train {

using Clock = std::chrono::steady_clock;

/// The seconds from `start` to now.
inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// What the caller of the training loop hears of it.
struct TrainingObserver {
  /// After each step: its number and the mean loss of the members that
  /// took it.
  std::function<void(int64_t step, double meanLoss)> stepDone;
  /// After each step, every member's loss on its batch (before the step's
  /// update); NaN for the members of a group of a heterogeneous ensemble
  /// whose members have all stopped (Groups.h), which takes no more steps.
  std::function<void(int64_t step, const std::vector<float> &losses)>
      memberLosses;
  /// When every member has stopped early, after `epoch`.
  std::function<void(int64_t epoch)> allStopped;
};

/// What the training loop works with, set up by the Trainer (Trainer.h).
struct TrainingRun {
  const Settings &settings;
  const Model &model;
  /// The programs of this process's members, and of every member.
  Programs &programs, &globalPrograms;
  const MemberShard &shard;
  Communicator &comm;
  const Dataset &train;
  const Dataset *validation;
  BatchSchedule &schedule;
  /// The batch size.
  int64_t rows;
  /// Where checkpoints go (empty: none), and the step of the one committed
  /// there, for messages.
  const std::string &checkpointTo;
  std::optional<int64_t> &committed;
  /// Whether each process trains every member on its part of each batch
  /// (DataParallel.h).
  bool dataParallel;
  /// Steps between checkpoints (0: only at the end).
  int64_t checkpointEvery = 0;
  TrainingObserver observer = {};
};

/// Trains `toRun` steps more from `state`, this process's members, and
/// leaves it at the end; writes a checkpoint every --checkpoint-every
/// steps and at the end. Returns the seconds the steps took.
double trainSteps(TrainingRun &run, TrainState &state, int64_t toRun);

/// Runs one step of every group of a heterogeneous ensemble (Groups.h):
/// given the arguments of each group's step program side by side, and the
/// rows of the batch, returns the results of each group's side by side.
using GroupsStep = std::function<std::vector<ens::Tensor>(
    const std::vector<ens::Tensor> &args, int64_t rows)>;

/// Trains the groups of `runs`, group g from `states[g]`, `toRun` steps
/// more with `stepAll`, each group as trainSteps would train it alone: a
/// group whose members have all stopped early takes no more steps (its
/// checkpoint keeps the step it stopped at), while the others go on. The
/// observer hears of every group's members together, at the first group's
/// step; allStopped when every group's have stopped. Each group goes on
/// from its own state's step.
double trainGroupSteps(llvm::ArrayRef<TrainingRun *> runs,
                       llvm::ArrayRef<TrainState *> states, int64_t toRun,
                       const GroupsStep &stepAll,
                       const TrainingObserver &observer);

} // namespace ens::train

#endif // ENS_TRAIN_TRAINING_H
