//===- Groups.h - Train a heterogeneous ensemble ----------------*- C++ -*-===//
//
// A heterogeneous ensemble is several groups of members, one per model
// (ens-train's repeated --model), each with its own number of members. A
// GroupTrainer runs one Trainer per group, each set up exactly as a run of
// its model alone with the same settings (seed, data, batches, learning
// rates, early stopping), and trains them together: every step is ONE
// program (GroupProgram.h) that steps every group's members side by side.
// Each group therefore ends with the parameters a run of its own would
// have, member by member.
//
// The models must read the same batches: the same x and targets, and
// predictions of the same shape, so that predictions average over every
// member of every group. Under mpirun, each process trains its share of
// every group's members (Sharding.h), so that every group needs at least a
// member per process.
//
// Checkpoints: the checkpoint directory holds `groups.json`, which names
// each group's model, members and directory, and a directory per group,
// group-<g>, that holds the group's checkpoint as a run of its own writes
// it (Checkpoint.h). A checkpoint of one model is unchanged, and a
// directory with groups.json is refused where one model's checkpoint is
// expected. A resumed run resumes each group from its directory, from the
// step it had reached.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_GROUPS_H
#define ENS_TRAIN_GROUPS_H

#include "ens/Train/Predict.h"
#include "ens/Train/Trainer.h"

#include "ens/ens.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ens::train {

/// One model of a heterogeneous ensemble and its members.
struct ModelGroup {
  /// The model's path (Settings::model: empty for the built-in model), its
  /// text, and its name in messages.
  std::string model, modelText, modelName;
  int64_t members = 0;
  /// The group's checkpoint to resume from, and its directory (a group
  /// directory of a heterogeneous checkpoint).
  std::optional<Checkpoint> resumed;
  std::string resumeDir;
  /// The members' starting weights in memory (TrainOptions::initialParams
  /// of the group's run), or none for its model's initialisers.
  std::vector<ens::Tensor> initialParams;
};

/// Group `group`'s directory in the checkpoint directory `directory`:
/// <directory>/group-<group>.
std::string getGroupDirectory(const std::string &directory, size_t group);

/// The groups of the heterogeneous checkpoint in `directory`, read from its
/// groups.json (each group's model path, or empty for the built-in model,
/// and members), or nullopt if it has none. Throws Failure if groups.json
/// is not valid.
std::optional<std::vector<ModelGroup>>
readCheckpointGroups(const std::string &directory);

/// A training run of a heterogeneous ensemble.
class GroupTrainer {
public:
  /// Sets up a Trainer per group from `options` (its settings, data and
  /// flags shared by every group) and checks that the models fit
  /// together.
  GroupTrainer(ens::Context &context, const TrainOptions &options,
               const std::vector<ModelGroup> &groups, Communicator &comm);
  GroupTrainer(const GroupTrainer &) = delete;
  GroupTrainer &operator=(const GroupTrainer &) = delete;

  /// The step program of every group (GroupProgram.h), as generated.
  const std::string &programText() const { return text; }
  /// Trainer's stages, for every group.
  void loadData();
  void compile();
  void initialize();
  double train(const TrainingObserver &observer);
  /// Each group's summary on the first process; empty on the others.
  std::vector<TrainSummary> finish(double trainSeconds);
  /// The predictions of the ensemble of every group's members for `data`
  /// (PredictionArray's), members group after group, with the parameters
  /// of finish()'s state.
  std::vector<PredictionArray> predict(const Dataset &data);

  size_t size() const { return trainers.size(); }
  Trainer &getGroup(size_t group) { return *trainers[group]; }

private:
  /// The step program of every group for batches of `rows` rows.
  const ens::Executable &step(int64_t rows);

  ens::Context &context;
  TrainOptions options;
  Communicator &comm;
  std::vector<std::unique_ptr<Trainer>> trainers;
  std::string text;
  std::optional<ens::Module> module;
  std::map<int64_t, ens::Executable> steps;
};

} // namespace ens::train

#endif // ENS_TRAIN_GROUPS_H
