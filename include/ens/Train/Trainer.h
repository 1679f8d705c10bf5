//===- Trainer.h - Train an ensemble, the library's entry -------*- C++ -*-===//
//
// A Trainer is one run of ens-train, as a library: it loads the model,
// checks the settings against it, reads the data, compiles the programs,
// initialises (or resumes) the members, trains them, and leaves the
// summary's losses. ens-train drives it from its flags and prints what it
// does; the Python package drives it from ens.torch.Ensemble.fit. Each
// stage is a method, called in order, so that a driver can print between
// them and stop early (--emit-ir). Every failure throws Failure.
//
// Several models with their member counts (a heterogeneous ensemble) are
// trained by a GroupTrainer (Groups.h): a Trainer per model, stepped
// together by one program.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_TRAINER_H
#define ENS_TRAIN_TRAINER_H

#include "ens/Train/Checkpoint.h"
#include "ens/Train/Communicator.h"
#include "ens/Train/Data.h"
#include "ens/Train/Evaluation.h"
#include "ens/Train/Model.h"
#include "ens/Train/Predict.h"
#include "ens/Train/Settings.h"
#include "ens/Train/Sharding.h"
#include "ens/Train/Training.h"

#include "ens/ens.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ens::train {

/// What a run is given beyond its Settings: ens-train's other flags.
struct TrainOptions {
  Settings settings;
  /// The model's text, and its name in messages (its path, or the
  /// built-in model's name).
  std::string modelText, modelName;
  /// Steps to train, or (when set) epochs of the data.
  int64_t steps = 0;
  std::optional<int64_t> epochs;
  ens::Target target = ens::Target::Cpu;
  /// CompileOptions::threads for the cpu target (0: all cores).
  int threads = 0;
  /// A checkpoint to resume from (adopted into `settings` by the caller),
  /// and its directory.
  std::optional<Checkpoint> resumed;
  std::string resumeDir;
  /// Where checkpoints go (empty: none), and the steps between them.
  std::string checkpointTo;
  int64_t checkpointEvery = 0;
  /// An .npz of starting weights (InitialParameters.h), or empty.
  std::string initFrom;
  /// Starting weights in memory, instead: one tensor per parameter of the
  /// model, [members, ...], in @forward's order.
  std::vector<ens::Tensor> initialParams;
  /// The data's target columns, when the caller states them.
  std::optional<int64_t> targetColumns;
  DataOptions dataOptions;
  /// Data in memory, used instead of settings.data and
  /// settings.validationData; laid out as getLayout() says.
  std::optional<Dataset> trainData, validationData;
  /// Whether each process trains every member on its part of each batch.
  bool dataParallel = false;
  /// Whether the run compiles a step program of its own; a group of a
  /// heterogeneous ensemble (Groups.h) is stepped by the program of all.
  bool ownStep = true;
};

/// The summary of a run: the losses of every member, after training (of
/// its best epoch, with early stopping).
struct TrainSummary {
  std::vector<float> finalLoss, validationLoss;
  /// Seconds the steps took, and the steps this run trained.
  double trainSeconds = 0;
  int64_t trainedSteps = 0;
};

/// One training run.
class Trainer {
public:
  /// Loads the model and checks the batch settings against it.
  Trainer(ens::Context &context, TrainOptions options, Communicator &comm);
  // The programs refer to the model it holds.
  Trainer(const Trainer &) = delete;
  Trainer &operator=(const Trainer &) = delete;

  /// The training program's text (every member's), as generated.
  const std::string &programText() const { return text; }
  /// Checks the processes against the members, reads the data, and reads
  /// the resumed checkpoint's state.
  void loadData();
  /// Compiles the programs (of a whole batch; the others when needed).
  void compile();
  /// Initialises the members, unless resumed: from the seed or --init-from.
  void initialize();
  /// Trains the steps, telling `observer`; this process's members.
  double train(const TrainingObserver &observer);
  /// What the training loop works with (Training.h), for a driver that
  /// trains several runs together (Groups.h); from the current step.
  TrainingRun makeRun(const TrainingObserver &observer);
  /// Every member's predictions for `data` (PredictionArray's), with the
  /// parameters of finish()'s state; one ensemble only.
  std::vector<PredictionArray> predict(const Dataset &data);
  /// Gathers every member's state on the first process, which then holds
  /// the summary; the others get nullopt.
  std::optional<TrainSummary> finish(double trainSeconds);

  const TrainOptions &getOptions() const { return options; }
  const Settings &getSettings() const { return options.settings; }
  const Model &getModel() const { return *model; }
  const ProgramShape &getShape() const { return shape; }
  const MemberShard &getShard() const { return *shard; }
  const Dataset &getTrainData() const { return trainData; }
  const Dataset *getValidationData() const {
    return validation ? &*validation : nullptr;
  }
  const SyntheticProblem *getProblem() const {
    return problem ? &*problem : nullptr;
  }
  const BatchSchedule &getSchedule() const { return *schedule; }
  /// The batch size, and the steps the run trains.
  int64_t getRows() const { return rows; }
  int64_t getStepsToRun() const { return toRun; }
  /// The members' state: this process's until finish(), every member's on
  /// the first process after it.
  TrainState &getState() { return state; }
  /// The programs of every member, and of this process's.
  Programs &getPrograms() { return *globalPrograms; }
  Programs &getLocalPrograms() {
    return localPrograms ? *localPrograms : *globalPrograms;
  }
  /// What a data file must hold for the model.
  DataLayout getLayout() const {
    return getDataLayout(*model, shape.ensembles);
  }

private:
  /// options.initialParams, checked against the model.
  std::vector<ens::Tensor> takeInitialParameters();

  ens::Context &context;
  TrainOptions options;
  Communicator &comm;
  std::optional<Model> model;
  std::string text;
  ProgramShape shape;
  std::optional<MemberShard> shard;
  ProgramShape localShape;
  std::optional<SyntheticProblem> problem;
  Dataset trainData;
  std::optional<Dataset> validation;
  std::optional<BatchSchedule> schedule;
  int64_t rows = 0, toRun = 0, firstStep = 0;
  TrainState state;
  std::optional<Programs> globalPrograms, localPrograms;
  std::optional<int64_t> committed;
};

} // namespace ens::train

#endif // ENS_TRAIN_TRAINER_H
