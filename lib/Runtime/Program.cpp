//===- Program.cpp - Running exported ens programs ------------------------===//
//
// Loads an artifact onto the runner of a backend, and checks every call's
// tensors against the signature before the runner sees them.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Program.h"

#include "ens/Runtime/DLPack.h"
#include "ens/Runtime/Overlap.h"
#include "ens/Runtime/Runner.h"

#include <algorithm>

using namespace ens::runtime;

const char *ens::runtime::getBackendName(Backend backend) {
  switch (backend) {
  case Backend::Cpu:
    return "cpu";
  case Backend::Cuda:
    return "cuda";
  case Backend::CudaEmu:
    return "cuda-emu";
  }
  return "?";
}

std::optional<Backend> ens::runtime::parseBackendName(std::string_view name) {
  for (Backend backend : {Backend::Cpu, Backend::Cuda, Backend::CudaEmu})
    if (name == getBackendName(backend))
      return backend;
  return std::nullopt;
}

/// The runner of a cuda artifact on the first GPU: the CUBIN for its
/// architecture, else the newest PTX no newer than it, for the driver to
/// compile.
static Expected<std::unique_ptr<Runner>> loadOnDevice(const Artifact &artifact,
                                                      bool useGraph) {
  Expected<std::string> arch = getDeviceArch();
  if (!arch)
    return arch.takeError();
  if (const std::string *cubin = artifact.findSection(section::cubin(*arch)))
    return createDeviceRunner(artifact.plan, *cubin, useGraph);
  int device = std::stoi(arch->substr(3));
  const std::string *best = nullptr;
  int bestArch = 0;
  for (const auto &[name, bytes] : artifact.sections) {
    int version = 0;
    if (std::sscanf(name.c_str(), "compute_%d.ptx", &version) == 1 &&
        name == section::ptx("compute_" + std::to_string(version)) &&
        version <= device && version > bestArch) {
      best = &bytes;
      bestArch = version;
    }
  }
  if (!best)
    return Error("the artifact has no CUBIN for this GPU (" + *arch +
                 ") and no PTX it can compile; export it with --arch=" + *arch);
  return createDeviceRunner(artifact.plan, *best, useGraph);
}

Expected<std::unique_ptr<Program>>
Program::load(Artifact artifact, Backend backend, const LoadOptions &options) {
  bool cuda = artifact.target == ArtifactTarget::Cuda;
  if (cuda == (backend == Backend::Cpu))
    return Error(std::string("a ") + getArtifactTargetName(artifact.target) +
                 " artifact cannot run on the " + getBackendName(backend) +
                 " backend (" + (cuda ? "use cuda or cuda-emu" : "use cpu") +
                 ")");
  Expected<std::unique_ptr<Runner>> runner = Error::success();
  switch (backend) {
  case Backend::Cuda:
    runner = loadOnDevice(artifact, options.useGraph);
    break;
  case Backend::CudaEmu: {
    const std::string *object = artifact.findSection(section::kEmulatorObject);
    if (!object)
      return Error("the artifact has no emulator section; export it with "
                   "--emulator to run it on cuda-emu");
    runner = createEmulatedRunner(artifact.plan, *object);
    break;
  }
  case Backend::Cpu: {
    const std::string *object = artifact.findSection(section::kCpuObject);
    if (!object)
      return Error("the artifact has no CPU code");
    auto features = artifact.options.find("cpu-features");
    if (features != artifact.options.end())
      if (Error missing = checkCpuFeatures(features->second))
        return missing;
    runner = createCpuRunner(artifact.signature, *object);
    break;
  }
  }
  if (!runner)
    return runner.takeError();
  return std::unique_ptr<Program>(
      new Program(std::move(artifact), backend, std::move(*runner)));
}

Program::Program(Artifact artifact, Backend backend,
                 std::unique_ptr<Runner> runner)
    : artifact(std::move(artifact)), backend(backend),
      runner(std::move(runner)) {}

Program::~Program() = default;

/// An error unless `args` and `results` have the signature's counts.
static Error checkCounts(const Signature &signature, size_t args,
                         size_t results) {
  if (args != signature.args.size() || results != signature.results.size())
    return Error("the program takes " + std::to_string(signature.args.size()) +
                 " arguments and gives " +
                 std::to_string(signature.results.size()) +
                 " results; the call passes " + std::to_string(args) + " and " +
                 std::to_string(results));
  return Error::success();
}

Error Program::runOnHost(const std::vector<const void *> &args,
                         const std::vector<void *> &results) {
  if (Error failure = checkCounts(getSignature(), args.size(), results.size()))
    return failure;
  std::lock_guard<std::mutex> lock(mutex);
  return runner->runOnHost(args, results);
}

Expected<std::vector<double>>
Program::time(const std::vector<const void *> &args,
              const std::vector<void *> &results, unsigned times) {
  if (Error failure = checkCounts(getSignature(), args.size(), results.size()))
    return failure;
  std::lock_guard<std::mutex> lock(mutex);
  return runner->time(args, results, times);
}

//===----------------------------------------------------------------------===//
// DLPack
//===----------------------------------------------------------------------===//

namespace {
/// A checked view of a caller's tensor.
struct TensorView {
  char *data;
  int64_t bytes;
  bool onDevice;
};
} // namespace

/// Checks `tensor` against `spec`: its dtype, shape, layout and device.
static Expected<TensorView> viewTensor(const DLTensor *tensor,
                                       const TensorSpec &spec,
                                       const std::string &name,
                                       Backend backend) {
  if (!tensor)
    return Error(name + " is null");
  bool onDevice = tensor->device.device_type == kDLCUDA;
  if (tensor->device.device_type != kDLCPU &&
      !(onDevice && backend == Backend::Cuda))
    return Error(name + " is on DLPack device " +
                 std::to_string(tensor->device.device_type) + "; the " +
                 getBackendName(backend) + " backend takes " +
                 (backend == Backend::Cuda ? "kDLCPU or kDLCUDA" : "kDLCPU") +
                 " tensors");
  std::optional<DType> dtype = getDTypeOfDLPack(tensor->dtype);
  std::vector<int64_t> shape;
  if (tensor->ndim >= 0 && tensor->shape)
    shape.assign(tensor->shape, tensor->shape + tensor->ndim);
  if (!dtype || *dtype != spec.dtype || shape != spec.shape)
    return Error(name + " is not a " + spec.getTypeString());
  if (!isCompactRowMajor(*tensor))
    return Error(name + " is strided; ens needs compact row-major tensors "
                        "(make it contiguous first)");
  int64_t bytes = *getDenseBytes(spec.dtype, spec.shape);
  if (!tensor->data && bytes)
    return Error(name + " has no data");
  return TensorView{static_cast<char *>(tensor->data) + tensor->byte_offset,
                    bytes, onDevice};
}

Error Program::run(const std::vector<const DLTensor *> &args,
                   const std::vector<const DLTensor *> &results, void *stream) {
  const Signature &signature = getSignature();
  if (Error failure = checkCounts(signature, args.size(), results.size()))
    return failure;
  std::vector<TensorView> views;
  for (size_t i = 0; i < args.size() + results.size(); ++i) {
    bool isArg = i < args.size();
    size_t index = isArg ? i : i - args.size();
    Expected<TensorView> view = viewTensor(
        isArg ? args[i] : results[index],
        isArg ? signature.args[index] : signature.results[index],
        (isArg ? "argument " : "result ") + std::to_string(index), backend);
    if (!view)
      return view.takeError();
    views.push_back(*view);
  }
  // A result must not overlap any other tensor of the call.
  std::vector<ByteRange> ranges;
  for (const TensorView &view : views) {
    auto begin = reinterpret_cast<uintptr_t>(view.data);
    ranges.push_back({begin, begin + static_cast<uintptr_t>(view.bytes),
                      view.onDevice ? 1 : 0});
  }
  if (auto overlap = findResultOverlap(ranges, args.size())) {
    auto [r, o] = *overlap;
    return Error("result " + std::to_string(r - args.size()) + " overlaps " +
                 (o < args.size()
                      ? "argument " + std::to_string(o)
                      : "result " + std::to_string(o - args.size())));
  }
  bool device =
      std::any_of(views.begin(), views.end(),
                  [](const TensorView &view) { return view.onDevice; });
  bool host =
      std::any_of(views.begin(), views.end(),
                  [](const TensorView &view) { return !view.onDevice; });
  if (device && host)
    return Error("the call mixes host and device tensors; pass all of them "
                 "on one");
  std::lock_guard<std::mutex> lock(mutex);
  if (device) {
    std::vector<uint64_t> in, out;
    for (size_t i = 0; i < views.size(); ++i)
      (i < args.size() ? in : out)
          .push_back(reinterpret_cast<uint64_t>(views[i].data));
    return runner->runOnDevice(in, out, stream);
  }
  std::vector<const void *> in;
  std::vector<void *> out;
  for (size_t i = 0; i < views.size(); ++i) {
    if (i < args.size())
      in.push_back(views[i].data);
    else
      out.push_back(views[i].data);
  }
  return runner->runOnHost(in, out);
}
