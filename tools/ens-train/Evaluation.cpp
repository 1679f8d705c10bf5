//===- Evaluation.cpp - Running ens-train's programs on data --------------===//

#include "Evaluation.h"

#include <algorithm>
#include <cmath>

using namespace ens_train;

ens::Tensor ens_train::makeTensor(std::vector<int64_t> shape,
                                  const std::vector<float> &values) {
  ens::Tensor tensor(ens::TensorType{ens::DType::F32, std::move(shape)});
  std::copy(values.begin(), values.end(), static_cast<float *>(tensor.data()));
  return tensor;
}

const float *ens_train::floats(const ens::Tensor &tensor) {
  return static_cast<const float *>(tensor.data());
}

/// Rows [begin, begin + count) of `values`, a matrix of `columns`, as a
/// tensor of `shape`.
static ens::Tensor takeRows(const std::vector<float> &values, int64_t columns,
                            int64_t begin, int64_t count,
                            std::vector<int64_t> shape) {
  return makeTensor(
      std::move(shape),
      std::vector<float>(values.begin() + begin * columns,
                         values.begin() + (begin + count) * columns));
}

std::vector<float> ens_train::evaluateLosses(const Programs &programs,
                                             const Model &model,
                                             llvm::ArrayRef<ens::Tensor> params,
                                             const Dataset &data) {
  int64_t rows = model.batchSize(), batches = data.rows / rows;
  std::vector<double> sums;
  for (int64_t batch = 0; batch < batches; ++batch) {
    std::vector<ens::Tensor> args{
        takeRows(data.x, data.features, batch * rows, rows, model.x.shape)};
    args.insert(args.end(), params.begin(), params.end());
    args.push_back(takeRows(data.y, data.outputs, batch * rows, rows,
                            model.targets.shape));
    ens::Tensor losses = programs.losses.run(args)[0];
    sums.resize(losses.type().numElements());
    for (size_t i = 0; i < sums.size(); ++i)
      sums[i] += floats(losses)[i];
  }
  std::vector<float> means;
  for (double sum : sums)
    means.push_back(static_cast<float>(sum / batches));
  return means;
}

void ens_train::fillBatch(BatchSchedule &schedule, const Batching &batching,
                          const Dataset &data, int64_t step, int64_t members,
                          ens::Tensor &x, ens::Tensor &targets) {
  float *xs = static_cast<float *>(x.data());
  float *ys = static_cast<float *>(targets.data());
  for (int64_t member = 0; member < (batching.perMember() ? members : 1);
       ++member)
    for (int64_t row : schedule.rowsAt(step, member)) {
      xs = std::copy_n(data.x.data() + row * data.features, data.features, xs);
      ys = std::copy_n(data.y.data() + row * data.outputs, data.outputs, ys);
    }
}

EnsembleStats ens_train::ensembleStats(const Programs &programs,
                                       const Model &model,
                                       const TrainState &state,
                                       const Dataset &data) {
  EnsembleStats stats;
  int64_t rows = model.batchSize(), outputs = model.numOutputs();
  int64_t n = state.learningRates.size();
  for (int64_t begin = 0; begin + rows <= data.rows; begin += rows) {
    // Every member's predictions for the batch: [members x B x O].
    std::vector<ens::Tensor> args{
        takeRows(data.x, data.features, begin, rows, model.x.shape)};
    args.insert(args.end(), state.params.begin(), state.params.end());
    ens::Tensor y = programs.predict.run(args)[0];
    const float *values = floats(y);
    for (int64_t i = 0; i < rows * outputs; ++i) {
      double sum = 0, squares = 0;
      for (int64_t member = 0; member < n; ++member)
        sum += values[member * rows * outputs + i];
      double mean = sum / n;
      for (int64_t member = 0; member < n; ++member) {
        double d = values[member * rows * outputs + i] - mean;
        squares += d * d;
      }
      stats.mean.push_back(mean);
      stats.stddev.push_back(std::sqrt(squares / n));
    }
  }
  return stats;
}

std::array<float, 3> ens_train::minMedianMax(std::vector<float> values) {
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
