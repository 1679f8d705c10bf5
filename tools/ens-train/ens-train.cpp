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
//   ens-train --model=A.mlir --model=B.mlir ... [--members=N1,N2,...] ...
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
// Several --model flags train a heterogeneous ensemble, a group of members
// per model, in one step program, each group as its own run would train
// it (Groups.h). docs/ens-train.md is the user's guide.
//
// ens-train is a driver over the trainer library (include/ens/Train,
// docs/train.md), which does the run (Trainer.h): this file turns the flags
// into its options, prints the header, the progress and the summary, and
// draws the plot. Every failure prints one line starting with "ens-train:
// error:" and exits with status 1. Nothing it reads is trusted: files are
// read bounded (Files.h), checkpoints are validated before use, and a lower
// bound of the memory training takes is checked against the buffer limit
// before anything is compiled. Checkpoints are committed atomically
// (Checkpoint.h): a crash or a full disk never leaves one that cannot be
// resumed.
//
//===----------------------------------------------------------------------===//

#include "Flags.h"
#include "Plot.h"
#include "Progress.h"
#include "ens/Train/Failure.h"
#include "ens/Train/Files.h"
#include "ens/Train/Groups.h"
#include "ens/Train/Predict.h"
#include "ens/Train/Report.h"
#include "ens/Train/Trainer.h"

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
using ens::train::Failure;
using nlohmann::json;
namespace cl = llvm::cl;

namespace {
/// The default model's text, examples/mlp.mlir at build time.
const char kDefaultModel[] =
#include "DefaultModel.inc"
    ;
constexpr const char *kDefaultModelName = "examples/mlp.mlir (built in)";

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

/// Prints what the run trains (unless `describeModel` is false: the groups
/// of a heterogeneous ensemble are described by their caller), on what,
/// and how.
void printHeader(Trainer &trainer, Communicator &comm,
                 bool describeModel = true) {
  const Settings &settings = trainer.getSettings();
  const Model &model = trainer.getModel();
  const ProgramShape &shape = trainer.getShape();
  const std::string &modelName = trainer.getOptions().modelName;
  const Batching &batching = settings.batching;
  const Dataset &train = trainer.getTrainData();
  const Dataset *validation = trainer.getValidationData();
  const int64_t rows = trainer.getRows();
  const int64_t stepsPerEpoch = trainer.getSchedule().stepsPerEpoch();
  const int64_t toRun = trainer.getStepsToRun();
  const bool resumed = trainer.getOptions().resumed.has_value();
  if (describeModel)
    llvm::outs() << "ens-train: "
                 << (shape.ensembles > 1
                         ? std::to_string(shape.ensembles) + " ensembles of "
                         : std::string())
                 << shape.members << " members of " << modelName << ", "
                 << model.params.size() << " parameters ("
                 << model.parameterValues << " values) per member\n";
  if (trainer.getProblem())
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
                 << trainer.getShard().count() << " or so members of each "
                 << (describeModel ? "ensemble" : "group") << "\n";
  if (resumed) {
    llvm::outs() << "  resuming from " << resumeDir << " at step "
                 << trainer.getState().step << "\n";
    if (!trainer.getOptions().resumed->note.empty())
      llvm::outs() << "  note: " << trainer.getOptions().resumed->note << "\n";
  }
  llvm::outs().flush();
}

/// Prints the summary of the run and writes the plot to `plot` (if not
/// empty).
void printSummary(Trainer &trainer, const TrainSummary &summary,
                  const std::string &plotFile) {
  const Settings &settings = trainer.getSettings();
  const Model &model = trainer.getModel();
  const ProgramShape &shape = trainer.getShape();
  const std::string &modelName = trainer.getOptions().modelName;
  const Dataset &train = trainer.getTrainData();
  const Dataset *validation = trainer.getValidationData();
  const int64_t rows = trainer.getRows();
  const int64_t n = shape.total();
  const TrainState &state = trainer.getState();
  Programs &globalPrograms = trainer.getPrograms();
  const std::vector<float> &finalLoss = summary.finalLoss;
  const std::vector<float> &validationLoss = summary.validationLoss;
  if (int64_t trained = summary.trainedSteps)
    llvm::outs() << llvm::format(
        "trained %lld steps in %.1f s (%.1f steps/s, %.0f member-steps/s)\n",
        static_cast<long long>(trained), summary.trainSeconds,
        trained / summary.trainSeconds,
        trained * double(n) / summary.trainSeconds);
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
                             validation, trainer.getProblem());
    plot = renderPlot(title, fit, curves);
  }
  if (!plotFile.empty()) {
    writeOutputFile(plotFile, plot, "plot");
    llvm::outs() << "wrote plot " << plotFile << "\n";
  }
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

/// Compiles, initialises and trains `trainer` (a Trainer, or a GroupTrainer
/// whose first group is `shown`), printing the progress of `shown`'s
/// steps; returns the seconds the steps took.
template <typename AnyTrainer>
double compileAndTrain(AnyTrainer &trainer, Trainer &shown) {
  Clock::time_point compileStart = Clock::now();
  trainer.compile();
  llvm::outs() << "  compiled in "
               << llvm::format("%.1f", secondsSince(compileStart)) << " s\n";
  trainer.initialize();
  const int64_t first = shown.getState().step;
  Progress progress(first, first + shown.getStepsToRun());
  TrainingObserver observer;
  observer.stepDone = [&](int64_t step, double meanLoss) {
    progress.update(step, meanLoss);
  };
  observer.allStopped = [&](int64_t epoch) {
    progress.finish();
    llvm::outs() << "every member has stopped, after epoch " << epoch << "\n";
  };
  double trainSeconds = trainer.train(observer);
  progress.finish();
  return trainSeconds;
}

/// The options of a run with `settings` from the flags other than the
/// model's.
TrainOptions makeOptions(const Settings &settings) {
  TrainOptions options;
  options.settings = settings;
  options.steps = steps;
  if (epochs.getNumOccurrences())
    options.epochs = epochs;
  options.target = getBackend(backendName).target;
  options.threads = threads;
  // A resumed run goes on writing to its checkpoint, unless told otherwise.
  options.checkpointTo =
      checkpointDir.empty() ? std::string(resumeDir) : checkpointDir;
  options.checkpointEvery = checkpointEvery;
  options.initFrom = initFrom;
  if (targetColumns.getNumOccurrences())
    options.targetColumns = targetColumns;
  options.dataOptions = {allowNonFinite, csvHeader};
  options.dataParallel = dataParallel;
  return options;
}

/// `plotPath` for group `group`: its name with "-g<group>" before the
/// extension.
std::string getGroupPlotPath(size_t group) {
  if (plotPath.empty())
    return "";
  llvm::SmallString<256> path(plotPath.getValue());
  std::string extension = llvm::sys::path::extension(path).str();
  llvm::sys::path::replace_extension(path, "");
  return path.str().str() + "-g" + std::to_string(group) + extension;
}

/// Trains a heterogeneous ensemble: a group of members per --model, or per
/// group of the heterogeneous checkpoint `resumedGroups` lists (that of
/// --resume).
int runGroups(Communicator &comm, Settings settings,
              const std::optional<std::vector<ModelGroup>> &resumedGroups) {
  if (!resumeDir.empty() && !resumedGroups)
    throw Failure("--resume=" + resumeDir +
                  " holds the checkpoint of one model, not of a "
                  "heterogeneous ensemble of " +
                  std::to_string(modelPath.size()) + " --model flags");
  const size_t count = resumedGroups ? resumedGroups->size() : modelPath.size();
  if (resumedGroups && !modelPath.empty() && modelPath.size() != count)
    throw Failure("--resume=" + resumeDir +
                  " holds a heterogeneous ensemble of " +
                  std::to_string(count) + " models, but " +
                  std::to_string(modelPath.size()) +
                  " --model flags were given: give them all, in order, or "
                  "none");
  std::vector<ModelGroup> groups;
  Settings shared = settings;
  for (size_t g = 0; g < count; ++g) {
    Settings mine = settings;
    mine.model = modelPath.empty() ? (*resumedGroups)[g].model : modelPath[g];
    mine.members = memberCounts.size() > 1 ? memberCounts[g] : members;
    ModelGroup group;
    if (resumedGroups) {
      // Each group takes its checkpoint's settings, which the flags given
      // must match (its model among them).
      group.resumeDir = getGroupDirectory(resumeDir, g);
      group.resumed = findCheckpoint(group.resumeDir);
      adoptCheckpoint(mine, *group.resumed, group.resumeDir);
    }
    if (mine.members == 0)
      throw Failure("--members gives 0 members for --model=" + mine.model +
                    "; every model needs at least 1");
    group.model = mine.model;
    group.modelName = mine.model.empty() ? kDefaultModelName : mine.model;
    group.modelText = readModel(mine);
    group.members = mine.members;
    if (g == 0)
      shared = mine;
    groups.push_back(std::move(group));
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    std::string plot = getGroupPlotPath(g);
    if (!plot.empty())
      refuseOutputOverInput(plot, "plot",
                            {{"model", groups[g].model},
                             {"data", shared.data},
                             {"validation data", shared.validationData}});
  }
  ens::Context context;
  GroupTrainer trainer(context, makeOptions(shared), groups, comm);
  if (emitIr) {
    llvm::outs() << trainer.programText();
    return 0;
  }
  trainer.loadData();
  int64_t total = 0;
  for (const ModelGroup &group : groups)
    total += group.members;
  llvm::outs() << "ens-train: a heterogeneous ensemble of " << total
               << " members in " << groups.size() << " groups\n";
  for (size_t g = 0; g < groups.size(); ++g) {
    const Model &model = trainer.getGroup(g).getModel();
    llvm::outs() << "  group " << g << ": " << groups[g].members
                 << " members of " << groups[g].modelName << ", "
                 << model.params.size() << " parameters ("
                 << model.parameterValues << " values) per member\n";
  }
  printHeader(trainer.getGroup(0), comm, /*describeModel=*/false);
  for (size_t g = 1; g < groups.size(); ++g)
    if (trainer.getGroup(g).getOptions().resumed)
      llvm::outs() << "  group " << g << " resuming at step "
                   << trainer.getGroup(g).getState().step << "\n";

  double trainSeconds = compileAndTrain(trainer, trainer.getGroup(0));
  std::vector<TrainSummary> summaries = trainer.finish(trainSeconds);
  for (size_t g = 0; g < summaries.size(); ++g) {
    llvm::outs() << "group " << g << ": " << groups[g].members << " members of "
                 << groups[g].modelName << "\n";
    printSummary(trainer.getGroup(g), summaries[g], getGroupPlotPath(g));
  }
  const std::string checkpointTo =
      checkpointDir.empty() ? std::string(resumeDir) : checkpointDir;
  if (!checkpointTo.empty() && !summaries.empty())
    llvm::outs() << "wrote checkpoint " << checkpointTo << " (a group per "
                 << "model, in " << checkpointTo << "/group-<g>)\n";
  return 0;
}

int run(Communicator &comm) {
  if (outPath.getNumOccurrences())
    throw Failure("--out applies to ens-train predict only");
  if (!initFrom.empty() && !resumeDir.empty())
    throw Failure("--init-from starts a run; a resumed run continues from "
                  "its checkpoint's weights");
  Settings settings = settingsFromFlags();
  std::optional<std::vector<ModelGroup>> resumedGroups;
  if (!resumeDir.empty())
    resumedGroups = readCheckpointGroups(resumeDir);
  // The models: the flags', or the resumed checkpoint's.
  const size_t models = resumedGroups && modelPath.empty()
                            ? resumedGroups->size()
                            : modelPath.size();
  if (memberCounts.size() > 1 && memberCounts.size() != models)
    throw Failure("--members=" +
                  llvm::join(llvm::map_range(memberCounts,
                                             [](unsigned count) {
                                               return std::to_string(count);
                                             }),
                             ",") +
                  " gives " + std::to_string(memberCounts.size()) +
                  " counts for " + std::to_string(models) +
                  " --model flags: give one count for each model, or one "
                  "for all");
  if (modelPath.size() > 1 || resumedGroups)
    return runGroups(comm, settings, resumedGroups);
  std::optional<Checkpoint> resumed;
  if (!resumeDir.empty()) {
    resumed = findCheckpoint(resumeDir);
    adoptCheckpoint(settings, *resumed, resumeDir);
  }
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

  TrainOptions options = makeOptions(settings);
  options.modelName =
      settings.model.empty() ? kDefaultModelName : settings.model;
  options.modelText = readModel(settings);
  options.settings = settings;
  options.resumed = resumed;
  options.resumeDir = resumeDir;
  ens::Context context;
  Trainer trainer(context, std::move(options), comm);
  if (emitIr) {
    llvm::outs() << trainer.programText();
    return 0;
  }
  trainer.loadData();
  printHeader(trainer, comm);

  double trainSeconds = compileAndTrain(trainer, trainer);
  TrainState &state = trainer.getState();
  std::optional<TrainSummary> summary = trainer.finish(trainSeconds);
  if (!summary)
    return 0;
  printSummary(trainer, *summary, plotPath);
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
  } catch (const ens::Error &error) {
    // The library's Failure and the C++ API's errors alike.
    return failAll(error.what());
  } catch (const std::exception &error) {
    return failAll(error.what());
  }
}
