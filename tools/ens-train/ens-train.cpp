//===- ens-train.cpp - Train an ensemble of a one-member model ------------===//
//
// Usage:
//   ens-train [--model=FILE.mlir] [--task=regress|classify] [--members=N]
//             [--ensembles=K] [--steps=N | --epochs=N] [--batch-size=B]
//             [--lr=X | --lr-min=X --lr-max=X] [--seed=N] [--data=FILE]
//             [--shuffle=none|shared|member] [--bootstrap]
//             [--val=FILE | --val-split=F] [--patience=P]
//             [--plot=FILE.svg] [--checkpoint=DIR] [--resume=DIR] ...
//   ens-train predict --checkpoint=DIR --data=FILE --out=FILE.npz|FILE.csv
//
// Trains N members of a model written for one member (@forward, and
// optionally @loss; by default examples/mlp.mlir, built in) together, or K
// ensembles of N members each on K groups of targets: ONE generated
// program runs an Adam step of every member on a batch, each member with
// its own learning rate (log-spaced from --lr-min to --lr-max), and epochs
// walk the data in batches (Batches.h). It then reports the members'
// losses and the task's metrics (Metrics.h), and draws them. Without
// --data it trains on a built-in 1-D regression problem with a gap in its
// inputs, where the members should disagree (see Data.h).
// docs/ens-train.md is the user's guide.
//
// ens-train uses ens only through its public C++ API (ens/ens.h). Every
// failure prints one line starting with "ens-train: error:" and exits with
// status 1. Nothing it reads is trusted: files are read bounded (Files.h),
// checkpoints are validated before use, and a lower bound of the memory
// training takes is checked against the buffer limit before anything is
// compiled. Checkpoints are committed atomically (Checkpoint.h): a crash or
// a full disk never leaves one that cannot be resumed.
//
//===----------------------------------------------------------------------===//

#include "Batches.h"
#include "Checkpoint.h"
#include "Communicator.h"
#include "Data.h"
#include "EarlyStopping.h"
#include "Evaluation.h"
#include "Files.h"
#include "Flags.h"
#include "InitialParameters.h"
#include "Plot.h"
#include "Predict.h"
#include "Program.h"
#include "Progress.h"
#include "Report.h"
#include "Settings.h"
#include "Sharding.h"
#include "Training.h"
#include "common/Failure.h"

#include "ens/Support/CommandLine.h"
#include "ens/Support/Sizes.h"
#include "ens/Support/SourceLimits.h"
#include "ens/ens.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <optional>
#include <tuple>
#include <type_traits>

using namespace ens_train;
using ens_tools::Failure;
using nlohmann::json;
namespace cl = llvm::cl;

namespace {
/// The default model's text, examples/mlp.mlir at build time.
const char kDefaultModel[] =
#include "DefaultModel.inc"
    ;
constexpr const char *kDefaultModelName = "examples/mlp.mlir (built in)";

/// Refuses to train `members` members of `model` when even a lower bound
/// of the memory that takes is over the buffer limit, before anything is
/// generated or allocated.
void checkMemory(const Model &model, int64_t members, int64_t rows) {
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

/// The model's text: the built-in one, the copy a resumed checkpoint
/// holds, or the file's, which checkpoints then keep (settings.modelText).
std::string readModel(Settings &settings) {
  if (settings.model.empty())
    return kDefaultModel;
  if (settings.modelText.empty())
    settings.modelText =
        readInputFile(settings.model, "model", mlir::ens::kMaxSourceBytes);
  return settings.modelText;
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

int run(Communicator &comm) {
  if (outPath.getNumOccurrences())
    throw Failure("--out applies to ens-train predict only");
  if (!initFrom.empty() && !resumeDir.empty())
    throw Failure("--init-from starts a run; a resumed run continues from "
                  "its checkpoint's weights");
  Settings settings = settingsFromFlags();
  std::optional<Checkpoint> resumed;
  if (!resumeDir.empty()) {
    resumed = findCheckpoint(resumeDir);
    adoptCheckpoint(settings, *resumed, resumeDir);
  }
  // The validation set may come from the checkpoint.
  if (settings.patience && !settings.validates())
    throw Failure("--patience needs a validation set: give --val or "
                  "--val-split");
  std::string checkpointTo =
      checkpointDir.empty() ? std::string(resumeDir) : checkpointDir;
  if (!plotPath.empty()) {
    std::vector<RunInput> inputs = {
        {"model", settings.model},
        {"data", settings.data},
        {"validation data", settings.validationData}};
    if (resumed) {
      inputs.push_back({"checkpoint manifest", resumed->manifestPath()});
      inputs.push_back({"checkpoint state", resumed->statePath()});
    }
    refuseOutputOverInput(plotPath, "plot", inputs);
  }

  ens::Context context;
  std::string modelName =
      settings.model.empty() ? kDefaultModelName : settings.model;
  if (settings.ensembles > 1 && settings.data.empty())
    throw Failure("--ensembles needs --data with each ensemble's targets (the "
                  "built-in problem has one set)");
  if (settings.task == Task::Classify &&
      (settings.model.empty() || settings.data.empty()))
    throw Failure("--task=classify needs --model, a classifier returning "
                  "logits, and --data with integer class labels (the built-in "
                  "model and problem are a regression)");
  Model model =
      loadModel(context, modelName, readModel(settings), settings.task);
  if (!checkpointTo.empty() &&
      settings.modelText.size() > kMaxCheckpointModelBytes)
    throw Failure("the model has " + std::to_string(settings.modelText.size()) +
                  " bytes, more than the " +
                  std::to_string(kMaxCheckpointModelBytes) +
                  " a checkpoint keeps a copy of; train it without "
                  "--checkpoint");
  Batching &batching = settings.batching;
  if (model.openBatch()) {
    if (!batching.batchSize)
      throw Failure(modelName + " leaves its batch open (x is " +
                    model.x.str() + "): give --batch-size");
  } else {
    if (!batching.batchSize)
      batching.batchSize = model.batchSize();
    if (batching.batchSize != model.batchSize())
      throw Failure("the batch size, " + std::to_string(batching.batchSize) +
                    (resumed ? " (the checkpoint's)" : "") +
                    ", differs from the batch of " + modelName + " (x is " +
                    model.x.str() +
                    "); the two must be the same, or the model may leave its "
                    "batch open (`?`)");
    // It cannot take a partial batch.
    batching.dropLast = true;
  }
  const int64_t rows = batching.batchSize;
  // The state holds every ensemble's members: n of them.
  const ProgramShape shape{settings.members, settings.ensembles,
                           batching.perMember()};
  const int64_t n = shape.total();
  std::string text = generateProgram(model, shape, settings.adam);
  if (emitIr) {
    llvm::outs() << text;
    return 0;
  }
  // This process's members (all of them but under mpirun, unless each
  // process takes a part of every batch), which it trains with a program of
  // its own.
  if (dataParallel && !model.openBatch())
    throw Failure("--data-parallel splits each batch over the processes, so " +
                  modelName + " must leave its batch open (`?`); x is " +
                  model.x.str());
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
  const MemberShard shard =
      dataParallel ? MemberShard::of(settings.members, settings.ensembles, 0, 1)
                   : MemberShard::of(settings.members, settings.ensembles,
                                     comm.rank(), comm.size());
  const ProgramShape localShape{shard.count(), settings.ensembles,
                                batching.perMember()};
  const int64_t nLocal = localShape.total();
  checkMemory(model, nLocal, rows);

  // Data, checked before the (slower) compilation.
  const DataLayout layout = getDataLayout(model, shape.ensembles);
  if (targetColumns.getNumOccurrences() && targetColumns != layout.targets)
    throw Failure("--targets=" + std::to_string(targetColumns) + ", but " +
                  (model.task == Task::Classify
                       ? std::string("a classifier takes one label column")
                       : "the model's @forward returns " +
                             std::to_string(model.numOutputs()) + " outputs") +
                  (shape.ensembles > 1 ? " for each of --ensembles=" +
                                             std::to_string(shape.ensembles)
                                       : std::string()) +
                  (layout.targets == 1
                       ? std::string(": the data's last column is the target")
                       : ": the data's last " + std::to_string(layout.targets) +
                             " columns are the targets"));
  std::optional<SyntheticProblem> problem;
  Dataset train;
  if (settings.data.empty()) {
    problem.emplace(settings.seed, model.numFeatures(), model.numOutputs());
    train = problem->training(rows);
  } else {
    train = loadDataset(settings.data, layout, {allowNonFinite, csvHeader});
  }
  std::optional<Dataset> validation;
  if (!settings.validationData.empty())
    validation = loadDataset(settings.validationData, layout,
                             {allowNonFinite, csvHeader});
  else if (settings.validationSplit > 0)
    validation =
        splitValidation(train, settings.validationSplit, settings.seed);
  if (train.rows < rows)
    throw Failure(
        "the batch size, " + std::to_string(rows) + ", is larger than the " +
        (settings.validationSplit > 0 ? "training part of the " : "") +
        "data: " +
        (settings.data.empty() ? "the built-in problem" : settings.data) +
        " has " + std::to_string(train.rows) + " rows" +
        (settings.validationSplit > 0 ? " after the split" : ""));
  if (validation && !model.openBatch() && validation->rows < rows)
    throw Failure("the validation set has " + std::to_string(validation->rows) +
                  " rows, fewer than a batch of " + std::to_string(rows) +
                  ": it is evaluated in whole batches");
  // Member i of every ensemble trains on the same rows.
  BatchSchedule schedule(batching, train.rows, shape.members, settings.seed);
  const int64_t stepsPerEpoch = schedule.stepsPerEpoch();
  const int64_t toRun = epochs.getNumOccurrences()
                            ? int64_t(epochs) * stepsPerEpoch
                            : int64_t(steps);

  TrainState state;
  if (resumed)
    state =
        shard.localize(readCheckpoint(*resumed, model, settings.patience > 0));
  if (state.step > kMaxSteps - toRun)
    throw Failure((epochs.getNumOccurrences()
                       ? "--epochs=" + std::to_string(epochs) + " (" +
                             std::to_string(toRun) + " steps)"
                       : "--steps=" + std::to_string(steps)) +
                  " would train past step " + std::to_string(kMaxSteps) +
                  ", the most a checkpoint holds");

  llvm::outs() << "ens-train: "
               << (shape.ensembles > 1
                       ? std::to_string(shape.ensembles) + " ensembles of "
                       : std::string())
               << shape.members << " members of " << modelName << ", "
               << model.params.size() << " parameters ("
               << model.parameterValues << " values) per member\n";
  if (problem)
    llvm::outs() << "  data: built-in 1-D regression with a gap in ["
                 << formatNumber(SyntheticProblem::kGapLow) << ", "
                 << formatNumber(SyntheticProblem::kGapHigh) << "], " << rows
                 << " points, seed " << settings.seed << "\n";
  else
    llvm::outs() << "  data: " << settings.data << ", " << train.rows
                 << " rows\n";
  if (validation)
    llvm::outs() << "  validation: " << validation->rows << " rows"
                 << (settings.validationData.empty()
                         ? " drawn from the data"
                         : " of " + settings.validationData)
                 << (settings.patience
                         ? ", patience " + std::to_string(settings.patience) +
                               " epochs"
                         : std::string())
                 << "\n";
  int64_t partial = batching.dropLast ? 0 : train.rows % rows;
  llvm::outs() << "  batches of " << rows << " rows"
               << (partial ? " (the last of " + std::to_string(partial) + ")"
                           : std::string())
               << ", " << stepsPerEpoch
               << (stepsPerEpoch == 1 ? " step" : " steps")
               << " per epoch, shuffle " << getShuffleName(batching.shuffle)
               << (batching.bootstrap ? ", bootstrap" : "") << "\n";
  llvm::outs() << "  Adam, learning rates "
               << (settings.lrMin == settings.lrMax
                       ? formatNumber(settings.lrMin)
                       : formatNumber(settings.lrMin) + " to " +
                             formatNumber(settings.lrMax) + " (log-spaced)")
               << ", " << toRun << " steps on the "
               << getBackend(backendName).description << " backend\n";
  if (comm.size() > 1 && dataParallel)
    llvm::outs() << "  " << comm.size()
                 << " processes, each training every member on a part of "
                    "each batch\n";
  else if (comm.size() > 1)
    llvm::outs() << "  " << comm.size() << " processes, each training "
                 << shard.count() << " or so members of each ensemble\n";
  if (resumed) {
    llvm::outs() << "  resuming from " << resumeDir << " at step " << state.step
                 << "\n";
    if (!resumed->note.empty())
      llvm::outs() << "  note: " << resumed->note << "\n";
  }
  llvm::outs().flush();

  Clock::time_point compileStart = Clock::now();
  ens::Target target = getBackend(backendName).target;
  // The processes on a machine share its GPUs out, one each in turn
  // (ENS_CUDA_DEVICE modulo the devices CUDA_VISIBLE_DEVICES leaves), unless
  // the user chose.
  if (target == ens::Target::Cuda && comm.size() > 1 &&
      !std::getenv("ENS_CUDA_DEVICE"))
    ::setenv("ENS_CUDA_DEVICE", std::to_string(comm.localRank()).c_str(), 1);
  ens::Module module = [&] {
    try {
      return context.parse(text);
    } catch (const ens::Error &error) {
      throw Failure("cannot build the training program for model " + modelName +
                    ": " + error.what());
    }
  }();
  // The programs of all members (initialisation and the summary), and of
  // this process's (training).
  Programs globalPrograms(module, target, model, modelName, shape, threads);
  std::optional<Programs> localPrograms;
  if (!shard.isWhole())
    localPrograms.emplace(
        context.parse(generateProgram(model, localShape, settings.adam)),
        target, model, modelName, localShape, threads);
  Programs &programs = localPrograms ? *localPrograms : globalPrograms;
  // The programs of a whole batch now, the others when they are needed.
  programs.step(rows);
  programs.losses(rows);
  if (!resumed && initFrom.empty())
    globalPrograms.init();
  llvm::outs() << "  compiled in "
               << llvm::format("%.1f", secondsSince(compileStart)) << " s\n";

  if (!resumed) {
    // One key for every member: the seed's two 32-bit halves.
    ens::Tensor key(
        ens::TensorType{ens::DType::I32, {2}},
        {static_cast<double>(static_cast<int32_t>(settings.seed & 0xffffffffu)),
         static_cast<double>(static_cast<int32_t>(settings.seed >> 32))});
    // Every ensemble starts from the same members, as separate runs would;
    // every process initialises them all and keeps its own.
    std::vector<ens::Tensor> initial =
        initFrom.empty()
            ? globalPrograms.init().run({key})
            : readInitialParameters(initFrom, model, shape.members);
    for (const ens::Tensor &param : initial) {
      state.params.push_back(
          shard.localize(repeatMembers(param, shape.ensembles)));
      state.m.emplace_back(state.params.back().type());
      state.v.emplace_back(state.params.back().type());
    }
    const int64_t m = shape.members;
    std::vector<float> rates;
    for (int64_t i = 0; i < n; ++i)
      rates.push_back(m == 1 ? settings.lrMin
                             : settings.lrMin *
                                   std::pow(settings.lrMax / settings.lrMin,
                                            double(i % m) / double(m - 1)));
    state.learningRates = shard.localize(rates);
    state.initialLoss =
        evaluateLosses(programs, model, rows, state.params, train);
  }
  if (settings.patience && !state.stopping)
    state.stopping = EarlyStoppingState::start(nLocal, state.params);

  // The step of the checkpoint that checkpointTo holds, for messages.
  std::optional<int64_t> committed;
  if (resumed && absolutePath(checkpointTo) == absolutePath(resumeDir))
    committed = state.step;
  TrainingRun training{settings,
                       model,
                       programs,
                       globalPrograms,
                       shard,
                       comm,
                       train,
                       validation ? &*validation : nullptr,
                       schedule,
                       rows,
                       checkpointTo,
                       committed,
                       dataParallel && comm.size() > 1};
  const int64_t first = state.step;
  double trainSeconds = trainSteps(training, state, toRun);
  // The summary is the first process's, of every member.
  state = shard.globalize(state, comm);
  if (!comm.isRoot())
    return 0;
  // The checkpoint holds the state training goes on from; the summary is of
  // every member's best epoch.
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping) {
    for (int64_t member = 0; member < n; ++member)
      if (stopping->bestEpoch[member] > 0)
        copyMember(stopping->best, state.params, member);
  }

  // The summary.
  std::vector<float> finalLoss =
      evaluateLosses(globalPrograms, model, rows, state.params, train);
  std::vector<float> validationLoss;
  if (validation)
    validationLoss =
        evaluateLosses(globalPrograms, model, rows, state.params, *validation);
  if (int64_t trained = state.step - first)
    llvm::outs() << llvm::format(
        "trained %lld steps in %.1f s (%.1f steps/s, %.0f member-steps/s)\n",
        static_cast<long long>(trained), trainSeconds, trained / trainSeconds,
        trained * double(n) / trainSeconds);
  reportMembers(state, finalLoss, validation ? &validationLoss : nullptr,
                printLosses, shape.members);
  auto [lo, median, hi] = minMedianMax(finalLoss);
  int64_t fell = 0;
  for (int64_t i = 0; i < n; ++i)
    fell += finalLoss[i] < state.initialLoss[i];
  llvm::outs() << "final loss after " << state.step << " steps: min "
               << formatNumber(lo) << ", median " << formatNumber(median)
               << ", max " << formatNumber(hi) << " (initially median "
               << formatNumber(minMedianMax(state.initialLoss)[1]) << ")\n";
  llvm::outs() << "members whose loss fell: " << fell << " of " << n << "\n";

  LossCurves curves;
  curves.min.assign(state.curveMin.begin(), state.curveMin.end());
  curves.median.assign(state.curveMedian.begin(), state.curveMedian.end());
  curves.max.assign(state.curveMax.begin(), state.curveMax.end());
  std::string title = "ens-train: " + std::to_string(n) + " members of " +
                      modelName + ", " + std::to_string(state.step) + " steps";
  std::string plot;
  if (settings.task == Task::Classify) {
    // The reliability diagram is of the validation set when there is one.
    ClassificationMetrics metrics = reportClassification(
        globalPrograms, model, rows, state, train, "training data");
    if (validation)
      metrics = reportClassification(globalPrograms, model, rows, state,
                                     *validation, "validation data");
    plot = renderPlot(title, metrics, curves,
                      std::vector<double>(state.accuracyCurve.begin(),
                                          state.accuracyCurve.end()));
  } else {
    FitPanel fit = reportFit(globalPrograms, model, rows, state, train,
                             validation ? &*validation : nullptr,
                             problem ? &*problem : nullptr);
    plot = renderPlot(title, fit, curves);
  }
  if (!plotPath.empty()) {
    writeOutputFile(plotPath, plot, "plot");
    llvm::outs() << "wrote plot " << plotPath << "\n";
  }
  if (!checkpointTo.empty())
    llvm::outs() << "wrote checkpoint " << checkpointTo << " (step "
                 << state.step << ")\n";
  return 0;
}

int fail(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  llvm::outs().flush();
  llvm::WithColor::error(llvm::errs(), "ens-train") << message << "\n";
  return 1;
}
} // namespace

/// The flags of `ens-train predict`; the others are training's.
static const char *const kPredictFlags[] = {
    "checkpoint", "data",           "out", "backend", "cpu-threads",
    "header",     "allow-nonfinite"};

/// Runs `ens-train predict`, after checking that no training flag was given.
int predict() {
  for (const auto &[name, option] : cl::getRegisteredOptions())
    if (option->getNumOccurrences() &&
        llvm::is_contained(option->Categories, &category) &&
        !llvm::is_contained(kPredictFlags, name))
      throw Failure("--" + name.str() +
                    " does not apply to ens-train predict, which takes "
                    "--checkpoint, --data, --out, --backend, --cpu-threads, "
                    "--header and --allow-nonfinite");
  PredictRequest request;
  request.checkpointDir = checkpointDir;
  request.dataPath = dataPath;
  request.outPath = outPath;
  request.target = getBackend(backendName).target;
  request.allowNonFinite = allowNonFinite;
  request.threads = threads;
  request.header = csvHeader;
  runPredict(request, kDefaultModel, kDefaultModelName);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // `ens-train predict ...`: the subcommand, then the same kind of flags.
  bool predicting = argc > 1 && llvm::StringRef(argv[1]) == "predict";
  std::vector<char *> arguments(argv, argv + argc);
  if (predicting)
    arguments.erase(arguments.begin() + 1);
  // Past a file-size limit (ulimit -f), a write then fails with EFBIG and is
  // reported like a full disk, instead of SIGXFSZ killing the run.
  std::signal(SIGXFSZ, SIG_IGN);
  mlir::ens::hideUnrelatedOptions(&category);
  mlir::ens::registerDebugOptions();
  // `ens-train predict --help` shows predict's flags alone; the others
  // still parse, so that predict can say they do not apply.
  if (predicting)
    for (const auto &[name, option] : cl::getRegisteredOptions())
      if (llvm::is_contained(option->Categories, &category) &&
          !llvm::is_contained(kPredictFlags, name))
        option->setHiddenFlag(cl::ReallyHidden);
  std::string parseErrors;
  llvm::raw_string_ostream errors(parseErrors);
  if (!cl::ParseCommandLineOptions(
          arguments.size(), arguments.data(),
          predicting
              ? "Predict with a trained ensemble: ens-train predict "
                "--checkpoint=DIR --data=FILE --out=FILE.npz|FILE.csv runs "
                "every member of the checkpoint on the rows of --data and "
                "writes each member's outputs with the ensemble's mean and "
                "spread (regression) or mean probabilities and entropy "
                "(classification)\n"
              : "Train an ensemble of a one-member ens model, all members in "
                "one program\n",
          &errors)) {
    if (!badOptionValue.empty())
      return fail(badOptionValue);
    // One line: the parser's messages without their "ens-train: " prefixes
    // and "Try: '... --help'".
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(parseErrors).split(lines, '\n', -1, false);
    std::string message;
    for (llvm::StringRef line : lines) {
      line = line.trim();
      line.consume_front(llvm::sys::path::filename(argv[0]).str() + ": ");
      line = line.split("  Try: ").first;
      message += (message.empty() ? "" : " ") + line.str();
    }
    return fail(message.empty() ? "invalid command line" : message);
  }
  std::unique_ptr<Communicator> comm;
  // A failure on one of several processes ends them all (the others may be
  // waiting for it in a collective); alone, it is one line and status 1.
  auto failAll = [&](const std::string &message) {
    if (comm && comm->size() > 1)
      comm->abort(message);
    return fail(message);
  };
  try {
    comm = createCommunicator();
    // Only the first process prints; the others' output would repeat it.
    if (!comm->isRoot())
      discardStandardOutput();
    // predict runs in the first process alone.
    if (predicting)
      return comm->isRoot() ? predict() : 0;
    return run(*comm);
  } catch (const Failure &failure) {
    return failAll(failure.what());
  } catch (const ens::Error &error) {
    return failAll(error.what());
  } catch (const std::exception &error) {
    return failAll(error.what());
  }
}
