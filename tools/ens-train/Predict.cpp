//===- Predict.cpp - ens-train predict ------------------------------------===//

#include "Predict.h"

#include "Checkpoint.h"
#include "Data.h"
#include "EarlyStopping.h"
#include "Evaluation.h"
#include "Failure.h"
#include "Files.h"
#include "Metrics.h"
#include "Report.h"
#include "Settings.h"

#include "ens/Support/Npz.h"
#include "ens/Support/SourceLimits.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace ens_train;

/// `values` as an f32 array of `shape`.
template <typename T>
static mlir::ens::HostTensor toArray(const std::vector<T> &values,
                                     llvm::ArrayRef<int64_t> shape) {
  return mlir::ens::HostTensor(
      mlir::ens::DType::F32, shape,
      std::vector<double>(values.begin(), values.end()));
}

/// `arrays` as CSV, a line per row of the `rows` rows: each array's
/// columns ("mean_0", ..., or "entropy" for a vector), and for the last,
/// the members' [M x N x k], each member's ("member0_0", ...).
static std::string formatCsv(llvm::ArrayRef<mlir::ens::NamedArray> arrays,
                             int64_t rows) {
  std::string contents;
  llvm::raw_string_ostream os(contents);
  const mlir::ens::HostTensor &members = arrays.back().second;
  const int64_t memberCount = members.shape[0], outputs = members.shape[2];
  auto columns = [](const mlir::ens::HostTensor &array) {
    return array.getRank() == 1 ? 1 : array.shape[1];
  };
  for (const auto &[name, array] : arrays.drop_back()) {
    if (array.getRank() == 1)
      os << (os.tell() ? "," : "") << name;
    else
      for (int64_t j = 0; j < columns(array); ++j)
        os << (os.tell() ? "," : "") << name << "_" << j;
  }
  for (int64_t member = 0; member < memberCount; ++member)
    for (int64_t j = 0; j < outputs; ++j)
      os << ",member" << member << "_" << j;
  os << "\n";
  for (int64_t r = 0; r < rows; ++r) {
    bool first = true;
    auto print = [&](double value) {
      os << (first ? "" : ",") << llvm::format("%.9g", value);
      first = false;
    };
    for (const auto &[name, array] : arrays.drop_back())
      for (int64_t j = 0; j < columns(array); ++j)
        print(array.values[r * columns(array) + j]);
    for (int64_t member = 0; member < memberCount; ++member)
      for (int64_t j = 0; j < outputs; ++j)
        print(members.values[(member * rows + r) * outputs + j]);
    os << "\n";
  }
  return contents;
}

void ens_train::runPredict(const PredictRequest &request,
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

  Checkpoint checkpoint = findCheckpoint(request.checkpointDir);
  Settings settings;
  try {
    settings = readSettings(checkpoint.manifest);
  } catch (const Failure &failure) {
    throw Failure("cannot predict from " + request.checkpointDir + ": " +
                  checkpoint.manifestPath() + ": " + failure.what());
  }
  ens::Context context;
  std::string modelName = settings.model.empty() ? builtinName : settings.model;
  Model model = loadModel(
      context, modelName,
      settings.model.empty()
          ? builtinText
          : readInputFile(settings.model, "model", mlir::ens::kMaxSourceBytes),
      settings.task);
  TrainState state = readCheckpoint(checkpoint, model, settings.patience > 0);
  const int64_t members = settings.members;
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping)
    for (int64_t member = 0; member < members; ++member)
      if (stopping->bestEpoch[member] > 0)
        copyMember(stopping->best, state.params, member);

  Dataset data = loadDataset(request.dataPath, getDataLayout(model),
                             request.allowNonFinite, /*targetsOptional=*/true);
  int64_t batchRows = settings.batching.batchSize ? settings.batching.batchSize
                                                  : model.batchSize();
  ens::Module module = context.parse(
      generateProgram(model, members, settings.adam, /*batchPerMember=*/false));
  Programs programs(module, request.target, model, modelName, members,
                    /*batchPerMember=*/false);
  std::vector<float> predictions =
      predictMembers(programs, model, batchRows, members, state.params, data);

  // The arrays of the output, each [N x k] or [N] but the last, `members`.
  const int64_t n = data.rows, outputs = model.numOutputs();
  std::vector<mlir::ens::NamedArray> arrays;
  std::string metrics;
  if (model.task == Task::Classify) {
    std::vector<double> probs =
        computeMeanProbabilities(predictions.data(), members, n, outputs);
    std::vector<double> entropy(n, 0.0);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < outputs; ++c)
        if (double p = probs[r * outputs + c]; p > 0)
          entropy[r] -= p * std::log(p);
    arrays.push_back({"probs", toArray(probs, {n, outputs})});
    arrays.push_back({"entropy", toArray(entropy, {n})});
    if (data.outputs)
      metrics = describe(computeClassificationMetrics(
          predictions.data(), members, n, outputs, data.y.data()));
  } else {
    EnsembleStats stats =
        summarizeMembers(predictions.data(), members, n * outputs);
    arrays.push_back({"mean", toArray(stats.mean, {n, outputs})});
    arrays.push_back({"std", toArray(stats.stddev, {n, outputs})});
    if (data.outputs)
      metrics = describe(computeRegressionMetrics(predictions.data(), members,
                                                  n, outputs, data.y.data()));
  }
  arrays.push_back({"members", toArray(predictions, {members, n, outputs})});

  std::string contents;
  if (extension == ".npz") {
    llvm::Expected<std::string> npz = mlir::ens::serializeNpz(arrays);
    if (!npz)
      throw Failure("cannot write " + request.outPath + ": " +
                    llvm::toString(npz.takeError()));
    contents = std::move(*npz);
  } else {
    contents = formatCsv(arrays, n);
  }
  writeOutputFile(request.outPath, contents, "predictions");

  llvm::outs() << "ens-train predict: " << members << " members of "
               << modelName << " on " << n << " rows of " << request.dataPath
               << "\n";
  if (!metrics.empty())
    llvm::outs() << metrics << "\n";
  llvm::outs() << "wrote " << request.outPath << "\n";
}
