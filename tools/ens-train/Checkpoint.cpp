//===- Checkpoint.cpp - ens-train's checkpoints ---------------------------===//

#include "Checkpoint.h"

#include "Failure.h"
#include "Npz.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace ens_train;
using mlir::ens::DType;
using mlir::ens::HostTensor;
using nlohmann::json;

static constexpr const char *kFormat = "ens-train checkpoint";
static constexpr int kVersion = 1;

static std::string join(const std::string &directory, const char *file) {
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, file);
  return path.str().str();
}

/// Writes `contents` to `path` through a temporary file renamed into place.
static void writeAtomically(const std::string &path,
                            const std::string &contents) {
  std::string temporary =
      path + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec, llvm::sys::fs::OF_None);
    if (ec)
      throw Failure("cannot write " + temporary + ": " + ec.message());
    os << contents;
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      throw Failure("cannot write " + temporary + ": " + message);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    throw Failure("cannot rename " + temporary + " to " + path + ": " +
                  ec.message());
  }
}

static HostTensor toHost(const ens::Tensor &tensor) {
  return HostTensor(DType::F32, llvm::ArrayRef<int64_t>(tensor.type().shape),
                    tensor.values());
}

static HostTensor toHost(const std::vector<float> &values,
                         std::vector<int64_t> shape) {
  return HostTensor(DType::F32, llvm::ArrayRef<int64_t>(shape),
                    std::vector<double>(values.begin(), values.end()));
}

void ens_train::writeCheckpoint(const std::string &directory,
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
  arrays.emplace_back(
      "step", HostTensor(DType::I32, {}, {static_cast<double>(state.step)}));

  json described = json::object();
  for (const auto &[name, array] : arrays)
    described[name] = {
        {"shape", std::vector<int64_t>(array.shape.begin(), array.shape.end())},
        {"dtype", array.dtype == DType::I32 ? "<i4" : "<f4"}};

  json manifest = std::move(settings);
  manifest["format"] = kFormat;
  manifest["version"] = kVersion;
  manifest["step"] = state.step;
  manifest["members"] = members;
  manifest["parameters"] = std::move(parameters);
  manifest["x"] = model.x.shape;
  manifest["targets"] = model.targets.shape;
  manifest["state"] = "state.npz";
  manifest["arrays"] = std::move(described);

  writeAtomically(join(directory, "state.npz"), serializeNpz(arrays));
  writeAtomically(join(directory, "manifest.json"), manifest.dump(2) + "\n");
}

json ens_train::readManifest(const std::string &directory) {
  std::string path = join(directory, "manifest.json");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    throw Failure("cannot resume from " + directory + ": cannot read " + path +
                  ": " + file.getError().message());
  json manifest;
  try {
    manifest = json::parse((*file)->getBuffer().str());
  } catch (const json::exception &error) {
    throw Failure("cannot resume from " + directory + ": " + path +
                  " is not valid JSON: " + error.what());
  }
  if (!manifest.is_object() || manifest.value("format", "") != kFormat)
    throw Failure("cannot resume from " + directory + ": " + path +
                  " is not an ens-train checkpoint manifest");
  if (manifest.value("version", 0) != kVersion)
    throw Failure("cannot resume from " + directory + ": " + path +
                  " has version " + manifest["version"].dump() +
                  "; this ens-train reads version " + std::to_string(kVersion));
  return manifest;
}

/// "(w1 [64, 32], b1 [32])".
static std::string describeParameters(const json &parameters) {
  std::string text = "(";
  for (size_t i = 0; i < parameters.size(); ++i)
    text += (i ? ", " : "") + parameters[i].at("name").get<std::string>() +
            " " + parameters[i].at("shape").dump();
  return text + ")";
}

TrainState ens_train::readCheckpoint(const std::string &directory,
                                     const json &manifest, const Model &model) {
  auto fail = [&](const std::string &message) -> Failure {
    return Failure("cannot resume from " + directory + ": " + message);
  };
  try {
    json expected = json::array();
    for (size_t i = 0; i < model.params.size(); ++i)
      expected.push_back(
          {{"name", model.paramNames[i]}, {"shape", model.params[i].shape}});
    const json &parameters = manifest.at("parameters");
    bool fits = parameters.is_array() && parameters.size() == expected.size();
    for (size_t i = 0; fits && i < expected.size(); ++i)
      fits = parameters[i].at("shape") == expected[i]["shape"];
    if (!fits)
      throw fail("the checkpoint does not match model " + model.name +
                 ": it holds parameters " + describeParameters(parameters) +
                 " but the model's are " + describeParameters(expected));
    if (manifest.at("x") != json(model.x.shape) ||
        manifest.at("targets") != json(model.targets.shape))
      throw fail("the checkpoint does not match model " + model.name +
                 ": it was trained on x " + manifest.at("x").dump() +
                 " and targets " + manifest.at("targets").dump() +
                 ", the model takes " + json(model.x.shape).dump() + " and " +
                 json(model.targets.shape).dump());

    int64_t members = manifest.at("members").get<int64_t>();
    int64_t step = manifest.at("step").get<int64_t>();
    std::string statePath =
        join(directory, manifest.value("state", "state.npz").c_str());
    std::vector<NamedArray> arrays = readNpz(statePath);
    auto find = [&](const std::string &name,
                    std::vector<int64_t> shape) -> const HostTensor & {
      for (const auto &[arrayName, array] : arrays) {
        if (arrayName != name)
          continue;
        DType dtype = name == "step" ? DType::I32 : DType::F32;
        if (array.dtype != dtype || (!shape.empty() && shape[0] >= 0 &&
                                     llvm::ArrayRef<int64_t>(array.shape) !=
                                         llvm::ArrayRef<int64_t>(shape)))
          throw fail(statePath + " holds '" + name + "' as " +
                     array.getTypeString() + ", expected " +
                     HostTensor(dtype, llvm::ArrayRef<int64_t>(shape))
                         .getTypeString());
        return array;
      }
      throw fail(statePath + " has no array '" + name + "'");
    };
    auto toTensor = [](const HostTensor &array) {
      return ens::Tensor(
          ens::TensorType{
              ens::DType::F32,
              std::vector<int64_t>(array.shape.begin(), array.shape.end())},
          array.values);
    };
    auto toFloats = [](const HostTensor &array) {
      return std::vector<float>(array.values.begin(), array.values.end());
    };

    TrainState state;
    state.step = step;
    for (size_t i = 0; i < model.params.size(); ++i) {
      std::string name = parameters[i].at("name").get<std::string>();
      std::vector<int64_t> shape = stacked(model.params[i], members).shape;
      state.params.push_back(toTensor(find(name, shape)));
      state.m.push_back(toTensor(find("m_" + name, shape)));
      state.v.push_back(toTensor(find("v_" + name, shape)));
    }
    state.learningRates = toFloats(find("lr", {members}));
    state.initialLoss = toFloats(find("initial_loss", {members}));
    const HostTensor &curve = find("loss_curve", {step, 3});
    for (int64_t s = 0; s < step; ++s) {
      state.curveMin.push_back(curve.values[3 * s]);
      state.curveMedian.push_back(curve.values[3 * s + 1]);
      state.curveMax.push_back(curve.values[3 * s + 2]);
    }
    const HostTensor &savedStep = find("step", {});
    if (savedStep.values[0] != static_cast<double>(step))
      throw fail("the checkpoint is inconsistent: state.npz is at step " +
                 std::to_string(static_cast<int64_t>(savedStep.values[0])) +
                 " but manifest.json at step " + std::to_string(step));
    return state;
  } catch (const json::exception &error) {
    throw fail("manifest.json is malformed: " + std::string(error.what()));
  } catch (const Failure &failure) {
    std::string message = failure.what();
    if (message.rfind("cannot resume", 0) == 0)
      throw;
    throw fail(message);
  }
}
