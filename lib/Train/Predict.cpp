//===- Predict.cpp - ens-train predict ------------------------------------===//

#include "ens/Train/Predict.h"

#include "ens/Train/Checkpoint.h"
#include "ens/Train/Data.h"
#include "ens/Train/EarlyStopping.h"
#include "ens/Train/Evaluation.h"
#include "ens/Train/Failure.h"
#include "ens/Train/Files.h"
#include "ens/Train/Groups.h"
#include "ens/Train/Metrics.h"
#include "ens/Train/Report.h"
#include "ens/Train/Settings.h"

#include "ens/Support/Npz.h"
#include "ens/Support/SourceLimits.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace ens::train;
using ens::train::Failure;

/// `values` as an f32 array of `shape`.
template <typename T>
static mlir::ens::HostTensor toArray(const std::vector<T> &values,
                                     llvm::ArrayRef<int64_t> shape) {
  return mlir::ens::HostTensor(
      mlir::ens::DType::F32, shape,
      std::vector<double>(values.begin(), values.end()));
}

/// One ensemble's outputs: for a regression `mean` [N x O] and `std`
/// [N x O], for a classification `probs` [N x C] and `entropy` [N]; then
/// `members` [M x N x O], from its members' `outputs`. With `targets`, the
/// task's metrics go to `metrics`.
static std::vector<mlir::ens::NamedArray>
summarizeEnsemble(const Model &model, const float *outputs, int64_t members,
                  int64_t rows, const float *targets, std::string &metrics) {
  const int64_t width = model.numOutputs();
  std::vector<mlir::ens::NamedArray> arrays;
  if (model.task == Task::Classify) {
    std::vector<double> probs =
        computeMeanProbabilities(outputs, members, rows, width);
    std::vector<double> entropy(rows, 0.0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        if (double p = probs[r * width + c]; p > 0)
          entropy[r] -= p * std::log(p);
    arrays.push_back({"probs", toArray(probs, {rows, width})});
    arrays.push_back({"entropy", toArray(entropy, {rows})});
    if (targets)
      metrics = describe(
          computeClassificationMetrics(outputs, members, rows, width, targets));
  } else {
    EnsembleStats stats = summarizeMembers(outputs, members, rows * width);
    arrays.push_back({"mean", toArray(stats.mean, {rows, width})});
    arrays.push_back({"std", toArray(stats.stddev, {rows, width})});
    if (targets)
      metrics = describe(
          computeRegressionMetrics(outputs, members, rows, width, targets));
  }
  std::vector<float> values(outputs, outputs + members * rows * width);
  arrays.push_back({"members", toArray(values, {members, rows, width})});
  return arrays;
}

/// The ensembles' arrays as one set: each array with a leading axis of
/// ensembles, or as they are for one ensemble.
static std::vector<mlir::ens::NamedArray>
stackEnsembles(const std::vector<std::vector<mlir::ens::NamedArray>> &all) {
  if (all.size() == 1)
    return all.front();
  std::vector<mlir::ens::NamedArray> stacked = all.front();
  for (size_t i = 0; i < stacked.size(); ++i) {
    mlir::ens::HostTensor &array = stacked[i].second;
    array.shape.insert(array.shape.begin(), all.size());
    for (size_t k = 1; k < all.size(); ++k)
      array.values.insert(array.values.end(), all[k][i].second.values.begin(),
                          all[k][i].second.values.end());
  }
  return stacked;
}

/// The ensembles' arrays (summarizeEnsemble's) as CSV, a line per row of
/// the `rows` rows: each array's columns ("mean_0", ..., or "entropy" for
/// a vector), then each member's ("member0_0", ...); with several
/// ensembles, every column of ensemble k prefixed "e<k>_".
static std::string
formatCsv(const std::vector<std::vector<mlir::ens::NamedArray>> &all,
          int64_t rows) {
  std::string contents;
  llvm::raw_string_ostream os(contents);
  auto columns = [](const mlir::ens::HostTensor &array) {
    return array.getRank() == 1 ? 1 : array.shape.back();
  };
  for (size_t k = 0; k < all.size(); ++k) {
    std::string prefix = all.size() > 1 ? "e" + std::to_string(k) + "_" : "";
    for (const auto &[name, array] : all[k]) {
      bool members = name == "members";
      for (int64_t m = 0; m < (members ? array.shape[0] : 1); ++m) {
        std::string column =
            prefix + (members ? "member" + std::to_string(m) : name);
        if (array.getRank() == 1)
          os << (os.tell() ? "," : "") << column;
        else
          for (int64_t j = 0; j < columns(array); ++j)
            os << (os.tell() ? "," : "") << column << "_" << j;
      }
    }
  }
  os << "\n";
  for (int64_t r = 0; r < rows; ++r) {
    bool first = true;
    for (const std::vector<mlir::ens::NamedArray> &arrays : all)
      for (const auto &[name, array] : arrays) {
        const int64_t width = columns(array);
        // [N x k] and [N] arrays have one slice; `members` one per member.
        const int64_t slices = name == "members" ? array.shape[0] : 1;
        for (int64_t m = 0; m < slices; ++m)
          for (int64_t j = 0; j < width; ++j) {
            os << (first ? "" : ",")
               << llvm::format("%.9g",
                               array.values[(m * rows + r) * width + j]);
            first = false;
          }
      }
    os << "\n";
  }
  return contents;
}

std::vector<PredictionArray>
ens::train::predictEnsemble(llvm::ArrayRef<EnsembleMembers> parts,
                            const Dataset &data) {
  if (parts.empty())
    throw Failure("an ensemble to predict with needs members");
  const Model &model = parts.front().model;
  std::vector<float> outputs;
  int64_t members = 0;
  for (const EnsembleMembers &part : parts) {
    if (part.model.predictions != model.predictions ||
        part.model.task != model.task)
      throw Failure("the members of an ensemble must predict the same "
                    "outputs for the same task: " +
                    part.model.predictions.str() + " against " +
                    model.predictions.str());
    const int64_t count = part.programs.getShape().total();
    std::vector<float> mine = predictMembers(
        part.programs, part.model, part.batchRows, count, part.params, data);
    outputs.insert(outputs.end(), mine.begin(), mine.end());
    members += count;
  }
  std::string metrics;
  std::vector<PredictionArray> arrays;
  for (auto &[name, array] : summarizeEnsemble(model, outputs.data(), members,
                                               data.rows, nullptr, metrics))
    arrays.push_back(
        {name, std::vector<int64_t>(array.shape.begin(), array.shape.end()),
         std::vector<float>(array.values.begin(), array.values.end())});
  return arrays;
}

namespace {
/// The outputs of every member of one checkpoint for the rows of a data
/// file.
struct CheckpointOutputs {
  std::string modelName;
  Model model;
  ProgramShape shape;
  Dataset data;
  /// [K*M x N x O], member-major.
  std::vector<float> outputs;
};
} // namespace

/// Predicts the rows of `request`'s data with every member of the
/// checkpoint in `directory` (one model's).
static CheckpointOutputs predictCheckpoint(const PredictRequest &request,
                                           const std::string &directory,
                                           const std::string &builtinText,
                                           const std::string &builtinName) {
  Checkpoint checkpoint = findCheckpoint(directory);
  Settings settings;
  try {
    settings = readSettings(checkpoint.manifest);
  } catch (const Failure &failure) {
    throw Failure("cannot predict from " + directory + ": " +
                  checkpoint.manifestPath() + ": " + failure.what());
  }
  refuseOutputOverInput(
      request.outPath, "predictions",
      {{"data", request.dataPath},
       {"model", settings.modelText.empty() ? settings.model : std::string()},
       {"checkpoint manifest", checkpoint.manifestPath()},
       {"checkpoint state", checkpoint.statePath()}});
  ens::Context context;
  std::string modelName = settings.model.empty() ? builtinName : settings.model;
  // The checkpoint's copy of the model; a checkpoint from before copies
  // were kept names the file.
  Model model = loadModel(
      context, modelName,
      settings.model.empty() ? builtinText
      : !settings.modelText.empty()
          ? settings.modelText
          : readInputFile(settings.model, "model", mlir::ens::kMaxSourceBytes),
      settings.task);
  TrainState state = readCheckpoint(checkpoint, model, settings.patience > 0);
  const ProgramShape shape{settings.members, settings.ensembles,
                           /*batchPerMember=*/false};
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping)
    for (int64_t member = 0; member < shape.total(); ++member)
      if (stopping->bestEpoch[member] > 0)
        copyMember(stopping->best, state.params, member);

  Dataset data =
      loadDataset(request.dataPath, getDataLayout(model, shape.ensembles),
                  {request.allowNonFinite, request.header,
                   /*targetsOptional=*/true});
  int64_t batchRows = settings.batching.batchSize ? settings.batching.batchSize
                                                  : model.batchSize();
  ens::Module module =
      context.parse(generateProgram(model, shape, settings.adam));
  Programs programs(module, request.target, model, modelName, shape,
                    request.threads);
  std::vector<float> outputs = predictMembers(
      programs, model, batchRows, shape.total(), state.params, data);
  return {modelName, std::move(model), shape, std::move(data),
          std::move(outputs)};
}

/// Predicts with every member of every group of the heterogeneous
/// ensemble in `request.checkpointDir`, whose groups.json lists `groups`:
/// one ensemble of all their members, group after group.
static std::vector<mlir::ens::NamedArray>
predictGroups(const PredictRequest &request,
              const std::vector<ModelGroup> &groups,
              const std::string &builtinText, const std::string &builtinName) {
  std::vector<CheckpointOutputs> parts;
  std::vector<float> outputs;
  std::string described;
  for (size_t g = 0; g < groups.size(); ++g) {
    std::string directory = getGroupDirectory(request.checkpointDir, g);
    parts.push_back(
        predictCheckpoint(request, directory, builtinText, builtinName));
    const CheckpointOutputs &part = parts.back();
    if (part.shape.total() != groups[g].members)
      throw Failure("cannot predict from " + request.checkpointDir + ": " +
                    directory + " holds " + std::to_string(part.shape.total()) +
                    " members, but groups.json gives group " +
                    std::to_string(g) + " " +
                    std::to_string(groups[g].members));
    if (part.model.predictions != parts.front().model.predictions ||
        part.model.task != parts.front().model.task)
      throw Failure("cannot predict from " + request.checkpointDir + ": " +
                    part.modelName + " predicts " +
                    part.model.predictions.str() + ", but " +
                    parts.front().modelName + " " +
                    parts.front().model.predictions.str());
    outputs.insert(outputs.end(), part.outputs.begin(), part.outputs.end());
    described += (g ? ", " : "") + std::to_string(part.shape.total()) + " of " +
                 part.modelName;
  }
  const CheckpointOutputs &first = parts.front();
  const int64_t members =
      static_cast<int64_t>(outputs.size()) /
      std::max<int64_t>(1, first.data.rows * first.model.numOutputs());
  llvm::outs() << "ens-train predict: a heterogeneous ensemble of " << members
               << " members (" << described << ") on " << first.data.rows
               << " rows of " << request.dataPath << "\n";
  std::vector<float> targets;
  if (first.data.outputs)
    targets = getEnsembleTargets(first.data, first.model, 0);
  std::string metrics;
  std::vector<mlir::ens::NamedArray> arrays =
      summarizeEnsemble(first.model, outputs.data(), members, first.data.rows,
                        first.data.outputs ? targets.data() : nullptr, metrics);
  if (!metrics.empty())
    llvm::outs() << metrics << "\n";
  return arrays;
}

void ens::train::runPredict(const PredictRequest &request,
                            const std::string &builtinText,
                            const std::string &builtinName) {
  if (request.checkpointDir.empty())
    throw Failure("ens-train predict needs --checkpoint=DIR, a trained "
                  "ensemble");
  if (request.dataPath.empty())
    throw Failure("ens-train predict needs --data=FILE, the rows to predict");
  std::string extension = llvm::sys::path::extension(request.outPath).lower();
  if (extension != ".npz" && extension != ".csv")
    throw Failure("ens-train predict needs --out=FILE.npz or --out=FILE.csv" +
                  (request.outPath.empty() ? std::string()
                                           : " (got " + request.outPath + ")"));

  std::vector<std::vector<mlir::ens::NamedArray>> ensembles;
  int64_t rows = 0;
  if (std::optional<std::vector<ModelGroup>> groups =
          readCheckpointGroups(request.checkpointDir)) {
    ensembles.push_back(
        predictGroups(request, *groups, builtinText, builtinName));
    rows = ensembles.back().back().second.shape[1];
  } else {
    CheckpointOutputs all = predictCheckpoint(request, request.checkpointDir,
                                              builtinText, builtinName);
    const ProgramShape &shape = all.shape;
    const Model &model = all.model;
    const Dataset &data = all.data;
    rows = data.rows;
    llvm::outs() << "ens-train predict: "
                 << (shape.ensembles > 1
                         ? std::to_string(shape.ensembles) + " ensembles of "
                         : std::string())
                 << shape.members << " members of " << all.modelName << " on "
                 << data.rows << " rows of " << request.dataPath << "\n";
    const int64_t perEnsemble = shape.members * data.rows * model.numOutputs();
    for (int64_t k = 0; k < shape.ensembles; ++k) {
      std::vector<float> targets;
      if (data.outputs)
        targets = getEnsembleTargets(data, model, k);
      std::string metrics;
      ensembles.push_back(summarizeEnsemble(
          model, all.outputs.data() + k * perEnsemble, shape.members, data.rows,
          data.outputs ? targets.data() : nullptr, metrics));
      if (!metrics.empty())
        llvm::outs() << (shape.ensembles > 1
                             ? "ensemble " + std::to_string(k) + ": "
                             : std::string())
                     << metrics << "\n";
    }
  }

  std::string contents;
  if (extension == ".npz") {
    llvm::Expected<std::string> npz =
        mlir::ens::serializeNpz(stackEnsembles(ensembles));
    if (!npz)
      throw Failure("cannot write " + request.outPath + ": " +
                    llvm::toString(npz.takeError()));
    contents = std::move(*npz);
  } else {
    contents = formatCsv(ensembles, rows);
  }
  writeOutputFile(request.outPath, contents, "predictions");
  llvm::outs() << "wrote " << request.outPath << "\n";
}
