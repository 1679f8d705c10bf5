//===- Settings.h - What an ens-train run is configured with ----*- C++ -*-===//
//
// The settings that a checkpoint records and a resumed run keeps, their
// valid ranges, and how they are read back from a checkpoint's manifest.
// Flags and manifests go through the same checks, so that a checkpoint can
// never make ens-train train with a setting that its flags would refuse.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_SETTINGS_H
#define ENS_TRAIN_SETTINGS_H

#include "ens/Train/Batches.h"
#include "ens/Train/Program.h"

#include <nlohmann/json.hpp>

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ens::train {

/// The most members a manifest may record: the range of --members.
inline constexpr int64_t kMaxMembers = UINT32_MAX;
/// The most ensembles a manifest may record: the range of --ensembles.
inline constexpr int64_t kMaxEnsembles = UINT32_MAX;
/// The most epochs of --patience a manifest may record: its flag's range.
inline constexpr int64_t kMaxPatience = UINT32_MAX;

/// The settings that a checkpoint records and a resumed run keeps.
struct Settings {
  std::string model; // A path, or empty for the built-in model.
  /// The model's text, which checkpoints embed so that predicting and
  /// resuming never read a model file that may have changed or moved; empty
  /// for the built-in model (and in checkpoints from before it was kept).
  std::string modelText;
  Task task = Task::Regress;
  int64_t members = 0;
  /// Independent ensembles of `members` each, ensemble k on the k-th
  /// group of the data's target columns.
  int64_t ensembles = 1;
  uint64_t seed = 0;
  std::string data; // A path, or empty for the built-in problem.
  double lrMin = 0, lrMax = 0;
  AdamOptions adam;
  /// A batch size of 0 stands for the model's.
  Batching batching;
  /// The validation set: a file (a path), or a share of --data (0: none).
  std::string validationData;
  double validationSplit = 0;
  /// Epochs without improvement before a member stops (0: never).
  int64_t patience = 0;

  bool validates() const {
    return !validationData.empty() || validationSplit > 0;
  }

  /// The settings for a manifest, with absolute paths, so that a run
  /// resumed from elsewhere finds the files.
  nlohmann::json toJson() const;
};

/// Where settings come from, which decides how messages name them: as
/// flags ("--beta1") or as a manifest's keys ("optimizer.beta1").
enum class SettingsSource { Flags, Manifest };

/// Throws Failure for the first setting out of its range.
void checkSettings(const Settings &settings, SettingsSource source);

/// The settings that `manifest` records, each checked for its type and
/// range; throws Failure naming the first bad field.
Settings readSettings(const nlohmann::json &manifest);

/// The name of `task` (--task's value), and the task a name names.
const char *getTaskName(Task task);
std::optional<Task> parseTask(llvm::StringRef name);

/// `value` with `precision` significant digits, for messages and reports.
std::string formatNumber(double value, int precision = 4);

/// `path` made absolute, for manifests.
std::string absolutePath(const std::string &path);

} // namespace ens::train

#endif // ENS_TRAIN_SETTINGS_H
