//===- Predict.cpp - ens-train predict ------------------------------------===//

#include "Predict.h"

#include "Checkpoint.h"
#include "Data.h"
#include "EarlyStopping.h"
#include "Evaluation.h"
#include "Failure.h"
#include "Files.h"
#include "Settings.h"

#include "ens/Support/Npz.h"
#include "ens/Support/SourceLimits.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace ens_train;

/// Every member's predictions for every row of `data`: [M x N x O].
static std::vector<float> predictMembers(Programs &programs, const Model &model,
                                         int64_t batchRows, int64_t members,
                                         const std::vector<ens::Tensor> &params,
                                         const Dataset &data) {
  const int64_t n = data.rows, features = data.features,
                outputs = model.numOutputs();
  std::vector<float> predictions(members * n * outputs);
  for (int64_t begin = 0; begin < n; begin += batchRows) {
    int64_t count = std::min(batchRows, n - begin);
    // A model written for one batch size predicts a whole batch, the rows
    // past the data zero.
    int64_t rows = model.openBatch() ? count : batchRows;
    std::vector<float> x(rows * features, 0.0f);
    std::copy_n(data.x.begin() + begin * features, count * features, x.begin());
    std::vector<ens::Tensor> args{makeTensor({rows, features}, x)};
    args.insert(args.end(), params.begin(), params.end());
    ens::Tensor y = programs.predict(rows).run(args)[0];
    for (int64_t member = 0; member < members; ++member)
      std::copy_n(floats(y) + member * rows * outputs, count * outputs,
                  predictions.begin() + (member * n + begin) * outputs);
  }
  return predictions;
}

/// `values` as an f32 array of `shape`.
static mlir::ens::HostTensor toArray(const std::vector<float> &values,
                                     llvm::ArrayRef<int64_t> shape) {
  return mlir::ens::HostTensor(
      mlir::ens::DType::F32, shape,
      std::vector<double>(values.begin(), values.end()));
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
          : readInputFile(settings.model, "model", mlir::ens::kMaxSourceBytes));
  TrainState state = readCheckpoint(checkpoint, model, settings.patience > 0);
  const int64_t members = settings.members;
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping)
    for (int64_t member = 0; member < members; ++member)
      if (stopping->bestEpoch[member] > 0)
        copyMember(stopping->best, state.params, member);

  Dataset data =
      loadDataset(request.dataPath, model.numFeatures(), model.numOutputs(),
                  request.allowNonFinite, /*targetsOptional=*/true);
  int64_t batchRows = settings.batching.batchSize ? settings.batching.batchSize
                                                  : model.batchSize();
  ens::Module module = context.parse(
      generateProgram(model, members, settings.adam, /*batchPerMember=*/false));
  Programs programs(module, request.target, model, modelName, members,
                    /*batchPerMember=*/false);
  std::vector<float> predictions =
      predictMembers(programs, model, batchRows, members, state.params, data);

  const int64_t n = data.rows, outputs = model.numOutputs();
  EnsembleStats stats =
      summarizeMembers(predictions.data(), members, n * outputs);
  std::vector<float> mean(stats.mean.begin(), stats.mean.end()),
      stddev(stats.stddev.begin(), stats.stddev.end());

  std::string contents;
  if (extension == ".npz") {
    llvm::Expected<std::string> npz = mlir::ens::serializeNpz(
        {{"mean", toArray(mean, {n, outputs})},
         {"std", toArray(stddev, {n, outputs})},
         {"members", toArray(predictions, {members, n, outputs})}});
    if (!npz)
      throw Failure("cannot write " + request.outPath + ": " +
                    llvm::toString(npz.takeError()));
    contents = std::move(*npz);
  } else {
    llvm::raw_string_ostream os(contents);
    for (const char *what : {"mean", "std"})
      for (int64_t j = 0; j < outputs; ++j)
        os << (os.tell() ? "," : "") << what << "_" << j;
    for (int64_t member = 0; member < members; ++member)
      for (int64_t j = 0; j < outputs; ++j)
        os << ",member" << member << "_" << j;
    os << "\n";
    for (int64_t r = 0; r < n; ++r) {
      auto print = [&](float value, bool first) {
        os << (first ? "" : ",") << llvm::format("%.9g", value);
      };
      for (int64_t j = 0; j < outputs; ++j)
        print(mean[r * outputs + j], j == 0);
      for (int64_t j = 0; j < outputs; ++j)
        print(stddev[r * outputs + j], false);
      for (int64_t member = 0; member < members; ++member)
        for (int64_t j = 0; j < outputs; ++j)
          print(predictions[(member * n + r) * outputs + j], false);
      os << "\n";
    }
  }
  writeOutputFile(request.outPath, contents, "predictions");

  llvm::outs() << "ens-train predict: " << members << " members of "
               << modelName << " on " << n << " rows of " << request.dataPath
               << "\n";
  if (data.outputs) {
    double error = 0, memberError = 0, spread = 0;
    for (int64_t i = 0; i < n * outputs; ++i) {
      double d = mean[i] - data.y[i];
      error += d * d;
      spread += stddev[i];
    }
    for (int64_t member = 0; member < members; ++member) {
      double squares = 0;
      for (int64_t i = 0; i < n * outputs; ++i) {
        double d = predictions[member * n * outputs + i] - data.y[i];
        squares += d * d;
      }
      memberError += std::sqrt(squares / (n * outputs));
    }
    llvm::outs() << "RMSE of the ensemble mean "
                 << formatNumber(std::sqrt(error / (n * outputs)))
                 << ", mean RMSE of the members "
                 << formatNumber(memberError / members)
                 << ", spread (std-dev across members) "
                 << formatNumber(spread / (n * outputs)) << "\n";
  }
  llvm::outs() << "wrote " << request.outPath << "\n";
}
