//===- Train.cpp - The trainer library in Python --------------------------===//
//
// _ens.Trainer: one run of the trainer library (include/ens/Train/
// Trainer.h, and Groups.h for a heterogeneous ensemble) on arrays in
// memory, for ens.torch's fit and predict.
// The batches, shuffling, bootstrap, early stopping and the Adam steps are
// the library's, as ens-train runs them; this file only converts arrays.
//
//===----------------------------------------------------------------------===//

#include "Train.h"

#include "ens/Train/Groups.h"
#include "ens/Train/Settings.h"
#include "ens/Train/Trainer.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
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

/// `param` as a tensor of the trainer.
ens::Tensor toTensor(const FloatArray &param) {
  ens::TensorType type{ens::DType::F32, {}};
  for (size_t i = 0; i < param.ndim(); ++i)
    type.shape.push_back(param.shape(i));
  ens::Tensor tensor(type);
  std::memcpy(tensor.data(), param.data(), tensor.byteSize());
  return tensor;
}

/// A run of the trainer, set up to its first step: of one model, or of a
/// heterogeneous ensemble of several (Groups.h), one group per model, each
/// with its members and their starting parameters.
class PyTrainer {
public:
  PyTrainer(const std::vector<std::string> &modelTexts, const std::string &task,
            const std::vector<int64_t> &members,
            const std::vector<std::vector<FloatArray>> &params, FloatArray x,
            FloatArray y, std::optional<FloatArray> valX,
            std::optional<FloatArray> valY, int64_t steps,
            std::optional<int64_t> epochs, int64_t batchSize,
            const std::string &shuffle, bool bootstrap, bool dropLast,
            double lrMin, double lrMax, double beta1, double beta2, double eps,
            double weightDecay, uint64_t seed, double valSplit,
            int64_t patience, const std::string &target, int threads)
      : comm(createSingleProcess()) {
    if (modelTexts.empty() || modelTexts.size() != members.size() ||
        modelTexts.size() != params.size())
      throw ens::Error("ens.torch: the trainer takes a model, a member count "
                       "and parameters per group");
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
    settings.members = members.front();
    settings.seed = seed;
    settings.modelText = modelTexts.front();
    settings.lrMin = lrMin;
    settings.lrMax = lrMax;
    settings.adam = {beta1, beta2, eps, weightDecay};
    settings.batching = {batchSize, *parsedShuffle, bootstrap, dropLast};
    settings.validationSplit = valSplit;
    settings.patience = patience;
    checkSettings(settings, SettingsSource::Flags);
    options.modelText = modelTexts.front();
    options.modelName = "the ens.torch member";
    options.steps = steps;
    options.epochs = epochs;
    options.target = ens::python::parseTarget(target);
    options.threads = threads;
    options.trainData = toDataset(x, y, "the training");
    if (valX)
      options.validationData = toDataset(*valX, valY, "the validation");
    if (modelTexts.size() == 1) {
      for (const FloatArray &param : params.front())
        options.initialParams.push_back(toTensor(param));
      single = std::make_unique<Trainer>(context, std::move(options), *comm);
      single->loadData();
      single->compile();
      single->initialize();
      return;
    }
    std::vector<ModelGroup> groups(modelTexts.size());
    for (size_t g = 0; g < groups.size(); ++g) {
      groups[g].modelText = modelTexts[g];
      groups[g].modelName =
          "the ens.torch members of group " + std::to_string(g);
      groups[g].members = members[g];
      for (const FloatArray &param : params[g])
        groups[g].initialParams.push_back(toTensor(param));
    }
    grouped = std::make_unique<GroupTrainer>(context, options, groups, *comm);
    grouped->loadData();
    grouped->compile();
    grouped->initialize();
  }

  /// Trains; returns the summary as a dict of NumPy arrays and numbers,
  /// members group after group.
  nb::dict fit() {
    double seconds;
    std::vector<float> losses;
    TrainingObserver observer;
    observer.memberLosses = [&](int64_t, const std::vector<float> &values) {
      losses.insert(losses.end(), values.begin(), values.end());
    };
    {
      nb::gil_scoped_release release;
      seconds = single ? single->train(observer) : grouped->train(observer);
    }
    std::vector<TrainSummary> summaries;
    if (single)
      summaries.push_back(*single->finish(seconds));
    else
      summaries = grouped->finish(seconds);
    // Each member's figures, group after group.
    std::vector<float> initial, final, validation, bestEpoch, stoppedEpoch;
    bool stopping = false;
    int64_t steps = 0;
    for (size_t g = 0; g < summaries.size(); ++g) {
      const TrainState &state = getGroup(g).getState();
      steps = std::max(steps, state.step);
      append(initial, state.initialLoss);
      append(final, summaries[g].finalLoss);
      append(validation, summaries[g].validationLoss);
      if (state.stopping) {
        stopping = true;
        append(bestEpoch, state.stopping->bestEpoch);
        append(stoppedEpoch, state.stopping->stoppedEpoch);
      }
    }
    auto vector = [](const std::vector<float> &values) {
      return toNumpy({static_cast<int64_t>(values.size())}, values.data());
    };
    nb::dict result;
    result["steps"] = steps;
    result["initial_loss"] = vector(initial);
    result["final_loss"] = vector(final);
    if (getGroup(0).getValidationData())
      result["validation_loss"] = vector(validation);
    const int64_t total = static_cast<int64_t>(initial.size());
    const int64_t rows = static_cast<int64_t>(losses.size()) / total;
    // The median over the members that took each step.
    std::vector<float> median;
    for (int64_t step = 0; step < rows; ++step) {
      std::vector<float> stepped;
      for (int64_t m = 0; m < total; ++m)
        if (float loss = losses[step * total + m]; !std::isnan(loss))
          stepped.push_back(loss);
      median.push_back(stepped.empty() ? std::nanf("")
                                       : minMedianMax(stepped)[1]);
    }
    result["loss_median"] = vector(median);
    result["losses"] = toNumpy({rows, total}, losses.data());
    if (stopping) {
      result["best_epoch"] = vector(bestEpoch);
      result["stopped_epoch"] = vector(stoppedEpoch);
    }
    return result;
  }

  /// Each group's members' parameters, [members, ...] each.
  std::vector<std::vector<NewFloatArray>> params() {
    std::vector<std::vector<NewFloatArray>> groups;
    for (size_t g = 0; g < getGroupCount(); ++g) {
      groups.emplace_back();
      for (const ens::Tensor &param : getGroup(g).getState().params)
        groups.back().push_back(toNumpy(
            param.type().shape, static_cast<const float *>(param.data())));
    }
    return groups;
  }

  /// predict()'s arrays by name, for the rows of `x`; members group after
  /// group.
  nb::dict predict(FloatArray x) {
    Dataset data = toDataset(x, std::nullopt, "the");
    std::vector<PredictionArray> arrays =
        single ? single->predict(data) : grouped->predict(data);
    nb::dict result;
    for (const PredictionArray &array : arrays)
      result[array.name.c_str()] = toNumpy(array.shape, array.values.data());
    return result;
  }

private:
  template <typename T>
  static void append(std::vector<float> &to, const std::vector<T> &values) {
    to.insert(to.end(), values.begin(), values.end());
  }
  size_t getGroupCount() const { return single ? 1 : grouped->size(); }
  Trainer &getGroup(size_t g) {
    return single ? *single : grouped->getGroup(g);
  }

  ens::Context context;
  std::unique_ptr<Communicator> comm;
  std::unique_ptr<Trainer> single;
  std::unique_ptr<GroupTrainer> grouped;
};
} // namespace

void ens::python::bindTrainer(nb::module_ &m) {
  nb::class_<PyTrainer>(m, "Trainer",
                        "One run of ens's trainer (ens-train's library) on "
                        "arrays in memory.")
      .def(nb::init<const std::vector<std::string> &, const std::string &,
                    const std::vector<int64_t> &,
                    const std::vector<std::vector<FloatArray>> &, FloatArray,
                    FloatArray, std::optional<FloatArray>,
                    std::optional<FloatArray>, int64_t, std::optional<int64_t>,
                    int64_t, const std::string &, bool, bool, double, double,
                    double, double, double, double, uint64_t, double, int64_t,
                    const std::string &, int>(),
           "model_texts"_a, "task"_a, "members"_a, "params"_a, "x"_a, "y"_a,
           "val_x"_a.none(), "val_y"_a.none(), "steps"_a, "epochs"_a.none(),
           "batch_size"_a, "shuffle"_a, "bootstrap"_a, "drop_last"_a,
           "lr_min"_a, "lr_max"_a, "beta1"_a, "beta2"_a, "eps"_a,
           "weight_decay"_a, "seed"_a, "val_split"_a, "patience"_a, "target"_a,
           "threads"_a)
      .def("fit", &PyTrainer::fit, "Trains; returns the summary.")
      .def("params", &PyTrainer::params, "Each group's members' parameters.")
      .def("predict", &PyTrainer::predict, "x"_a,
           "The ensemble's predictions for the rows of x.");
}
