//===- Training.cpp - The training loop -----------------------------------===//

#include "ens/Train/Training.h"

#include "ens/Train/DataParallel.h"
#include "ens/Train/EarlyStopping.h"
#include "ens/Train/Failure.h"
#include "ens/Train/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <optional>
#include <tuple>

using namespace ens::train;
using ens::train::Failure;

namespace {
/// One group's side of the training loop: its arguments of the step
/// program (a slice of the arguments of all groups), what it makes of the
/// step's results, its epochs and its checkpoints.
class GroupSteps {
public:
  /// The group of `run` with `state`, whose step arguments are `args`.
  GroupSteps(TrainingRun &run, TrainState &state,
             llvm::MutableArrayRef<ens::Tensor> args);

  /// Sets the arguments for `step`: the step number and the batch.
  void prepare(int64_t step);
  /// The rows of the prepared batch.
  int64_t batchRows() const {
    return args[3 * p + 3].type().shape[perMember ? 1 : 0];
  }
  /// Takes the step's results (the parameters, the moments and the losses),
  /// keeping stopped members frozen, and records the curves; returns every
  /// process's members' losses.
  std::vector<float> absorb(llvm::MutableArrayRef<ens::Tensor> results,
                            int64_t step);
  /// After the step's report: the epoch's accuracy and early stopping, and
  /// the checkpoint every --checkpoint-every steps before `last`. Returns
  /// the epoch after which every member has stopped, if they all have.
  std::optional<int64_t> endStep(int64_t step, int64_t last);
  /// Leaves the state at the end of training and writes its checkpoint.
  void finish();

private:
  void syncState();
  void checkpoint();

  TrainingRun &run;
  TrainState &state;
  llvm::MutableArrayRef<ens::Tensor> args;
  const size_t p;
  const int64_t nLocal;
  const bool perMember;
  /// A stopped member keeps the parameters and moments it stopped with.
  std::vector<ens::Tensor> frozen;
};
} // namespace

GroupSteps::GroupSteps(TrainingRun &run, TrainState &state,
                       llvm::MutableArrayRef<ens::Tensor> args)
    : run(run), state(state), args(args), p(run.model.params.size()),
      nLocal(run.programs.getShape().total()),
      perMember(run.programs.getShape().batchPerMember) {
  // The step's arguments: parameters, moments, step, rates, x, targets.
  size_t i = 0;
  for (auto *part : {&state.params, &state.m, &state.v})
    for (ens::Tensor &tensor : *part)
      args[i++] = std::move(tensor);
  args[3 * p] = ens::Tensor(ens::TensorType{ens::DType::F32, {}});
  args[3 * p + 1] = makeTensor({nLocal}, state.learningRates);
  frozen.assign(args.begin(), args.begin() + 3 * p);
}

void GroupSteps::prepare(int64_t step) {
  *static_cast<float *>(args[3 * p].data()) = static_cast<float>(step);
  std::tie(args[3 * p + 2], args[3 * p + 3]) =
      makeBatch(run.programs, run.schedule, run.train, step, run.shard.begin);
}

std::vector<float>
GroupSteps::absorb(llvm::MutableArrayRef<ens::Tensor> results, int64_t step) {
  for (size_t i = 0; i < 3 * p; ++i)
    args[i] = std::move(results[i]);
  if (state.stopping)
    for (int64_t member = 0; member < nLocal; ++member)
      if (state.stopping->stopped(member))
        copyMember(frozen, args.take_front(3 * p), member);
  const float *losses = floats(results[3 * p]);
  // The curves are of every process's members.
  std::vector<float> values = run.shard.globalize(
      std::vector<float>(losses, losses + nLocal), run.comm);
  auto [lo, median, hi] = minMedianMax(values);
  state.curveMin.push_back(lo);
  state.curveMedian.push_back(median);
  state.curveMax.push_back(hi);
  state.step = step;
  return values;
}

std::optional<int64_t> GroupSteps::endStep(int64_t step, int64_t last) {
  const int64_t stepsPerEpoch = run.schedule.stepsPerEpoch();
  llvm::MutableArrayRef<ens::Tensor> trained = args.take_front(3 * p);
  if (run.model.task == Task::Classify && step % stepsPerEpoch == 0) {
    // The ensemble's accuracy needs every member: the first process
    // measures it, which is the one that writes it.
    std::vector<ens::Tensor> params;
    for (const ens::Tensor &param : trained.take_front(p))
      params.push_back(run.shard.globalize(param, run.comm));
    if (run.comm.isRoot())
      state.accuracyCurve.push_back(
          measureAccuracy(run.globalPrograms, run.model, run.rows, params,
                          run.validation ? *run.validation : run.train));
  }
  if (EarlyStoppingState *stopping =
          state.stopping ? &*state.stopping : nullptr;
      stopping && step % stepsPerEpoch == 0) {
    int64_t epoch = step / stepsPerEpoch;
    recordEpoch(*stopping, epoch, run.settings.patience,
                evaluateLosses(run.programs, run.model, run.rows,
                               trained.take_front(p), *run.validation),
                trained.take_front(p));
    for (int64_t member = 0; member < nLocal; ++member)
      if (stopping->stoppedEpoch[member] == epoch)
        copyMember(trained, frozen, member);
    if (run.comm.allTrue(stopping->allStopped()))
      return epoch;
  }
  if (run.checkpointEvery && step % run.checkpointEvery == 0 && step != last)
    checkpoint();
  return std::nullopt;
}

void GroupSteps::syncState() {
  state.params.clear(), state.m.clear(), state.v.clear();
  for (size_t i = 0; i < p; ++i) {
    state.params.push_back(args[i]);
    state.m.push_back(args[p + i]);
    state.v.push_back(args[2 * p + i]);
  }
}

void GroupSteps::finish() {
  syncState();
  checkpoint();
}

void GroupSteps::checkpoint() {
  if (run.checkpointTo.empty())
    return;
  syncState();
  // Every process's members, written by the first.
  TrainState global = run.shard.globalize(state, run.comm);
  if (!run.comm.isRoot())
    return;
  try {
    writeCheckpoint(run.checkpointTo, run.model, global, run.settings.toJson());
  } catch (const Failure &failure) {
    throw Failure("cannot write the checkpoint of step " +
                  std::to_string(state.step) + " to " + run.checkpointTo +
                  ": " + failure.what() +
                  (run.committed ? "; " + run.checkpointTo +
                                       " keeps the checkpoint of step " +
                                       std::to_string(*run.committed)
                                 : std::string()));
  }
  run.committed = state.step;
}

double ens::train::trainGroupSteps(llvm::ArrayRef<TrainingRun *> runs,
                                   llvm::ArrayRef<TrainState *> states,
                                   int64_t toRun, const GroupsStep &stepAll,
                                   const TrainingObserver &observer) {
  // Every group's arguments, side by side, in one vector that the groups
  // own slices of.
  std::vector<size_t> offsets{0};
  for (const TrainingRun *run : runs)
    offsets.push_back(offsets.back() + 3 * run->model.params.size() + 4);
  std::vector<ens::Tensor> args(
      offsets.back(), ens::Tensor(ens::TensorType{ens::DType::F32, {}}));
  std::vector<GroupSteps> groups;
  for (size_t g = 0; g < runs.size(); ++g)
    groups.emplace_back(*runs[g], *states[g],
                        llvm::MutableArrayRef<ens::Tensor>(args).slice(
                            offsets[g], offsets[g + 1] - offsets[g]));
  // A group whose members have all stopped takes no more steps, as a run
  // of its own would not: the others' steps leave it as it is.
  std::vector<bool> stopped(runs.size(), false);
  // Each group goes on from its own step (a resumed group may have stopped
  // before the others); the observer hears the first group's.
  std::vector<int64_t> firsts;
  for (const TrainState *state : states)
    firsts.push_back(state->step);
  Clock::time_point trainStart = Clock::now();
  for (int64_t done = 1; done <= toRun; ++done) {
    for (size_t g = 0; g < groups.size(); ++g)
      groups[g].prepare(firsts[g] + done);
    std::vector<ens::Tensor> results = stepAll(args, groups[0].batchRows());
    // Every member's loss (NaN for those of a stopped group, which took no
    // step), and the sum over the members that stepped.
    std::vector<float> values;
    double sum = 0;
    int64_t stepped = 0;
    size_t result = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      const size_t count = offsets[g + 1] - offsets[g] - 3;
      llvm::MutableArrayRef<ens::Tensor> mine =
          llvm::MutableArrayRef<ens::Tensor>(results).slice(result, count);
      result += count;
      if (stopped[g]) {
        // It took no step: no loss, but every member keeps its column.
        values.insert(values.end(), runs[g]->globalPrograms.getShape().total(),
                      std::numeric_limits<float>::quiet_NaN());
        continue;
      }
      std::vector<float> losses = groups[g].absorb(mine, firsts[g] + done);
      for (float loss : losses)
        sum += loss;
      stepped += static_cast<int64_t>(losses.size());
      values.insert(values.end(), losses.begin(), losses.end());
    }
    if (observer.stepDone)
      observer.stepDone(firsts[0] + done, sum / std::max<int64_t>(stepped, 1));
    if (observer.memberLosses)
      observer.memberLosses(firsts[0] + done, values);
    std::optional<int64_t> allStopped;
    for (size_t g = 0; g < groups.size(); ++g)
      if (!stopped[g])
        if (std::optional<int64_t> epoch =
                groups[g].endStep(firsts[g] + done, firsts[g] + toRun)) {
          stopped[g] = true;
          allStopped = epoch;
        }
    if (allStopped && llvm::all_of(stopped, [](bool done) { return done; })) {
      if (observer.allStopped)
        observer.allStopped(*allStopped);
      break;
    }
  }
  double seconds = secondsSince(trainStart);
  for (GroupSteps &group : groups)
    group.finish();
  return seconds;
}

double ens::train::trainSteps(TrainingRun &run, TrainState &state,
                              int64_t toRun) {
  TrainingRun *runs[] = {&run};
  TrainState *states[] = {&state};
  return trainGroupSteps(
      runs, states, toRun,
      [&](const std::vector<ens::Tensor> &args, int64_t rows) {
        return run.dataParallel
                   ? runDataParallelStep(run.programs, run.comm, args)
                   : run.programs.step(rows).run(args);
      },
      run.observer);
}
