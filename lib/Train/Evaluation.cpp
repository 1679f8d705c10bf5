//===- Evaluation.cpp - Running ens-train's programs on data --------------===//

#include "ens/Train/Evaluation.h"

#include "ens/Train/Failure.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace ens::train;
using ens::train::Failure;

ens::Tensor ens::train::makeTensor(std::vector<int64_t> shape,
                                   const std::vector<float> &values) {
  ens::Tensor tensor(ens::TensorType{ens::DType::F32, std::move(shape)});
  std::copy(values.begin(), values.end(), static_cast<float *>(tensor.data()));
  return tensor;
}

ens::Tensor ens::train::makeTargets(const ens::TensorType &type,
                                    const float *values) {
  ens::Tensor tensor(type);
  int64_t count = type.numElements();
  if (type.dtype == ens::DType::I32)
    std::transform(values, values + count,
                   static_cast<int32_t *>(tensor.data()),
                   [](float label) { return static_cast<int32_t>(label); });
  else
    std::copy_n(values, count, static_cast<float *>(tensor.data()));
  return tensor;
}

ens::Tensor ens::train::repeatMembers(const ens::Tensor &tensor,
                                      int64_t times) {
  ens::TensorType type = tensor.type();
  type.shape[0] *= times;
  ens::Tensor result(type);
  const size_t bytes = tensor.byteSize();
  for (int64_t i = 0; i < times; ++i)
    std::memcpy(static_cast<char *>(result.data()) + i * bytes, tensor.data(),
                bytes);
  return result;
}

const float *ens::train::floats(const ens::Tensor &tensor) {
  return static_cast<const float *>(tensor.data());
}

Programs::Programs(ens::Module module, ens::Target target, const Model &model,
                   std::string modelName, const ProgramShape &shape,
                   int threads)
    : module(std::move(module)), target(target), model(model),
      modelName(std::move(modelName)), shape(shape) {
  options.threads = threads;
}

ens::TensorType Programs::xType(int64_t rows) const {
  return {ens::DType::F32, {rows, model.numFeatures()}};
}

ens::TensorType Programs::targetsType(int64_t rows) const {
  ens::TensorType type = getEnsembleTargetsType(model, shape.ensembles);
  type.shape[0] = rows;
  return type;
}

const ens::Executable &
Programs::compile(const char *function, int64_t rows,
                  std::vector<ens::TensorType> argTypes) {
  auto key = std::make_pair(std::string(function), rows);
  if (auto it = compiled.find(key); it != compiled.end())
    return it->second;
  try {
    // A model with a batch size is compiled as it is written.
    ens::Executable executable =
        model.openBatch() ? module.compile(function, argTypes, target, options)
                          : module.compile(function, target, options);
    return compiled.emplace(std::move(key), std::move(executable))
        .first->second;
  } catch (const ens::Error &error) {
    throw Failure("cannot compile @" + std::string(function) + " for model " +
                  modelName + ": " + error.what());
  }
}

const ens::Executable &Programs::init() {
  return compile(kInitFunction, 0, {ens::TensorType{ens::DType::I32, {2}}});
}

const ens::Executable &Programs::step(int64_t rows) {
  return compile(kStepFunction, rows, stepTypes(rows));
}

std::vector<ens::TensorType> Programs::stepTypes(int64_t rows) const {
  std::vector<ens::TensorType> types;
  for (int copy = 0; copy < 3; ++copy)
    for (const ens::TensorType &param : model.params)
      types.push_back(stacked(param, shape.total()));
  types.push_back({ens::DType::F32, {}});
  types.push_back({ens::DType::F32, {shape.total()}});
  const bool perMember = shape.batchPerMember;
  types.push_back(perMember ? stacked(xType(rows), shape.members)
                            : xType(rows));
  types.push_back(perMember ? stacked(targetsType(rows), shape.members)
                            : targetsType(rows));
  return types;
}

const ens::Executable &Programs::losses(int64_t rows) {
  std::vector<ens::TensorType> types{xType(rows)};
  for (const ens::TensorType &param : model.params)
    types.push_back(stacked(param, shape.total()));
  types.push_back(targetsType(rows));
  return compile(kLossesFunction, rows, std::move(types));
}

const ens::Executable &Programs::grads(int64_t rows) {
  const bool perMember = shape.batchPerMember;
  std::vector<ens::TensorType> types{
      perMember ? stacked(xType(rows), shape.members) : xType(rows)};
  for (const ens::TensorType &param : model.params)
    types.push_back(stacked(param, shape.total()));
  types.push_back(perMember ? stacked(targetsType(rows), shape.members)
                            : targetsType(rows));
  return compile(kGradsFunction, rows, std::move(types));
}

const ens::Executable &Programs::update() {
  std::vector<ens::TensorType> types;
  for (int copy = 0; copy < 4; ++copy)
    for (const ens::TensorType &param : model.params)
      types.push_back(stacked(param, shape.total()));
  types.push_back({ens::DType::F32, {}});
  types.push_back({ens::DType::F32, {shape.total()}});
  return compile(kUpdateFunction, 0, std::move(types));
}

const ens::Executable &Programs::predict(int64_t rows) {
  std::vector<ens::TensorType> types{xType(rows)};
  for (const ens::TensorType &param : model.params)
    types.push_back(stacked(param, shape.total()));
  return compile(kPredictFunction, rows, std::move(types));
}

/// Rows [begin, begin + count) of `values`, a matrix of `columns`.
static ens::Tensor takeRows(const std::vector<float> &values, int64_t columns,
                            int64_t begin, int64_t count) {
  return makeTensor(
      {count, columns},
      std::vector<float>(values.begin() + begin * columns,
                         values.begin() + (begin + count) * columns));
}

/// The batches of `batchRows` rows of `data` that evaluation reads: whole
/// ones, and the partial last one if the model's batch is open. Each is
/// (first row, rows).
static std::vector<std::pair<int64_t, int64_t>>
getEvaluationBatches(const Model &model, int64_t batchRows,
                     const Dataset &data) {
  std::vector<std::pair<int64_t, int64_t>> batches;
  for (int64_t begin = 0; begin < data.rows; begin += batchRows) {
    int64_t rows = std::min(batchRows, data.rows - begin);
    if (rows == batchRows || model.openBatch())
      batches.emplace_back(begin, rows);
  }
  return batches;
}

std::vector<float> ens::train::evaluateLosses(
    Programs &programs, const Model &model, int64_t batchRows,
    llvm::ArrayRef<ens::Tensor> params, const Dataset &data) {
  std::vector<double> sums;
  int64_t total = 0;
  for (auto [begin, rows] : getEvaluationBatches(model, batchRows, data)) {
    std::vector<ens::Tensor> args{takeRows(data.x, data.features, begin, rows)};
    args.insert(args.end(), params.begin(), params.end());
    args.push_back(makeTargets(programs.targetsType(rows),
                               data.y.data() + begin * data.outputs));
    ens::Tensor losses = programs.losses(rows).run(args)[0];
    sums.resize(losses.type().numElements());
    for (size_t i = 0; i < sums.size(); ++i)
      sums[i] += double(floats(losses)[i]) * rows;
    total += rows;
  }
  std::vector<float> means;
  for (double sum : sums)
    means.push_back(static_cast<float>(sum / total));
  return means;
}

std::pair<ens::Tensor, ens::Tensor>
ens::train::makeBatch(Programs &programs, BatchSchedule &schedule,
                      const Dataset &data, int64_t step, int64_t firstMember) {
  int64_t rows = schedule.rowsAt(step, 0).size();
  const bool perMember = programs.getShape().batchPerMember;
  const int64_t members = programs.getShape().members;
  ens::Tensor x(perMember ? stacked(programs.xType(rows), members)
                          : programs.xType(rows));
  ens::TensorType targetsType =
      perMember ? stacked(programs.targetsType(rows), members)
                : programs.targetsType(rows);
  float *xs = static_cast<float *>(x.data());
  std::vector<float> ys;
  ys.reserve(targetsType.numElements());
  for (int64_t member = 0; member < (perMember ? members : 1); ++member)
    for (int64_t row : schedule.rowsAt(step, firstMember + member)) {
      xs = std::copy_n(data.x.data() + row * data.features, data.features, xs);
      ys.insert(ys.end(), data.y.begin() + row * data.outputs,
                data.y.begin() + (row + 1) * data.outputs);
    }
  return {std::move(x), makeTargets(targetsType, ys.data())};
}

std::vector<float> ens::train::predictMembers(
    Programs &programs, const Model &model, int64_t batchRows, int64_t members,
    llvm::ArrayRef<ens::Tensor> params, const Dataset &data) {
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

std::vector<float> ens::train::getEnsembleTargets(const Dataset &data,
                                                  const Model &model,
                                                  int64_t k) {
  const int64_t columns = model.targetColumns();
  std::vector<float> targets;
  targets.reserve(data.rows * columns);
  for (int64_t r = 0; r < data.rows; ++r) {
    auto row = data.y.begin() + r * data.outputs + k * columns;
    targets.insert(targets.end(), row, row + columns);
  }
  return targets;
}

EnsembleStats ens::train::summarizeMembers(const float *values, int64_t members,
                                           int64_t count) {
  EnsembleStats stats;
  for (int64_t i = 0; i < count; ++i) {
    double sum = 0, squares = 0;
    for (int64_t member = 0; member < members; ++member)
      sum += values[member * count + i];
    double mean = sum / members;
    for (int64_t member = 0; member < members; ++member) {
      double d = values[member * count + i] - mean;
      squares += d * d;
    }
    stats.mean.push_back(mean);
    stats.stddev.push_back(std::sqrt(squares / members));
  }
  return stats;
}

EnsembleStats ens::train::ensembleStats(Programs &programs, const Model &model,
                                        int64_t batchRows,
                                        const TrainState &state,
                                        const Dataset &data) {
  int64_t members = state.learningRates.size();
  std::vector<float> predictions =
      predictMembers(programs, model, batchRows, members, state.params, data);
  return summarizeMembers(predictions.data(), members,
                          data.rows * model.numOutputs());
}

std::array<float, 3> ens::train::minMedianMax(std::vector<float> values) {
  if (values.empty())
    return {NAN, NAN, NAN};
  std::sort(values.begin(), values.end(), [](float a, float b) {
    return std::isnan(b) ? !std::isnan(a) : a < b;
  });
  size_t n = values.size();
  float median =
      n % 2 ? values[n / 2] : 0.5f * (values[n / 2 - 1] + values[n / 2]);
  return {values.front(), median, values.back()};
}
