//===- Train.cpp - The trainer library in Python --------------------------===//
//
// _ens.Trainer: one run of the trainer library (include/ens/Train/
// Trainer.h) on arrays in memory, for ens.torch.Ensemble.fit and predict.
// The batches, shuffling, bootstrap, early stopping and the Adam steps are
// the library's, as ens-train runs them; this file only converts arrays.
//
//===----------------------------------------------------------------------===//

#include "Train.h"

#include "ens/Train/Settings.h"
#include "ens/Train/Trainer.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <optional>

namespace nb = nanobind;
using namespace nb::literals;
using namespace ens::train;

namespace {
/// A C-contiguous f32 array on the CPU (ens.torch converts to it).
using FloatArray = nb::ndarray<const float, nb::c_contig, nb::device::cpu>;
using NewFloatArray = nb::ndarray<nb::numpy, float>;

/// A new NumPy array holding `values` in `shape`.
NewFloatArray toNumpy(const std::vector<int64_t> &shape, const float *values) {
  size_t count = 1;
  for (int64_t size : shape)
    count *= static_cast<size_t>(size);
  std::unique_ptr<float[]> data(new float[count ? count : 1]);
  std::memcpy(data.get(), values, count * sizeof(float));
  nb::capsule owner(data.get(), [](void *pointer) noexcept {
    delete[] static_cast<float *>(pointer);
  });
  std::vector<size_t> sizes(shape.begin(), shape.end());
  return NewFloatArray(data.release(), sizes.size(), sizes.data(), owner);
}

/// The rows of `x` [N, F] and `y` [N, O] (or [N] labels) as a Dataset.
Dataset toDataset(const FloatArray &x, const std::optional<FloatArray> &y,
                  const char *what) {
  if (x.ndim() != 2)
    throw ens::Error(std::string("ens.torch: ") + what +
                     " x must be [rows, features]");
  Dataset data;
  data.rows = x.shape(0);
  data.features = x.shape(1);
  data.x.assign(x.data(), x.data() + x.size());
  if (y) {
    if ((y->ndim() != 1 && y->ndim() != 2) ||
        static_cast<int64_t>(y->shape(0)) != data.rows)
      throw ens::Error(std::string("ens.torch: ") + what +
                       " y must be [rows] or [rows, outputs] with x's " +
                       std::to_string(data.rows) + " rows");
    data.outputs = y->ndim() == 1 ? 1 : y->shape(1);
    data.y.assign(y->data(), y->data() + y->size());
  }
  return data;
}

/// A run of the trainer, set up to its first step.
class PyTrainer {
public:
  PyTrainer(const std::string &modelText, const std::string &task,
            int64_t members, std::vector<FloatArray> params, FloatArray x,
            FloatArray y, std::optional<FloatArray> valX,
            std::optional<FloatArray> valY, int64_t steps,
            std::optional<int64_t> epochs, int64_t batchSize,
            const std::string &shuffle, bool bootstrap, bool dropLast,
            double lrMin, double lrMax, double beta1, double beta2, double eps,
            double weightDecay, uint64_t seed, double valSplit,
            int64_t patience, const std::string &target, int threads)
      : comm(createSingleProcess()) {
    TrainOptions options;
    Settings &settings = options.settings;
    std::optional<Task> parsedTask = parseTask(task);
    std::optional<Shuffle> parsedShuffle = parseShuffle(shuffle);
    if (!parsedTask)
      throw ens::Error("ens.torch: unknown task '" + task + "'");
    if (!parsedShuffle)
      throw ens::Error("ens.torch: shuffle='" + shuffle +
                       "' is not none, shared or member");
    settings.task = *parsedTask;
    settings.members = members;
    settings.seed = seed;
    settings.modelText = modelText;
    settings.lrMin = lrMin;
    settings.lrMax = lrMax;
    settings.adam = {beta1, beta2, eps, weightDecay};
    settings.batching = {batchSize, *parsedShuffle, bootstrap, dropLast};
    settings.validationSplit = valSplit;
    settings.patience = patience;
    checkSettings(settings, SettingsSource::Flags);
    options.modelText = modelText;
    options.modelName = "the ens.torch member";
    options.steps = steps;
    options.epochs = epochs;
    options.target = ens::python::parseTarget(target);
    options.threads = threads;
    options.trainData = toDataset(x, y, "the training");
    if (valX)
      options.validationData = toDataset(*valX, valY, "the validation");
    for (const FloatArray &param : params) {
      ens::TensorType type{ens::DType::F32, {}};
      for (size_t i = 0; i < param.ndim(); ++i)
        type.shape.push_back(param.shape(i));
      ens::Tensor tensor(type);
      std::memcpy(tensor.data(), param.data(), tensor.byteSize());
      options.initialParams.push_back(std::move(tensor));
    }
    trainer = std::make_unique<Trainer>(context, std::move(options), *comm);
    trainer->loadData();
    trainer->compile();
    trainer->initialize();
  }

  /// Trains; returns the summary as a dict of NumPy arrays and numbers.
  nb::dict fit() {
    double seconds;
    std::vector<float> losses;
    TrainingObserver observer;
    observer.memberLosses = [&](int64_t, const std::vector<float> &values) {
      losses.insert(losses.end(), values.begin(), values.end());
    };
    {
      nb::gil_scoped_release release;
      seconds = trainer->train(observer);
    }
    std::optional<TrainSummary> summary = trainer->finish(seconds);
    const TrainState &state = trainer->getState();
    nb::dict result;
    auto vector = [](const std::vector<float> &values) {
      return toNumpy({static_cast<int64_t>(values.size())}, values.data());
    };
    result["steps"] = state.step;
    result["initial_loss"] = vector(state.initialLoss);
    result["final_loss"] = vector(summary->finalLoss);
    if (trainer->getValidationData())
      result["validation_loss"] = vector(summary->validationLoss);
    std::vector<float> median(state.curveMedian.begin(),
                              state.curveMedian.end());
    result["loss_median"] = vector(median);
    const int64_t members = trainer->getShape().total();
    result["losses"] =
        toNumpy({static_cast<int64_t>(losses.size()) / members, members},
                losses.data());
    if (state.stopping) {
      result["best_epoch"] = vector(state.stopping->bestEpoch);
      result["stopped_epoch"] = vector(state.stopping->stoppedEpoch);
    }
    return result;
  }

  /// The members' parameters, [members, ...] each.
  std::vector<NewFloatArray> params() {
    std::vector<NewFloatArray> arrays;
    for (const ens::Tensor &param : trainer->getState().params)
      arrays.push_back(toNumpy(param.type().shape,
                               static_cast<const float *>(param.data())));
    return arrays;
  }

  /// predict()'s arrays by name, for the rows of `x`.
  nb::dict predict(FloatArray x) {
    std::vector<PredictionArray> arrays =
        trainer->predict(toDataset(x, std::nullopt, "the"));
    nb::dict result;
    for (const PredictionArray &array : arrays)
      result[array.name.c_str()] = toNumpy(array.shape, array.values.data());
    return result;
  }

private:
  ens::Context context;
  std::unique_ptr<Communicator> comm;
  std::unique_ptr<Trainer> trainer;
};
} // namespace

void ens::python::bindTrainer(nb::module_ &m) {
  nb::class_<PyTrainer>(m, "Trainer",
                        "One run of ens's trainer (ens-train's library) on "
                        "arrays in memory.")
      .def(nb::init<const std::string &, const std::string &, int64_t,
                    std::vector<FloatArray>, FloatArray, FloatArray,
                    std::optional<FloatArray>, std::optional<FloatArray>,
                    int64_t, std::optional<int64_t>, int64_t,
                    const std::string &, bool, bool, double, double, double,
                    double, double, double, uint64_t, double, int64_t,
                    const std::string &, int>(),
           "model_text"_a, "task"_a, "members"_a, "params"_a, "x"_a, "y"_a,
           "val_x"_a.none(), "val_y"_a.none(), "steps"_a, "epochs"_a.none(),
           "batch_size"_a, "shuffle"_a, "bootstrap"_a, "drop_last"_a,
           "lr_min"_a, "lr_max"_a, "beta1"_a, "beta2"_a, "eps"_a,
           "weight_decay"_a, "seed"_a, "val_split"_a, "patience"_a, "target"_a,
           "threads"_a)
      .def("fit", &PyTrainer::fit, "Trains; returns the summary.")
      .def("params", &PyTrainer::params, "The members' parameters.")
      .def("predict", &PyTrainer::predict, "x"_a,
           "The ensemble's predictions for the rows of x.");
}
