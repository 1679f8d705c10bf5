//===- Training.cpp - The training loop -----------------------------------===//

#include "ens/Train/Training.h"

#include "ens/Train/DataParallel.h"
#include "ens/Train/EarlyStopping.h"
#include "ens/Train/Failure.h"
#include "ens/Train/Report.h"

#include "llvm/Support/raw_ostream.h"

#include <tuple>

using namespace ens::train;
using ens::train::Failure;

double ens::train::trainSteps(TrainingRun &run, TrainState &state,
                              int64_t toRun) {
  const Settings &settings = run.settings;
  const Model &model = run.model;
  Programs &programs = run.programs;
  const MemberShard &shard = run.shard;
  Communicator &comm = run.comm;
  const Dataset &train = run.train;
  const Dataset *validation = run.validation;
  const int64_t rows = run.rows;
  const int64_t nLocal = programs.getShape().total();
  const int64_t n = run.globalPrograms.getShape().total();
  const bool perMember = programs.getShape().batchPerMember;
  const int64_t stepsPerEpoch = run.schedule.stepsPerEpoch();

  // The step's arguments: parameters, moments, step, rates, x, targets.
  const size_t p = model.params.size();
  std::vector<ens::Tensor> args;
  for (auto *part : {&state.params, &state.m, &state.v})
    for (ens::Tensor &tensor : *part)
      args.push_back(std::move(tensor));
  args.push_back(ens::Tensor(ens::TensorType{ens::DType::F32, {}}));
  args.push_back(makeTensor({nLocal}, state.learningRates));
  // x and targets: each step's batch.
  args.push_back(ens::Tensor(ens::TensorType{ens::DType::F32, {}}));
  args.push_back(ens::Tensor(ens::TensorType{ens::DType::F32, {}}));
  auto syncState = [&] {
    state.params.clear(), state.m.clear(), state.v.clear();
    for (size_t i = 0; i < p; ++i) {
      state.params.push_back(args[i]);
      state.m.push_back(args[p + i]);
      state.v.push_back(args[2 * p + i]);
    }
  };
  auto checkpoint = [&] {
    if (run.checkpointTo.empty())
      return;
    syncState();
    // Every process's members, written by the first.
    TrainState global = shard.globalize(state, comm);
    if (!comm.isRoot())
      return;
    try {
      writeCheckpoint(run.checkpointTo, model, global, settings.toJson());
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
  };

  // A stopped member keeps the parameters and moments it stopped with.
  std::vector<ens::Tensor> frozen(args.begin(), args.begin() + 3 * p);
  llvm::MutableArrayRef<ens::Tensor> trained(args.data(), 3 * p);

  const int64_t first = state.step, last = first + toRun;
  Clock::time_point trainStart = Clock::now();
  for (int64_t step = first + 1; step <= last; ++step) {
    *static_cast<float *>(args[3 * p].data()) = static_cast<float>(step);
    std::tie(args[3 * p + 2], args[3 * p + 3]) =
        makeBatch(programs, run.schedule, train, step, shard.begin);
    std::vector<ens::Tensor> results =
        run.dataParallel
            ? runDataParallelStep(programs, comm, args)
            : programs.step(args[3 * p + 3].type().shape[perMember ? 1 : 0])
                  .run(args);
    for (size_t i = 0; i < 3 * p; ++i)
      args[i] = std::move(results[i]);
    EarlyStoppingState *stopping = state.stopping ? &*state.stopping : nullptr;
    if (stopping)
      for (int64_t member = 0; member < nLocal; ++member)
        if (stopping->stopped(member))
          copyMember(frozen, trained, member);
    const float *losses = floats(results[3 * p]);
    // The curves are of every process's members.
    std::vector<float> values =
        shard.globalize(std::vector<float>(losses, losses + nLocal), comm);
    double sum = 0;
    for (float loss : values)
      sum += loss;
    auto [lo, median, hi] = minMedianMax(values);
    state.curveMin.push_back(lo);
    state.curveMedian.push_back(median);
    state.curveMax.push_back(hi);
    state.step = step;
    if (run.observer.stepDone)
      run.observer.stepDone(step, sum / n);
    if (run.observer.memberLosses)
      run.observer.memberLosses(step, values);
    if (model.task == Task::Classify && step % stepsPerEpoch == 0) {
      // The ensemble's accuracy needs every member: the first process
      // measures it, which is the one that writes it.
      std::vector<ens::Tensor> params;
      for (const ens::Tensor &param : trained.take_front(p))
        params.push_back(shard.globalize(param, comm));
      if (comm.isRoot())
        state.accuracyCurve.push_back(
            measureAccuracy(run.globalPrograms, model, rows, params,
                            validation ? *validation : train));
    }
    if (stopping && step % stepsPerEpoch == 0) {
      int64_t epoch = step / stepsPerEpoch;
      recordEpoch(*stopping, epoch, settings.patience,
                  evaluateLosses(programs, model, rows, trained.take_front(p),
                                 *validation),
                  trained.take_front(p));
      for (int64_t member = 0; member < nLocal; ++member)
        if (stopping->stoppedEpoch[member] == epoch)
          copyMember(trained, frozen, member);
      if (comm.allTrue(stopping->allStopped())) {
        if (run.observer.allStopped)
          run.observer.allStopped(epoch);
        break;
      }
    }
    if (run.checkpointEvery && step % run.checkpointEvery == 0 && step != last)
      checkpoint();
  }
  double seconds = secondsSince(trainStart);
  syncState();
  checkpoint();
  return seconds;
}
