//===- Training.h - ens-train's training loop -------------------*- C++ -*-===//
//
// The steps of a run: each makes the batches, runs the step program of the
// process's members, keeps stopped members frozen, records the loss curves
// (of every process's members), validates after each epoch, and writes
// checkpoints (of every member, by the first process).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_TRAINING_H
#define ENS_TRAIN_TRAINING_H

#include "Batches.h"
#include "Checkpoint.h"
#include "Communicator.h"
#include "Data.h"
#include "Evaluation.h"
#include "Model.h"
#include "Settings.h"
#include "Sharding.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ens_train {

/// What the training loop works with, set up by ens-train's run().
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
};

/// Trains `toRun` steps more from `state`, this process's members, and
/// leaves it at the end; writes a checkpoint every --checkpoint-every
/// steps and at the end. Returns the seconds the steps took.
double trainSteps(TrainingRun &run, TrainState &state, int64_t toRun);

} // namespace ens_train

#endif // ENS_TRAIN_TRAINING_H
