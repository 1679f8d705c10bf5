//===- Trainer.cpp - Train an ensemble, the library's entry ---------------===//

#include "ens/Train/Trainer.h"

#include "ens/Train/EarlyStopping.h"
#include "ens/Train/Failure.h"
#include "ens/Train/InitialParameters.h"

#include "ens/Support/Sizes.h"

#include <cmath>
#include <cstdlib>

using namespace ens::train;

/// Refuses to train `members` members of `model` when even a lower bound
/// of the memory that takes is over the buffer limit, before anything is
/// generated or allocated.
static void checkMemory(const Model &model, int64_t members, int64_t rows) {
  uint64_t bytes = estimateTrainingBytes(model, members, rows);
  int64_t limit = mlir::ens::getDefaultMaxBufferBytes();
  if (bytes <= static_cast<uint64_t>(limit))
    return;
  std::string needed =
      bytes > uint64_t(INT64_MAX)
          ? "more than " + mlir::ens::formatBytes(INT64_MAX)
          : mlir::ens::formatBytes(static_cast<int64_t>(bytes));
  throw Failure("training " + std::to_string(members) +
                (members == 1 ? " member of " : " members of ") + model.name +
                " needs at least " + needed +
                " for parameters, gradients, Adam's moments and activations, "
                "over the limit of " +
                mlir::ens::formatBytes(limit) +
                " (half of the memory or of the address-space limit; "
                "ENS_MAX_BUFFER_BYTES sets it); train fewer --members");
}

Trainer::Trainer(ens::Context &context, TrainOptions options,
                 Communicator &comm)
    : context(context), options(std::move(options)), comm(comm) {
  Settings &settings = this->options.settings;
  const std::string &modelName = this->options.modelName;
  const bool resumed = this->options.resumed.has_value();
  // The validation set may come from the checkpoint.
  if (settings.patience && !settings.validates() &&
      !this->options.validationData)
    throw Failure("--patience needs a validation set: give --val or "
                  "--val-split");
  bool hasData = !settings.data.empty() || this->options.trainData;
  if (settings.ensembles > 1 && !hasData)
    throw Failure("--ensembles needs --data with each ensemble's targets (the "
                  "built-in problem has one set)");
  if (settings.task == Task::Classify &&
      ((settings.model.empty() && settings.modelText.empty()) || !hasData))
    throw Failure("--task=classify needs --model, a classifier returning "
                  "logits, and --data with integer class labels (the built-in "
                  "model and problem are a regression)");
  model.emplace(
      loadModel(context, modelName, this->options.modelText, settings.task));
  if (!this->options.checkpointTo.empty() &&
      settings.modelText.size() > kMaxCheckpointModelBytes)
    throw Failure("the model has " + std::to_string(settings.modelText.size()) +
                  " bytes, more than the " +
                  std::to_string(kMaxCheckpointModelBytes) +
                  " a checkpoint keeps a copy of; train it without "
                  "--checkpoint");
  Batching &batching = settings.batching;
  if (model->openBatch()) {
    if (!batching.batchSize)
      throw Failure(modelName + " leaves its batch open (x is " +
                    model->x.str() + "): give --batch-size");
  } else {
    if (!batching.batchSize)
      batching.batchSize = model->batchSize();
    if (batching.batchSize != model->batchSize())
      throw Failure("the batch size, " + std::to_string(batching.batchSize) +
                    (resumed ? " (the checkpoint's)" : "") +
                    ", differs from the batch of " + modelName + " (x is " +
                    model->x.str() +
                    "); the two must be the same, or the model may leave its "
                    "batch open (`?`)");
    // It cannot take a partial batch.
    batching.dropLast = true;
  }
  rows = batching.batchSize;
  // The state holds every ensemble's members.
  shape =
      ProgramShape{settings.members, settings.ensembles, batching.perMember()};
  text = generateProgram(*model, shape, settings.adam);
}

void Trainer::loadData() {
  const Settings &settings = options.settings;
  const std::string &modelName = options.modelName;
  const bool dataParallel = options.dataParallel;
  // This process's members (all of them but under mpirun, unless each
  // process takes a part of every batch), which it trains with a program of
  // its own.
  if (dataParallel && !model->openBatch())
    throw Failure("--data-parallel splits each batch over the processes, so " +
                  modelName + " must leave its batch open (`?`); x is " +
                  model->x.str());
  if (dataParallel && comm.size() > rows)
    throw Failure("--data-parallel needs a batch of at least one row per "
                  "process: the batch size is " +
                  std::to_string(rows) + ", and mpirun started " +
                  std::to_string(comm.size()) + " processes");
  if (!dataParallel && comm.size() > settings.members)
    throw Failure("--members=" + std::to_string(settings.members) +
                  " is fewer than the " + std::to_string(comm.size()) +
                  " processes mpirun started: each needs a member, or give "
                  "--data-parallel");
  shard = dataParallel
              ? MemberShard::of(settings.members, settings.ensembles, 0, 1)
              : MemberShard::of(settings.members, settings.ensembles,
                                comm.rank(), comm.size());
  localShape = ProgramShape{shard->count(), settings.ensembles,
                            settings.batching.perMember()};
  checkMemory(*model, localShape.total(), rows);

  // Data, checked before the (slower) compilation.
  const DataLayout layout = getLayout();
  if (options.targetColumns && *options.targetColumns != layout.targets)
    throw Failure(
        "--targets=" + std::to_string(*options.targetColumns) + ", but " +
        (model->task == Task::Classify
             ? std::string("a classifier takes one label column")
             : "the model's @forward returns " +
                   std::to_string(model->numOutputs()) + " outputs") +
        (shape.ensembles > 1
             ? " for each of --ensembles=" + std::to_string(shape.ensembles)
             : std::string()) +
        (layout.targets == 1
             ? std::string(": the data's last column is the target")
             : ": the data's last " + std::to_string(layout.targets) +
                   " columns are the targets"));
  if (options.trainData) {
    trainData = *options.trainData;
  } else if (settings.data.empty()) {
    problem.emplace(settings.seed, model->numFeatures(), model->numOutputs());
    trainData = problem->training(rows);
  } else {
    trainData = loadDataset(settings.data, layout, options.dataOptions);
  }
  if (options.validationData)
    validation = *options.validationData;
  else if (!settings.validationData.empty())
    validation =
        loadDataset(settings.validationData, layout, options.dataOptions);
  else if (settings.validationSplit > 0)
    validation =
        splitValidation(trainData, settings.validationSplit, settings.seed);
  if (trainData.rows < rows)
    throw Failure(
        "the batch size, " + std::to_string(rows) + ", is larger than the " +
        (settings.validationSplit > 0 ? "training part of the " : "") +
        "data: " +
        (options.trainData       ? std::string("the training data")
         : settings.data.empty() ? std::string("the built-in problem")
                                 : settings.data) +
        " has " + std::to_string(trainData.rows) + " rows" +
        (settings.validationSplit > 0 ? " after the split" : ""));
  if (validation && !model->openBatch() && validation->rows < rows)
    throw Failure("the validation set has " + std::to_string(validation->rows) +
                  " rows, fewer than a batch of " + std::to_string(rows) +
                  ": it is evaluated in whole batches");
  // Member i of every ensemble trains on the same rows.
  schedule.emplace(settings.batching, trainData.rows, shape.members,
                   settings.seed);
  toRun = options.epochs ? *options.epochs * schedule->stepsPerEpoch()
                         : options.steps;

  if (options.resumed)
    state = shard->localize(
        readCheckpoint(*options.resumed, *model, settings.patience > 0));
  if (state.step > kMaxSteps - toRun)
    throw Failure((options.epochs
                       ? "--epochs=" + std::to_string(*options.epochs) + " (" +
                             std::to_string(toRun) + " steps)"
                       : "--steps=" + std::to_string(options.steps)) +
                  " would train past step " + std::to_string(kMaxSteps) +
                  ", the most a checkpoint holds");
}

void Trainer::compile() {
  // The processes on a machine share its GPUs out, one each in turn
  // (ENS_CUDA_DEVICE modulo the devices CUDA_VISIBLE_DEVICES leaves), unless
  // the user chose.
  if (options.target == ens::Target::Cuda && comm.size() > 1 &&
      !std::getenv("ENS_CUDA_DEVICE"))
    ::setenv("ENS_CUDA_DEVICE", std::to_string(comm.localRank()).c_str(), 1);
  ens::Module module = [&] {
    try {
      return context.parse(text);
    } catch (const ens::Error &error) {
      throw Failure("cannot build the training program for model " +
                    options.modelName + ": " + error.what());
    }
  }();
  // The programs of all members (initialisation and the summary), and of
  // this process's (training).
  globalPrograms.emplace(module, options.target, *model, options.modelName,
                         shape, options.threads);
  if (!shard->isWhole())
    localPrograms.emplace(context.parse(generateProgram(*model, localShape,
                                                        options.settings.adam)),
                          options.target, *model, options.modelName, localShape,
                          options.threads);
  Programs &programs = getLocalPrograms();
  // The programs of a whole batch now, the others when they are needed.
  if (options.ownStep)
    programs.step(rows);
  programs.losses(rows);
  if (!options.resumed && options.initFrom.empty() &&
      options.initialParams.empty())
    globalPrograms->init();
}

void Trainer::initialize() {
  const Settings &settings = options.settings;
  Programs &programs = getLocalPrograms();
  if (!options.resumed) {
    // One key for every member: the seed's two 32-bit halves.
    ens::Tensor key(
        ens::TensorType{ens::DType::I32, {2}},
        {static_cast<double>(static_cast<int32_t>(settings.seed & 0xffffffffu)),
         static_cast<double>(static_cast<int32_t>(settings.seed >> 32))});
    // Every ensemble starts from the same members, as separate runs would;
    // every process initialises them all and keeps its own.
    std::vector<ens::Tensor> initial =
        !options.initialParams.empty() ? takeInitialParameters()
        : options.initFrom.empty()
            ? globalPrograms->init().run({key})
            : readInitialParameters(options.initFrom, *model, shape.members);
    for (const ens::Tensor &param : initial) {
      state.params.push_back(
          shard->localize(repeatMembers(param, shape.ensembles)));
      state.m.emplace_back(state.params.back().type());
      state.v.emplace_back(state.params.back().type());
    }
    const int64_t m = shape.members;
    std::vector<float> rates;
    for (int64_t i = 0; i < shape.total(); ++i)
      rates.push_back(m == 1 ? settings.lrMin
                             : settings.lrMin *
                                   std::pow(settings.lrMax / settings.lrMin,
                                            double(i % m) / double(m - 1)));
    state.learningRates = shard->localize(rates);
    state.initialLoss =
        evaluateLosses(programs, *model, rows, state.params, trainData);
  }
  if (settings.patience && !state.stopping)
    state.stopping =
        EarlyStoppingState::start(localShape.total(), state.params);
  // The step of the checkpoint that checkpointTo holds, for messages.
  if (options.resumed &&
      absolutePath(options.checkpointTo) == absolutePath(options.resumeDir))
    committed = state.step;
}

std::vector<ens::Tensor> Trainer::takeInitialParameters() {
  std::vector<ens::Tensor> params = std::move(options.initialParams);
  if (params.size() != model->params.size())
    throw Failure("the model has " + std::to_string(model->params.size()) +
                  " parameters; " + std::to_string(params.size()) +
                  " starting weights were given");
  for (size_t i = 0; i < params.size(); ++i) {
    ens::TensorType expected = model->params[i];
    expected.shape.insert(expected.shape.begin(), shape.members);
    if (params[i].type() != expected)
      throw Failure("starting weights of parameter " + model->paramNames[i] +
                    " are " + params[i].type().str() + ", expected " +
                    expected.str() + " (one per member)");
  }
  return params;
}

TrainingRun Trainer::makeRun(const TrainingObserver &observer) {
  firstStep = state.step;
  return TrainingRun{options.settings,
                     *model,
                     getLocalPrograms(),
                     *globalPrograms,
                     *shard,
                     comm,
                     trainData,
                     validation ? &*validation : nullptr,
                     *schedule,
                     rows,
                     options.checkpointTo,
                     committed,
                     options.dataParallel && comm.size() > 1,
                     options.checkpointEvery,
                     observer};
}

double Trainer::train(const TrainingObserver &observer) {
  TrainingRun run = makeRun(observer);
  return trainSteps(run, state, toRun);
}

std::optional<TrainSummary> Trainer::finish(double trainSeconds) {
  // The summary is the first process's, of every member.
  state = shard->globalize(state, comm);
  if (!comm.isRoot())
    return std::nullopt;
  // The checkpoint holds the state training goes on from; the summary is of
  // every member's best epoch.
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping) {
    for (int64_t member = 0; member < shape.total(); ++member)
      if (stopping->bestEpoch[member] > 0)
        copyMember(stopping->best, state.params, member);
  }
  TrainSummary summary;
  summary.finalLoss =
      evaluateLosses(*globalPrograms, *model, rows, state.params, trainData);
  if (validation)
    summary.validationLoss = evaluateLosses(*globalPrograms, *model, rows,
                                            state.params, *validation);
  summary.trainSeconds = trainSeconds;
  summary.trainedSteps = state.step - firstStep;
  return summary;
}

std::vector<PredictionArray> Trainer::predict(const Dataset &data) {
  if (shape.ensembles != 1)
    throw Failure("predicting in memory takes one ensemble; there are " +
                  std::to_string(shape.ensembles));
  EnsembleMembers members{*globalPrograms, *model, rows, state.params};
  return predictEnsemble(members, data);
}
