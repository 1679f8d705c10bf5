//===- DeviceRuntime.cpp - Launch plans on a GPU through the Driver API ---===//
//
// The only code of the CUDA backend that needs a GPU, kept thin: it runs
// the same launch plan as the emulator. The driver is loaded at run time
// with dlopen, never linked, so that ens builds and runs on machines
// without one; the few entry points it uses are declared here with the
// Driver API's types and looked up by their versioned names.
//
// A DeviceExecutable owns its module, stream and device memory: one
// allocation per argument, result and constant, and one arena for every
// temporary, at the offsets the plan gives them. A call copies the
// arguments in, launches the kernels (or replays the graph they were
// captured into on the first call), copies the results out and waits.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/DeviceRuntime.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Support/TensorTypes.h"

#include "llvm/ADT/STLExtras.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {
// The Driver API's types and the constants ens uses (cuda.h, CUDA 12/13).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;
constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;

/// The driver's entry points.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiate)(CUgraphExec *, CUgraph, unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);

  /// An error for `result` of `call`, or success.
  llvm::Error check(CUresult result, StringRef call) const {
    if (result == CUDA_SUCCESS)
      return llvm::Error::success();
    const char *name = nullptr;
    cuGetErrorName(result, &name);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        call + " failed: " + (name ? name : std::to_string(result)));
  }
};
} // namespace

static llvm::Error noDevice(const Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no CUDA device: " + why);
}

/// The driver, loaded and initialized once per process.
static llvm::Expected<const Driver *> getDriver() {
  static Driver driver;
  static std::string failure = []() -> std::string {
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library)
      return "cannot load libcuda.so.1";
    bool complete = true;
    auto bind = [&](auto &entry, const char *name) {
      entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(
          dlsym(library, name));
      complete &= entry != nullptr;
    };
    bind(driver.cuInit, "cuInit");
    bind(driver.cuGetErrorName, "cuGetErrorName");
    bind(driver.cuDeviceGetCount, "cuDeviceGetCount");
    bind(driver.cuDeviceGet, "cuDeviceGet");
    bind(driver.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    bind(driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(driver.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    bind(driver.cuCtxSetCurrent, "cuCtxSetCurrent");
    bind(driver.cuModuleLoadData, "cuModuleLoadData");
    bind(driver.cuModuleUnload, "cuModuleUnload");
    bind(driver.cuModuleGetFunction, "cuModuleGetFunction");
    bind(driver.cuFuncGetAttribute, "cuFuncGetAttribute");
    bind(driver.cuFuncSetAttribute, "cuFuncSetAttribute");
    bind(driver.cuMemAlloc, "cuMemAlloc_v2");
    bind(driver.cuMemFree, "cuMemFree_v2");
    bind(driver.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    bind(driver.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    bind(driver.cuStreamCreate, "cuStreamCreate");
    bind(driver.cuStreamDestroy, "cuStreamDestroy_v2");
    bind(driver.cuStreamSynchronize, "cuStreamSynchronize");
    bind(driver.cuLaunchKernel, "cuLaunchKernel");
    bind(driver.cuStreamBeginCapture, "cuStreamBeginCapture_v2");
    bind(driver.cuStreamEndCapture, "cuStreamEndCapture");
    bind(driver.cuGraphInstantiate, "cuGraphInstantiateWithFlags");
    bind(driver.cuGraphLaunch, "cuGraphLaunch");
    bind(driver.cuGraphExecDestroy, "cuGraphExecDestroy");
    bind(driver.cuGraphDestroy, "cuGraphDestroy");
    if (!complete)
      return "libcuda.so.1 lacks a Driver API entry point ens needs";
    int count = 0;
    if (driver.cuInit(0) != CUDA_SUCCESS ||
        driver.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
      return "the driver finds no device";
    return "";
  }();
  if (!failure.empty())
    return noDevice(failure);
  return &driver;
}

llvm::Error cuda::loadCudaDriver() {
  llvm::Expected<const Driver *> driver = getDriver();
  return driver ? llvm::Error::success() : driver.takeError();
}

struct DeviceExecutable::Impl {
  const Driver *driver;
  CudaProgram program;
  DeviceOptions options;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUstream stream = nullptr;
  std::vector<CUfunction> functions;
  /// The device address of each buffer of the plan.
  std::vector<CUdeviceptr> addresses;
  std::vector<CUdeviceptr> allocations;
  CUgraph graph = nullptr;
  CUgraphExec graphExec = nullptr;

  llvm::Error load(StringRef arch);
  llvm::Error launchAll();

  ~Impl() {
    if (context)
      driver->cuCtxSetCurrent(context);
    if (graphExec)
      driver->cuGraphExecDestroy(graphExec);
    if (graph)
      driver->cuGraphDestroy(graph);
    for (CUdeviceptr allocation : allocations)
      driver->cuMemFree(allocation);
    if (stream)
      driver->cuStreamDestroy(stream);
    if (module)
      driver->cuModuleUnload(module);
    if (context)
      driver->cuDevicePrimaryCtxRelease(device);
  }
};

llvm::Error DeviceExecutable::Impl::load(StringRef arch) {
  const Driver &d = *driver;
  llvm::Expected<CompiledCuda> compiled =
      compileWithNvrtc(program.source, "kernels.cu", arch);
  if (!compiled)
    return compiled.takeError();
  if (llvm::Error failure =
          d.check(d.cuDevicePrimaryCtxRetain(&context, device),
                  "cuDevicePrimaryCtxRetain"))
    return failure;
  if (llvm::Error failure =
          d.check(d.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return failure;
  if (llvm::Error failure =
          d.check(d.cuModuleLoadData(&module, compiled->cubin.data()),
                  "cuModuleLoadData"))
    return failure;
  for (const KernelInfo &kernel : program.plan.kernels) {
    CUfunction function;
    if (llvm::Error failure = d.check(
            d.cuModuleGetFunction(&function, module, kernel.name.c_str()),
            "cuModuleGetFunction(" + kernel.name + ")"))
      return failure;
    functions.push_back(function);
  }
  // Every kernel with dynamic shared memory opts in to what it uses (beyond
  // 48 KiB with its static shared memory, launching needs it), if the
  // device allows that much.
  int optIn = 0;
  if (llvm::Error failure = d.check(
          d.cuDeviceGetAttribute(
              &optIn, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
              device),
          "cuDeviceGetAttribute"))
    return failure;
  for (const KernelLaunch &launch : program.plan.launches) {
    if (launch.sharedBytes == 0)
      continue;
    const std::string &name = program.plan.kernels[launch.kernel].name;
    CUfunction function = functions[launch.kernel];
    int staticBytes = 0;
    if (llvm::Error failure = d.check(
            d.cuFuncGetAttribute(&staticBytes,
                                 CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
            "cuFuncGetAttribute(" + name + ")"))
      return failure;
    if (launch.sharedBytes + static_cast<unsigned>(staticBytes) >
        static_cast<unsigned>(optIn))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel " + name + " needs " +
              std::to_string(launch.sharedBytes + staticBytes) +
              " bytes of shared memory per block; this device (" + arch.str() +
              ") allows " + std::to_string(optIn));
    if (llvm::Error failure = d.check(
            d.cuFuncSetAttribute(
                function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                static_cast<int>(launch.sharedBytes)),
            "cuFuncSetAttribute(" + name + ")"))
      return failure;
  }
  if (llvm::Error failure = d.check(
          d.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return failure;

  // Device memory for every buffer; temporaries in the arena.
  auto allocate = [&](int64_t bytes) -> llvm::Expected<CUdeviceptr> {
    CUdeviceptr address = 0;
    if (llvm::Error failure = d.check(
            d.cuMemAlloc(&address, std::max<int64_t>(bytes, 1)), "cuMemAlloc"))
      return std::move(failure);
    allocations.push_back(address);
    return address;
  };
  llvm::Expected<CUdeviceptr> arena = allocate(program.plan.arenaBytes);
  if (!arena)
    return arena.takeError();
  for (const BufferInfo &buffer : program.plan.buffers) {
    if (buffer.kind == BufferKind::Temporary) {
      addresses.push_back(*arena + buffer.arenaOffset);
      continue;
    }
    llvm::Expected<CUdeviceptr> address = allocate(buffer.bytes);
    if (!address)
      return address.takeError();
    addresses.push_back(*address);
    if (buffer.kind == BufferKind::Constant && buffer.bytes)
      if (llvm::Error failure =
              d.check(d.cuMemcpyHtoDAsync(*address, buffer.init.data(),
                                          buffer.bytes, stream),
                      "cuMemcpyHtoDAsync"))
        return failure;
  }
  return d.check(d.cuStreamSynchronize(stream), "cuStreamSynchronize");
}

llvm::Error DeviceExecutable::Impl::launchAll() {
  const Driver &d = *driver;
  for (const KernelLaunch &launch : program.plan.launches) {
    // Arguments as cuLaunchKernel takes them: pointers to the values.
    std::vector<unsigned long long> values;
    for (const KernelArg &arg : launch.args)
      values.push_back(arg.isBuffer
                           ? addresses[arg.value]
                           : static_cast<unsigned long long>(arg.value));
    std::vector<void *> params;
    for (unsigned long long &value : values)
      params.push_back(&value);
    if (llvm::Error failure = d.check(
            d.cuLaunchKernel(functions[launch.kernel], launch.grid[0],
                             launch.grid[1], launch.grid[2], launch.block[0],
                             launch.block[1], launch.block[2],
                             launch.sharedBytes, stream, params.data(),
                             nullptr),
            "cuLaunchKernel(" + program.plan.kernels[launch.kernel].name + ")"))
      return failure;
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<DeviceExecutable>>
DeviceExecutable::compile(CudaProgram program, DeviceOptions options) {
  llvm::Expected<const Driver *> driver = getDriver();
  if (!driver)
    return driver.takeError();
  const Driver &d = **driver;
  auto impl = std::make_unique<Impl>();
  impl->driver = *driver;
  impl->program = std::move(program);
  impl->options = options;
  int major = 0, minor = 0;
  if (llvm::Error failure =
          d.check(d.cuDeviceGet(&impl->device, 0), "cuDeviceGet"))
    return std::move(failure);
  if (llvm::Error failure =
          d.check(d.cuDeviceGetAttribute(
                      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                      impl->device),
                  "cuDeviceGetAttribute"))
    return std::move(failure);
  if (llvm::Error failure =
          d.check(d.cuDeviceGetAttribute(
                      &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                      impl->device),
                  "cuDeviceGetAttribute"))
    return std::move(failure);
  if (llvm::Error failure =
          impl->load("sm_" + std::to_string(major * 10 + minor)))
    return std::move(failure);
  return std::unique_ptr<DeviceExecutable>(
      new DeviceExecutable(std::move(impl)));
}

DeviceExecutable::DeviceExecutable(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}

DeviceExecutable::~DeviceExecutable() = default;

const CudaProgram &DeviceExecutable::getProgram() const {
  return impl->program;
}

llvm::Expected<std::vector<HostTensor>>
DeviceExecutable::run(ArrayRef<HostTensor> args) {
  const CudaProgram &program = impl->program;
  if (llvm::Error mismatch = checkArguments(program.type, args))
    return std::move(mismatch);
  const Driver &d = *impl->driver;
  std::lock_guard<std::mutex> lock(mutex);
  if (llvm::Error failure =
          d.check(d.cuCtxSetCurrent(impl->context), "cuCtxSetCurrent"))
    return std::move(failure);
  // Host staging in each buffer's element type; it must outlive the copies.
  std::vector<std::vector<uint8_t>> staging;
  for (auto [i, buffer] : llvm::enumerate(program.plan.buffers)) {
    if (buffer.kind != BufferKind::Input)
      continue;
    staging.emplace_back(buffer.bytes);
    args[buffer.index].storeTo(staging.back().data());
    if (llvm::Error failure = d.check(
            d.cuMemcpyHtoDAsync(impl->addresses[i], staging.back().data(),
                                buffer.bytes, impl->stream),
            "cuMemcpyHtoDAsync"))
      return std::move(failure);
  }
  if (!impl->options.useGraph) {
    if (llvm::Error failure = impl->launchAll())
      return std::move(failure);
  } else {
    // The buffers never move, so the launches captured on the first call
    // are those of every call.
    if (!impl->graphExec) {
      if (llvm::Error failure =
              d.check(d.cuStreamBeginCapture(
                          impl->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                      "cuStreamBeginCapture"))
        return std::move(failure);
      llvm::Error launched = impl->launchAll();
      CUresult ended = d.cuStreamEndCapture(impl->stream, &impl->graph);
      if (!launched && ended == CUDA_SUCCESS)
        launched =
            d.check(d.cuGraphInstantiate(&impl->graphExec, impl->graph, 0),
                    "cuGraphInstantiateWithFlags");
      else if (!launched)
        launched = d.check(ended, "cuStreamEndCapture");
      if (launched) {
        // The next call captures again.
        if (ended == CUDA_SUCCESS && impl->graph)
          d.cuGraphDestroy(impl->graph);
        impl->graph = nullptr;
        impl->graphExec = nullptr;
        return std::move(launched);
      }
    }
    if (llvm::Error failure = d.check(
            d.cuGraphLaunch(impl->graphExec, impl->stream), "cuGraphLaunch"))
      return std::move(failure);
  }
  std::vector<std::vector<uint8_t>> outputs(program.plan.buffers.size());
  for (auto [i, buffer] : llvm::enumerate(program.plan.buffers)) {
    if (buffer.kind != BufferKind::Output)
      continue;
    outputs[i].resize(buffer.bytes);
    if (llvm::Error failure =
            d.check(d.cuMemcpyDtoHAsync(outputs[i].data(), impl->addresses[i],
                                        buffer.bytes, impl->stream),
                    "cuMemcpyDtoHAsync"))
      return std::move(failure);
  }
  if (llvm::Error failure =
          d.check(d.cuStreamSynchronize(impl->stream), "cuStreamSynchronize"))
    return std::move(failure);
  return program.plan.readResults(
      program.type.getNumResults(),
      [&](size_t buffer) { return outputs[buffer].data(); });
}
