//===- Checkpoint.cpp - ens-train's checkpoints ---------------------------===//

#include "ens/Train/Checkpoint.h"

#include "ens/Train/Failure.h"
#include "ens/Train/Files.h"
#include "ens/Train/JsonFields.h"
#include "ens/Train/Settings.h"

#include "ens/Support/FileSystem.h"
#include "ens/Support/Npz.h"
#include "ens/Support/Sizes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

using namespace ens::train;
using ens::train::Failure;
using HostDType = mlir::ens::DType;
using mlir::ens::HostTensor;
using mlir::ens::NamedArray;
using nlohmann::json;

static constexpr const char *kFormat = "ens-train checkpoint";
/// Version 2 commits generations; version 1 renamed its two files in place.
static constexpr int64_t kVersion = 2, kLegacyVersion = 1;
static constexpr const char *kPointer = "CURRENT";
static constexpr const char *kManifestFile = "manifest.json";
static constexpr const char *kStateFile = "state.npz";
/// Far above any manifest (a hundred bytes per array) and any pointer.
static constexpr uint64_t kMaxManifestBytes = uint64_t(16) << 20;
static_assert(kMaxManifestBytes > 2 * kMaxCheckpointModelBytes,
              "a manifest holds the model's text, escaped, and the settings");
static constexpr uint64_t kMaxPointerBytes = 256;
/// A manifest nests four levels ("arrays", a name, "shape", the sizes).
static constexpr int kMaxManifestDepth = 16;

static std::string join(const std::string &directory, llvm::StringRef file) {
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, file);
  return path.str().str();
}

std::string Checkpoint::manifestPath() const {
  return join(generation, kManifestFile);
}

std::string Checkpoint::statePath() const {
  return join(generation, kStateFile);
}

static std::string generationName(int64_t step, uint64_t random) {
  char name[64];
  std::snprintf(name, sizeof(name), "gen-%012lld-%016llx",
                static_cast<long long>(step),
                static_cast<unsigned long long>(random));
  return name;
}

/// The step of a generation named as generationName names them, or nothing
/// for any other name.
static std::optional<int64_t> parseGenerationName(llvm::StringRef name) {
  if (!name.consume_front("gen-"))
    return std::nullopt;
  auto [digits, random] = name.split('-');
  int64_t step;
  if (digits.empty() || digits.size() > 18 ||
      !llvm::all_of(digits, llvm::isDigit) || random.empty() ||
      random.size() > 16 ||
      !llvm::all_of(
          random,
          [](char c) { return llvm::isDigit(c) || (c >= 'a' && c <= 'f'); }) ||
      digits.getAsInteger(10, step))
    return std::nullopt;
  return step;
}

/// Whether `name` names a file inside a directory: no separator, no "..".
static bool isPlainFileName(llvm::StringRef name) {
  return !name.empty() && name != "." && name != ".." && !name.contains('/') &&
         !name.contains('\0');
}

static std::string checksumOf(llvm::StringRef bytes) {
  return llvm::utohexstr(mlir::ens::computeChecksum(bytes), /*LowerCase=*/true,
                         /*Width=*/16);
}

/// What the arrays are, as the manifest records it.
static json describeArrays(const std::vector<NamedArray> &arrays) {
  json described = json::object();
  for (const auto &[name, array] : arrays)
    described[name] = {
        {"shape", std::vector<int64_t>(array.shape.begin(), array.shape.end())},
        {"dtype", array.dtype == HostDType::I32 ? "<i4" : "<f4"}};
  return described;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static HostTensor toHost(const ens::Tensor &tensor) {
  return HostTensor(HostDType::F32,
                    llvm::ArrayRef<int64_t>(tensor.type().shape),
                    tensor.values());
}

static HostTensor toHost(const std::vector<float> &values,
                         std::vector<int64_t> shape) {
  return HostTensor(HostDType::F32, llvm::ArrayRef<int64_t>(shape),
                    std::vector<double>(values.begin(), values.end()));
}

/// Whether `name`, in a checkpoint directory, is a file that a commit
/// supersedes: a temporary file of an interrupted write (writeFileAtomically
/// names them "<file>.tmp-<hex>", version 1 "<file>.tmp<pid>") or a
/// version-1 checkpoint's file.
static bool isSupersededFile(llvm::StringRef name) {
  for (llvm::StringRef file : {kPointer, kManifestFile, kStateFile})
    if (name.starts_with((file + ".tmp").str()))
      return true;
  return name == kManifestFile || name == kStateFile;
}

/// Removes what the commit of generation `kept` superseded. A failure to
/// remove something is not an error: it is never read again, and the next
/// commit tries again.
static void removeSuperseded(const std::string &directory,
                             const std::string &kept) {
  std::vector<std::string> directories, files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec,
                                            /*follow_symlinks=*/false),
       end;
       it != end && !ec; it.increment(ec)) {
    std::string name = llvm::sys::path::filename(it->path()).str();
    // lstat, not the directory entry's type, which some file systems leave
    // unknown; only real directories are removed, a link is never followed.
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if (!status)
      continue;
    if (status->type() == llvm::sys::fs::file_type::directory_file) {
      if (name != kept && parseGenerationName(name))
        directories.push_back(it->path());
    } else if (isSupersededFile(name)) {
      files.push_back(it->path());
    }
  }
  for (const std::string &path : directories)
    llvm::sys::fs::remove_directories(path, /*IgnoreErrors=*/true);
  for (const std::string &path : files)
    llvm::sys::fs::remove(path);
}

void ens::train::writeCheckpoint(const std::string &directory,
                                 const Model &model, const TrainState &state,
                                 json settings) {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    throw Failure("cannot create checkpoint directory " + directory + ": " +
                  ec.message());
  int64_t members = state.learningRates.size();
  std::vector<NamedArray> arrays;
  json parameters = json::array();
  for (size_t i = 0; i < model.params.size(); ++i) {
    const std::string &name = model.paramNames[i];
    parameters.push_back({{"name", name}, {"shape", model.params[i].shape}});
    arrays.emplace_back(name, toHost(state.params[i]));
    arrays.emplace_back("m_" + name, toHost(state.m[i]));
    arrays.emplace_back("v_" + name, toHost(state.v[i]));
  }
  arrays.emplace_back("lr", toHost(state.learningRates, {members}));
  arrays.emplace_back("initial_loss", toHost(state.initialLoss, {members}));
  std::vector<float> curve;
  for (size_t s = 0; s < state.curveMin.size(); ++s)
    curve.insert(curve.end(),
                 {state.curveMin[s], state.curveMedian[s], state.curveMax[s]});
  arrays.emplace_back(
      "loss_curve",
      toHost(curve, {static_cast<int64_t>(state.curveMin.size()), 3}));
  arrays.emplace_back("step", HostTensor(HostDType::I32, {},
                                         {static_cast<double>(state.step)}));
  if (!state.accuracyCurve.empty())
    arrays.emplace_back(
        "accuracy_curve",
        toHost(state.accuracyCurve,
               {static_cast<int64_t>(state.accuracyCurve.size())}));
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping) {
    arrays.emplace_back("best_loss", toHost(stopping->bestLoss, {members}));
    arrays.emplace_back("best_epoch", toHost(stopping->bestEpoch, {members}));
    arrays.emplace_back("stopped_epoch",
                        toHost(stopping->stoppedEpoch, {members}));
    for (size_t i = 0; i < model.params.size(); ++i)
      arrays.emplace_back("best_" + model.paramNames[i],
                          toHost(stopping->best[i]));
  }
  llvm::Expected<std::string> serialized = mlir::ens::serializeNpz(arrays);
  if (!serialized)
    throw Failure(llvm::toString(serialized.takeError()));
  std::string npz = std::move(*serialized);

  json manifest = std::move(settings);
  manifest["format"] = kFormat;
  manifest["version"] = kVersion;
  manifest["step"] = state.step;
  // The settings' members are per ensemble; the arrays hold every
  // ensemble's.
  manifest["members"] =
      members / manifest.value("ensembles", static_cast<int64_t>(1));
  manifest["parameters"] = std::move(parameters);
  manifest["x"] = model.x.shape;
  manifest["targets"] = model.targets.shape;
  manifest["state"] = kStateFile;
  manifest["state_bytes"] = npz.size();
  manifest["state_checksum"] = checksumOf(npz);
  manifest["arrays"] = describeArrays(arrays);

  // A new generation: mkdir fails rather than reuse a name.
  std::random_device entropy;
  std::string name, generation;
  for (int attempt = 0;; ++attempt) {
    name = generationName(state.step, uint64_t(entropy()) << 32 | entropy());
    generation = join(directory, name);
    std::error_code ec =
        llvm::sys::fs::create_directory(generation, /*IgnoreExisting=*/false);
    if (!ec)
      break;
    if (ec != std::errc::file_exists || attempt == 15)
      throw Failure("cannot create " + generation + ": " + ec.message());
  }
  try {
    writeOutputFile(join(generation, kStateFile), npz, "state");
    writeOutputFile(join(generation, kManifestFile), manifest.dump(2) + "\n",
                    "manifest");
    if (llvm::Error error = mlir::ens::syncDirectory(directory))
      throw Failure(llvm::toString(std::move(error)));
  } catch (const Failure &) {
    // Nothing names the generation yet.
    llvm::sys::fs::remove_directories(generation, /*IgnoreErrors=*/true);
    throw;
  }
  // The commit. Should it fail after its rename, CURRENT names the new
  // generation, which is therefore kept in any case.
  writeOutputFile(join(directory, kPointer), name + "\n", "pointer");
  removeSuperseded(directory, name);
}

//===----------------------------------------------------------------------===//
// Finding
//===----------------------------------------------------------------------===//

/// The checkpoint whose files are in `generation`, a generation of
/// `directory` or, for version 1, `directory` itself, with its state file
/// read and checked against the manifest's size and checksum. Throws
/// Failure naming the file at fault.
static Checkpoint loadGeneration(const std::string &directory,
                                 const std::string &generation) {
  Checkpoint checkpoint;
  checkpoint.directory = directory;
  checkpoint.generation = generation;
  std::string manifestPath = checkpoint.manifestPath();
  std::string text = readInputFile(manifestPath, "manifest", kMaxManifestBytes);
  // nlohmann's printing and comparison recurse once per level, so deeper
  // nesting than a manifest has is refused while parsing, which does not.
  auto bounded = [&](int depth, json::parse_event_t, json &) {
    if (depth > kMaxManifestDepth)
      throw Failure(manifestPath + " nests deeper than " +
                    std::to_string(kMaxManifestDepth) + " levels");
    return true;
  };
  try {
    checkpoint.manifest = json::parse(text, bounded);
  } catch (const json::exception &error) {
    throw Failure(manifestPath + " is not valid JSON: " + error.what());
  }
  const json &manifest = checkpoint.manifest;
  if (!manifest.is_object() || !manifest.contains("format") ||
      manifest["format"] != kFormat)
    throw Failure(manifestPath + " is not an ens-train checkpoint manifest");

  int64_t version, size = 0;
  std::string stateName, checksum;
  try {
    version = getInteger(manifest, "version", kLegacyVersion, kVersion);
    stateName = getString(manifest, "state");
    if (!isPlainFileName(stateName))
      throw Failure("state must name a file in the checkpoint's directory "
                    "(got " +
                    json(stateName).dump() + ")");
    if (version == kVersion) {
      size = getInteger(manifest, "state_bytes", 0, INT64_MAX);
      checksum = getString(manifest, "state_checksum");
    }
  } catch (const Failure &failure) {
    throw Failure(manifestPath + ": " + failure.what());
  }
  std::string statePath = join(generation, stateName);
  checkpoint.state =
      readInputFile(statePath, "state", mlir::ens::getDefaultMaxBufferBytes());
  if (version == kLegacyVersion)
    return checkpoint;
  if (static_cast<int64_t>(checkpoint.state.size()) != size)
    throw Failure(statePath + " has " +
                  std::to_string(checkpoint.state.size()) + " bytes, but " +
                  manifestPath + " records " + std::to_string(size) +
                  ": the generation is incomplete or corrupt");
  if (checksumOf(checkpoint.state) != checksum)
    throw Failure(statePath + " does not match the checksum in " +
                  manifestPath + ": it is corrupt");
  return checkpoint;
}

Checkpoint ens::train::findCheckpoint(const std::string &directory) {
  auto fail = [&](const std::string &message) {
    return Failure("cannot resume from " + directory + ": " + message);
  };
  if (!llvm::sys::fs::is_directory(directory))
    throw fail("no such directory");
  // A heterogeneous ensemble's (Groups.h): a checkpoint per group.
  if (llvm::sys::fs::exists(join(directory, "groups.json")))
    throw fail("it holds a heterogeneous ensemble, a checkpoint per --model "
               "(groups.json), not the checkpoint of one model");

  // The generations, newest first.
  std::vector<std::pair<int64_t, std::string>> generations;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       it != end && !ec; it.increment(ec)) {
    std::string name = llvm::sys::path::filename(it->path()).str();
    if (std::optional<int64_t> step = parseGenerationName(name))
      generations.emplace_back(*step, name);
  }
  if (ec)
    throw fail("cannot list it: " + ec.message());
  llvm::sort(generations, std::greater<>());

  // Why CURRENT was not used, when it was expected.
  std::string problem;
  std::string pointerPath = join(directory, kPointer);
  if (llvm::sys::fs::exists(pointerPath)) {
    try {
      std::string pointer =
          readInputFile(pointerPath, "pointer", kMaxPointerBytes);
      llvm::StringRef name = llvm::StringRef(pointer).rtrim('\n');
      if (!parseGenerationName(name))
        throw Failure(pointerPath + " does not name a generation");
      return loadGeneration(directory, join(directory, name));
    } catch (const Failure &failure) {
      problem = failure.what();
    }
  } else if (!generations.empty()) {
    problem = pointerPath + " is missing";
  }

  std::string firstError;
  for (const auto &[step, name] : generations) {
    try {
      Checkpoint checkpoint = loadGeneration(directory, join(directory, name));
      checkpoint.note =
          problem + "; took " + name + ", the newest complete generation";
      return checkpoint;
    } catch (const Failure &failure) {
      if (firstError.empty())
        firstError = failure.what();
    }
  }
  if (llvm::sys::fs::exists(join(directory, kManifestFile))) {
    try {
      Checkpoint checkpoint = loadGeneration(directory, directory);
      if (!problem.empty())
        checkpoint.note = problem + "; took the version-1 checkpoint";
      return checkpoint;
    } catch (const Failure &failure) {
      if (firstError.empty())
        firstError = failure.what();
    }
  }
  if (!firstError.empty())
    throw fail(firstError);
  if (!problem.empty())
    throw fail(problem);
  throw fail("it holds no checkpoint (no " + std::string(kPointer) +
             ", no generation and no " + kManifestFile + ")");
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

/// "(w1 [64,32], b1 [32])".
static std::string
describeParameters(const std::vector<std::string> &names,
                   const std::vector<std::vector<int64_t>> &shapes) {
  std::string text = "(";
  for (size_t i = 0; i < names.size(); ++i)
    text += (i ? ", " : "") + names[i] + " " + json(shapes[i]).dump();
  return text + ")";
}

TrainState ens::train::readCheckpoint(const Checkpoint &checkpoint,
                                      const Model &model, bool earlyStopping) {
  const json &manifest = checkpoint.manifest;
  const std::string manifestPath = checkpoint.manifestPath();
  auto fail = [&](const std::string &message) {
    return Failure("cannot resume from " + checkpoint.directory + ": " +
                   message);
  };

  // The manifest's fields.
  std::vector<std::string> names;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<int64_t> x, targets;
  int64_t members, step;
  std::string statePath;
  try {
    const json &parameters = getField(manifest, "parameters");
    if (!parameters.is_array())
      throw Failure("parameters must be a list");
    for (size_t i = 0; i < parameters.size(); ++i) {
      std::string prefix = "parameters[" + std::to_string(i) + "].";
      if (!parameters[i].is_object())
        throw Failure(prefix.substr(0, prefix.size() - 1) +
                      " must be an object");
      names.push_back(getString(parameters[i], "name", prefix));
      shapes.push_back(
          getShape(getField(parameters[i], "shape", prefix), prefix + "shape"));
    }
    // A model that leaves its batch open records it as -1.
    x = getShape(getField(manifest, "x"), "x", /*openFirst=*/true);
    targets =
        getShape(getField(manifest, "targets"), "targets", /*openFirst=*/true);
    members = getInteger(manifest, "members", 1, kMaxMembers);
    // Every ensemble's members (checkpoints from before ensembles have
    // one); readSettings checks that there are at most kMaxMembers.
    if (manifest.contains("ensembles"))
      members *= getInteger(manifest, "ensembles", 1, kMaxMembers / members);
    step = getInteger(manifest, "step", 0, kMaxSteps);
    statePath = join(checkpoint.generation, getString(manifest, "state"));
  } catch (const Failure &failure) {
    throw fail(manifestPath + ": " + failure.what());
  }

  // The model's.
  std::vector<std::vector<int64_t>> expected;
  for (const ens::TensorType &param : model.params)
    expected.push_back(param.shape);
  if (shapes != expected)
    throw fail("the checkpoint does not match model " + model.name +
               ": it holds parameters " + describeParameters(names, shapes) +
               " but the model's are " +
               describeParameters(model.paramNames, expected));
  if (x != model.x.shape || targets != model.targets.shape)
    throw fail("the checkpoint does not match model " + model.name +
               ": it was trained on x " + json(x).dump() + " and targets " +
               json(targets).dump() + ", the model takes " +
               json(model.x.shape).dump() + " and " +
               json(model.targets.shape).dump());
  llvm::StringSet<> distinct;
  for (const std::string &name : names)
    if (!distinct.insert(name).second)
      throw fail(manifestPath + ": parameters name '" + name + "' twice");

  // The arrays, each exactly as the model and the manifest say.
  llvm::Expected<std::vector<NamedArray>> parsed =
      mlir::ens::parseNpz(checkpoint.state, statePath);
  if (!parsed)
    throw fail(llvm::toString(parsed.takeError()));
  std::vector<NamedArray> arrays = std::move(*parsed);
  if (!manifest.contains("arrays") ||
      manifest["arrays"] != describeArrays(arrays))
    throw fail(manifestPath + ": its arrays do not describe " + statePath);
  auto find = [&](const std::string &name,
                  const std::vector<int64_t> &shape) -> const HostTensor & {
    bool isStep = name == "step";
    HostDType dtype = isStep ? HostDType::I32 : HostDType::F32;
    for (const auto &[arrayName, array] : arrays) {
      if (arrayName != name)
        continue;
      ens::TensorType type{isStep ? ens::DType::I32 : ens::DType::F32, shape};
      if (array.dtype != dtype ||
          llvm::ArrayRef<int64_t>(array.shape) != llvm::ArrayRef(shape))
        throw fail(statePath + " holds '" + name + "' as " +
                   array.getTypeString() + ", expected " + type.str());
      return array;
    }
    throw fail(statePath + " has no array '" + name + "'");
  };
  auto toTensor = [](const HostTensor &array) {
    return ens::Tensor(ens::TensorType{ens::DType::F32,
                                       std::vector<int64_t>(array.shape.begin(),
                                                            array.shape.end())},
                       array.values);
  };
  auto toFloats = [](const HostTensor &array) {
    return std::vector<float>(array.values.begin(), array.values.end());
  };

  TrainState state;
  state.step = step;
  for (size_t i = 0; i < model.params.size(); ++i) {
    std::vector<int64_t> shape = stacked(model.params[i], members).shape;
    state.params.push_back(toTensor(find(names[i], shape)));
    state.m.push_back(toTensor(find("m_" + names[i], shape)));
    const HostTensor &v = find("v_" + names[i], shape);
    // A second moment is a mean of squares (NaN where a member diverged).
    if (llvm::any_of(v.values, [](double value) { return value < 0; }))
      throw fail(statePath + " holds a negative second moment in 'v_" +
                 names[i] + "'");
    state.v.push_back(toTensor(v));
  }
  const HostTensor &rates = find("lr", {members});
  if (!llvm::all_of(rates.values, [](double rate) {
        return rate > 0 && std::isfinite(rate);
      }))
    throw fail(statePath +
               " holds a learning rate that is not positive and finite");
  state.learningRates = toFloats(rates);
  state.initialLoss = toFloats(find("initial_loss", {members}));
  const HostTensor &curve = find("loss_curve", {step, 3});
  for (int64_t s = 0; s < step; ++s) {
    state.curveMin.push_back(curve.values[3 * s]);
    state.curveMedian.push_back(curve.values[3 * s + 1]);
    state.curveMax.push_back(curve.values[3 * s + 2]);
  }
  const HostTensor &savedStep = find("step", {});
  if (savedStep.values[0] != static_cast<double>(step))
    throw fail("the checkpoint is inconsistent: " + statePath + " is at step " +
               std::to_string(static_cast<int64_t>(savedStep.values[0])) +
               " but " + manifestPath + " at step " + std::to_string(step));
  // A classification's accuracy per epoch: at most one per step.
  for (const auto &[name, array] : arrays) {
    if (name != "accuracy_curve")
      continue;
    if (array.dtype != HostDType::F32 || array.getRank() != 1 ||
        array.shape[0] > step)
      throw fail(statePath + " holds 'accuracy_curve' as " +
                 array.getTypeString() +
                 ", expected f32 [E] with E <= " + std::to_string(step));
    if (!llvm::all_of(array.values,
                      [](double value) { return value >= 0 && value <= 1; }))
      throw fail(statePath + " holds an accuracy outside [0, 1] in "
                             "'accuracy_curve'");
    state.accuracyCurve = toFloats(array);
  }
  if (!earlyStopping)
    return state;
  EarlyStoppingState &stopping = state.stopping.emplace();
  stopping.bestLoss = toFloats(find("best_loss", {members}));
  // Epochs are whole numbers, counted from 1 (0: none), as floats.
  auto epochs = [&](const char *name) {
    const HostTensor &array = find(name, {members});
    if (!llvm::all_of(array.values, [&](double epoch) {
          return epoch >= 0 && epoch <= step && epoch == std::floor(epoch);
        }))
      throw fail(statePath + " holds an epoch in '" + name +
                 "' that is not a whole number from 0 to the step");
    return toFloats(array);
  };
  stopping.bestEpoch = epochs("best_epoch");
  stopping.stoppedEpoch = epochs("stopped_epoch");
  for (size_t i = 0; i < model.params.size(); ++i)
    stopping.best.push_back(toTensor(
        find("best_" + names[i], stacked(model.params[i], members).shape)));
  return state;
}
