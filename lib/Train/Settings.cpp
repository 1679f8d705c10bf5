//===- Settings.cpp - What an ens-train run is configured with ------------===//

#include "ens/Train/Settings.h"

#include "ens/Train/Failure.h"
#include "ens/Train/JsonFields.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>

using namespace ens::train;
using ens::train::Failure;
using nlohmann::json;

std::string ens::train::absolutePath(const std::string &path) {
  llvm::SmallString<256> result(path);
  llvm::sys::fs::make_absolute(result);
  llvm::sys::path::remove_dots(result, /*remove_dot_dot=*/true);
  return result.str().str();
}

json Settings::toJson() const {
  json settings = {
      {"model", model.empty() ? "builtin" : absolutePath(model)},
      {"task", getTaskName(task)},
      {"ensembles", ensembles},
      {"seed", seed},
      {"data", data.empty() ? "builtin" : absolutePath(data)},
      {"optimizer",
       {{"name", "adam"},
        {"lr_min", lrMin},
        {"lr_max", lrMax},
        {"beta1", adam.beta1},
        {"beta2", adam.beta2},
        {"eps", adam.eps},
        {"weight_decay", adam.weightDecay}}},
      {"batching",
       {{"batch_size", batching.batchSize},
        {"shuffle", getShuffleName(batching.shuffle)},
        {"bootstrap", batching.bootstrap},
        {"drop_last", batching.dropLast}}},
      {"validation",
       {{"data", validationData.empty() ? "" : absolutePath(validationData)},
        {"split", validationSplit},
        {"patience", patience}}}};
  if (!modelText.empty())
    settings["model_text"] = modelText;
  return settings;
}

const char *ens::train::getTaskName(Task task) {
  return task == Task::Classify ? "classify" : "regress";
}

std::optional<Task> ens::train::parseTask(llvm::StringRef name) {
  if (name == "regress")
    return Task::Regress;
  if (name == "classify")
    return Task::Classify;
  return std::nullopt;
}

std::string ens::train::formatNumber(double value, int precision) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
  return buffer;
}

void ens::train::checkSettings(const Settings &settings,
                               SettingsSource source) {
  auto name = [&](const char *flag, const char *key) {
    return source == SettingsSource::Flags ? "--" + std::string(flag)
                                           : std::string(key);
  };
  auto got = [](double value) { return " (got " + formatNumber(value) + ")"; };
  if (settings.members < 1)
    throw Failure(name("members", "members") + " must be at least 1 (got " +
                  std::to_string(settings.members) + ")");
  if (settings.ensembles < 1)
    throw Failure(name("ensembles", "ensembles") + " must be at least 1 (got " +
                  std::to_string(settings.ensembles) + ")");
  if (settings.members > kMaxMembers / settings.ensembles)
    throw Failure(name("members", "members") + " times " +
                  name("ensembles", "ensembles") + " must be at most " +
                  std::to_string(kMaxMembers) + " (got " +
                  std::to_string(settings.members) + " and " +
                  std::to_string(settings.ensembles) + ")");
  if (!(settings.lrMin > 0) || !(settings.lrMax > 0) ||
      !std::isfinite(settings.lrMin) || !std::isfinite(settings.lrMax))
    throw Failure("learning rates must be positive and finite (got " +
                  formatNumber(settings.lrMin) + " and " +
                  formatNumber(settings.lrMax) + ")");
  if (settings.lrMin > settings.lrMax)
    throw Failure(name("lr-min", "optimizer.lr_min") + " (" +
                  formatNumber(settings.lrMin) + ") must not exceed " +
                  name("lr-max", "optimizer.lr_max") + " (" +
                  formatNumber(settings.lrMax) + ")");
  const AdamOptions &adam = settings.adam;
  if (!(adam.beta1 >= 0 && adam.beta1 < 1))
    throw Failure(name("beta1", "optimizer.beta1") + " must be in [0, 1)" +
                  got(adam.beta1));
  if (!(adam.beta2 >= 0 && adam.beta2 < 1))
    throw Failure(name("beta2", "optimizer.beta2") + " must be in [0, 1)" +
                  got(adam.beta2));
  if (!(adam.eps > 0) || !std::isfinite(adam.eps))
    throw Failure(name("eps", "optimizer.eps") +
                  " must be positive and finite" + got(adam.eps));
  if (!(adam.weightDecay >= 0) || !std::isfinite(adam.weightDecay))
    throw Failure(name("weight-decay", "optimizer.weight_decay") +
                  " must be finite and not negative" + got(adam.weightDecay));
  double split = settings.validationSplit;
  if (!(split >= 0 && split < 1))
    throw Failure(name("val-split", "validation.split") + " must be in [0, 1)" +
                  got(split));
  if (split > 0 && !settings.validationData.empty())
    throw Failure("give either --val or --val-split, not both");
}

Settings ens::train::readSettings(const json &manifest) {
  Settings settings;
  std::string model = getString(manifest, "model");
  settings.model = model == "builtin" ? "" : model;
  if (manifest.contains("model_text"))
    settings.modelText = getString(manifest, "model_text");
  std::string data = getString(manifest, "data");
  settings.data = data == "builtin" ? "" : data;
  settings.members = getInteger(manifest, "members", 1, kMaxMembers);
  // Checkpoints from before tasks and ensembles trained one regression.
  if (manifest.contains("task")) {
    std::string task = getString(manifest, "task");
    std::optional<Task> parsed = parseTask(task);
    if (!parsed)
      throw Failure("task is \"" + task + "\"; expected regress or classify");
    settings.task = *parsed;
  }
  if (manifest.contains("ensembles"))
    settings.ensembles = getInteger(manifest, "ensembles", 1, kMaxEnsembles);
  settings.seed = getUnsigned(manifest, "seed");
  const json &optimizer = getObject(manifest, "optimizer");
  std::string optimizerName = getString(optimizer, "name", "optimizer.");
  if (optimizerName != "adam")
    throw Failure("it was trained with " + optimizerName + ", not adam");
  const std::string prefix = "optimizer.";
  settings.lrMin = getNumber(optimizer, "lr_min", prefix);
  settings.lrMax = getNumber(optimizer, "lr_max", prefix);
  settings.adam.beta1 = getNumber(optimizer, "beta1", prefix);
  settings.adam.beta2 = getNumber(optimizer, "beta2", prefix);
  settings.adam.eps = getNumber(optimizer, "eps", prefix);
  settings.adam.weightDecay = getNumber(optimizer, "weight_decay", prefix);
  // Checkpoints from before minibatches trained on one whole batch of the
  // model's size, in order.
  if (manifest.contains("batching")) {
    const json &batching = getObject(manifest, "batching");
    const std::string prefix = "batching.";
    settings.batching.batchSize =
        getInteger(batching, "batch_size", 0, INT64_MAX, prefix);
    std::string shuffle = getString(batching, "shuffle", prefix);
    std::optional<Shuffle> parsed = parseShuffle(shuffle);
    if (!parsed)
      throw Failure("batching.shuffle is \"" + shuffle +
                    "\"; expected none, shared or member");
    settings.batching.shuffle = *parsed;
    settings.batching.bootstrap = getBool(batching, "bootstrap", prefix);
    settings.batching.dropLast = getBool(batching, "drop_last", prefix);
  }
  if (manifest.contains("validation")) {
    const json &validation = getObject(manifest, "validation");
    const std::string prefix = "validation.";
    settings.validationData = getString(validation, "data", prefix);
    settings.validationSplit = getNumber(validation, "split", prefix);
    settings.patience =
        getInteger(validation, "patience", 0, kMaxPatience, prefix);
  }
  checkSettings(settings, SettingsSource::Manifest);
  return settings;
}
