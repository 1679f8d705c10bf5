//===- DeviceRunner.cpp - Launch plans on a GPU ---------------------------===//
//
// Runs a launch plan on the first GPU of the machine through the CUDA
// Driver API, and its vendor GEMM steps through cuBLAS, both loaded at run
// time (dlopen), so that nothing of ens links against CUDA.
//
//===----------------------------------------------------------------------===//

#include "Cublas.h"

#include "SharedObject.h"

#include "ens/Runtime/Runner.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <dlfcn.h>
#include <functional>

using namespace ens::runtime;

namespace {
// The Driver API's types and the constants ens uses (cuda.h, CUDA 12/13).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
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
constexpr unsigned CU_EVENT_DEFAULT = 0;

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
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
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
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);

  /// An error for `result` of `call`, or success.
  Error check(CUresult result, const std::string &call) const {
    if (result == CUDA_SUCCESS)
      return Error::success();
    const char *name = nullptr;
    cuGetErrorName(result, &name);
    return Error(call + " failed: " + (name ? name : std::to_string(result)));
  }
};
} // namespace

/// The driver, loaded and initialized once per process.
static Expected<const Driver *> getDriver() {
  static Driver driver;
  static std::string failure = []() -> std::string {
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library)
      return "cannot load libcuda.so.1";
    SymbolBinder binder(library);
    binder.bind(driver.cuInit, "cuInit");
    binder.bind(driver.cuGetErrorName, "cuGetErrorName");
    binder.bind(driver.cuDeviceGetCount, "cuDeviceGetCount");
    binder.bind(driver.cuDeviceGet, "cuDeviceGet");
    binder.bind(driver.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    binder.bind(driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    binder.bind(driver.cuDevicePrimaryCtxRelease,
                "cuDevicePrimaryCtxRelease_v2");
    binder.bind(driver.cuCtxSetCurrent, "cuCtxSetCurrent");
    binder.bind(driver.cuModuleLoadData, "cuModuleLoadData");
    binder.bind(driver.cuModuleUnload, "cuModuleUnload");
    binder.bind(driver.cuModuleGetFunction, "cuModuleGetFunction");
    binder.bind(driver.cuFuncGetAttribute, "cuFuncGetAttribute");
    binder.bind(driver.cuFuncSetAttribute, "cuFuncSetAttribute");
    binder.bind(driver.cuMemAlloc, "cuMemAlloc_v2");
    binder.bind(driver.cuMemFree, "cuMemFree_v2");
    binder.bind(driver.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    binder.bind(driver.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    binder.bind(driver.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
    binder.bind(driver.cuStreamCreate, "cuStreamCreate");
    binder.bind(driver.cuStreamDestroy, "cuStreamDestroy_v2");
    binder.bind(driver.cuStreamSynchronize, "cuStreamSynchronize");
    binder.bind(driver.cuLaunchKernel, "cuLaunchKernel");
    binder.bind(driver.cuStreamBeginCapture, "cuStreamBeginCapture_v2");
    binder.bind(driver.cuStreamEndCapture, "cuStreamEndCapture");
    binder.bind(driver.cuGraphInstantiate, "cuGraphInstantiateWithFlags");
    binder.bind(driver.cuGraphLaunch, "cuGraphLaunch");
    binder.bind(driver.cuGraphExecDestroy, "cuGraphExecDestroy");
    binder.bind(driver.cuGraphDestroy, "cuGraphDestroy");
    binder.bind(driver.cuEventCreate, "cuEventCreate");
    binder.bind(driver.cuEventDestroy, "cuEventDestroy_v2");
    binder.bind(driver.cuEventRecord, "cuEventRecord");
    binder.bind(driver.cuEventSynchronize, "cuEventSynchronize");
    binder.bind(driver.cuEventElapsedTime, "cuEventElapsedTime");
    if (!binder.isComplete())
      return "libcuda.so.1 lacks a Driver API entry point ens needs";
    int count = 0;
    if (driver.cuInit(0) != CUDA_SUCCESS ||
        driver.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
      return "the driver finds no device";
    return "";
  }();
  if (!failure.empty())
    return Error("no CUDA device: " + failure);
  return &driver;
}

Error ens::runtime::loadCudaDriver() {
  Expected<const Driver *> driver = getDriver();
  return driver ? Error::success() : driver.takeError();
}

Expected<int> ens::runtime::getDeviceOrdinal() {
  Expected<const Driver *> driver = getDriver();
  if (!driver)
    return driver.takeError();
  const char *chosen = std::getenv("ENS_CUDA_DEVICE");
  if (!chosen)
    return 0;
  char *end = nullptr;
  errno = 0;
  long ordinal = std::strtol(chosen, &end, 10);
  if (*chosen == '\0' || *end != '\0' || ordinal < 0 || errno == ERANGE)
    return Error("ENS_CUDA_DEVICE=" + std::string(chosen) +
                 " is not a device number (0, 1, ...)");
  int count = 0;
  if (Error failure = (*driver)->check((*driver)->cuDeviceGetCount(&count),
                                       "cuDeviceGetCount"))
    return failure;
  return static_cast<int>(ordinal % count);
}

/// This process's device (getDeviceOrdinal).
static Expected<CUdevice> getDevice(const Driver &d) {
  Expected<int> ordinal = getDeviceOrdinal();
  if (!ordinal)
    return ordinal.takeError();
  CUdevice device = 0;
  if (Error failure = d.check(d.cuDeviceGet(&device, *ordinal), "cuDeviceGet"))
    return failure;
  return device;
}

Expected<std::string> ens::runtime::getDeviceArch() {
  Expected<const Driver *> driver = getDriver();
  if (!driver)
    return driver.takeError();
  const Driver &d = **driver;
  Expected<CUdevice> chosen = getDevice(d);
  if (!chosen)
    return chosen.takeError();
  CUdevice device = *chosen;
  int major = 0, minor = 0;
  for (auto [value, attribute] :
       {std::pair(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
        std::pair(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)})
    if (Error failure =
            d.check(d.cuDeviceGetAttribute(value, attribute, device),
                    "cuDeviceGetAttribute"))
      return failure;
  return "sm_" + std::to_string(major * 10 + minor);
}

namespace {
/// A launch plan loaded on the first GPU.
class DeviceRunner final : public Runner {
public:
  DeviceRunner(const Driver &driver, LaunchPlan plan, bool useGraph)
      : d(driver), plan(std::move(plan)), useGraph(useGraph) {}
  ~DeviceRunner() override;

  /// Loads the kernels of `image` and allocates every buffer.
  Error load(std::string_view image);

  Error runOnHost(const std::vector<const void *> &args,
                  const std::vector<void *> &results) override;
  Error runOnDevice(const std::vector<uint64_t> &args,
                    const std::vector<uint64_t> &results,
                    void *stream) override;
  Expected<std::vector<double>> time(const std::vector<const void *> &args,
                                     const std::vector<void *> &results,
                                     unsigned times) override;

private:
  /// Loads cuBLAS, a handle and its workspace (from `allocate`) if the
  /// plan has vendor GEMM steps.
  Error loadBlas(const std::function<Error(int64_t, CUdeviceptr &)> &allocate);
  Error launchAll(CUstream on);
  /// Launches the plan on `on` with the buffers at `addresses`: replays
  /// the graph captured for them, or captures it, or launches directly.
  Error launch(CUstream on);
  Error copyIn(const std::vector<const void *> &args);
  Error copyOut(const std::vector<void *> &results);
  void dropGraph();

  const Driver &d;
  LaunchPlan plan;
  bool useGraph;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUstream stream = nullptr;
  std::vector<CUfunction> functions;
  /// The device address of each buffer of the plan, and the runner's own.
  std::vector<CUdeviceptr> addresses, ownAddresses;
  std::vector<CUdeviceptr> allocations;
  /// cuBLAS and its handle, for a plan with vendor GEMM steps.
  const Cublas *blas = nullptr;
  Cublas::Handle blasHandle = nullptr;
  CUgraph graph = nullptr;
  CUgraphExec graphExec = nullptr;
  /// The addresses and stream the graph was captured with.
  std::vector<CUdeviceptr> graphAddresses;
  CUstream graphStream = nullptr;
};
} // namespace

DeviceRunner::~DeviceRunner() {
  if (context)
    d.cuCtxSetCurrent(context);
  dropGraph();
  if (blasHandle)
    blas->destroy(blasHandle);
  for (CUdeviceptr allocation : allocations)
    d.cuMemFree(allocation);
  if (stream)
    d.cuStreamDestroy(stream);
  if (module)
    d.cuModuleUnload(module);
  if (context)
    d.cuDevicePrimaryCtxRelease(device);
}

void DeviceRunner::dropGraph() {
  if (graphExec)
    d.cuGraphExecDestroy(graphExec);
  if (graph)
    d.cuGraphDestroy(graph);
  graphExec = nullptr;
  graph = nullptr;
}

Error DeviceRunner::load(std::string_view image) {
  Expected<CUdevice> chosen = getDevice(d);
  if (!chosen)
    return chosen.takeError();
  device = *chosen;
  if (Error failure = d.check(d.cuDevicePrimaryCtxRetain(&context, device),
                              "cuDevicePrimaryCtxRetain"))
    return failure;
  if (Error failure = d.check(d.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return failure;
  // cuModuleLoadData reads PTX up to its terminating null.
  std::string copy(image);
  if (Error failure = d.check(d.cuModuleLoadData(&module, copy.c_str()),
                              "cuModuleLoadData"))
    return failure;
  if (Error mismatch = checkPlanMatchesCode(plan, [&](const std::string &name) {
        CUfunction function;
        return d.cuModuleGetFunction(&function, module, name.c_str()) ==
               CUDA_SUCCESS;
      }))
    return mismatch;
  for (const KernelInfo &kernel : plan.kernels) {
    CUfunction function;
    if (Error failure = d.check(
            d.cuModuleGetFunction(&function, module, kernel.name.c_str()),
            "cuModuleGetFunction(" + kernel.name + ")"))
      return failure;
    functions.push_back(function);
  }
  // Every kernel with dynamic shared memory opts in to what it uses (beyond
  // 48 KiB with its static shared memory, launching needs it), if the
  // device allows that much.
  int optIn = 0;
  if (Error failure = d.check(
          d.cuDeviceGetAttribute(
              &optIn, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
              device),
          "cuDeviceGetAttribute"))
    return failure;
  for (const KernelLaunch &launch : plan.launches) {
    if (launch.sharedBytes == 0)
      continue;
    const std::string &name = plan.kernels[launch.kernel].name;
    CUfunction function = functions[launch.kernel];
    int staticBytes = 0;
    if (Error failure = d.check(
            d.cuFuncGetAttribute(&staticBytes,
                                 CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
            "cuFuncGetAttribute(" + name + ")"))
      return failure;
    if (launch.sharedBytes + static_cast<unsigned>(staticBytes) >
        static_cast<unsigned>(optIn))
      return Error("kernel " + name + " needs " +
                   std::to_string(launch.sharedBytes + staticBytes) +
                   " bytes of shared memory per block; this device allows " +
                   std::to_string(optIn));
    if (Error failure = d.check(
            d.cuFuncSetAttribute(
                function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                static_cast<int>(launch.sharedBytes)),
            "cuFuncSetAttribute(" + name + ")"))
      return failure;
  }
  if (Error failure = d.check(d.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                              "cuStreamCreate"))
    return failure;

  // Device memory for every buffer; temporaries in the arena.
  auto allocate = [&](int64_t bytes, CUdeviceptr &address) -> Error {
    Error failure = d.check(d.cuMemAlloc(&address, std::max<int64_t>(bytes, 1)),
                            "cuMemAlloc");
    if (!failure)
      allocations.push_back(address);
    return failure;
  };
  CUdeviceptr arena = 0;
  if (Error failure = allocate(plan.arenaBytes, arena))
    return failure;
  for (const BufferInfo &buffer : plan.buffers) {
    if (buffer.kind == BufferKind::Temporary) {
      addresses.push_back(arena + buffer.arenaOffset);
      continue;
    }
    CUdeviceptr address = 0;
    if (Error failure = allocate(buffer.bytes, address))
      return failure;
    addresses.push_back(address);
    if (buffer.kind == BufferKind::Constant && buffer.bytes)
      if (Error failure =
              d.check(d.cuMemcpyHtoDAsync(address, buffer.init.data(),
                                          buffer.bytes, stream),
                      "cuMemcpyHtoDAsync"))
        return failure;
  }
  ownAddresses = addresses;
  if (Error failure = loadBlas(allocate))
    return failure;
  return d.check(d.cuStreamSynchronize(stream), "cuStreamSynchronize");
}

Error DeviceRunner::loadBlas(
    const std::function<Error(int64_t, CUdeviceptr &)> &allocate) {
  if (plan.gemms.empty())
    return Error::success();
  Expected<const Cublas *> loaded = getCublas();
  if (!loaded)
    return loaded.takeError();
  blas = *loaded;
  if (Error failure = blas->check(blas->create(&blasHandle), "cublasCreate"))
    return failure;
  // A workspace of its own, so that a call captured into a CUDA graph
  // allocates nothing: the size the cuBLAS documentation recommends for
  // Hopper (4 MiB suffice before it).
  constexpr int64_t kWorkspaceBytes = 32 << 20;
  CUdeviceptr workspace = 0;
  if (Error failure = allocate(kWorkspaceBytes, workspace))
    return failure;
  return blas->check(blas->setWorkspace(blasHandle,
                                        reinterpret_cast<void *>(workspace),
                                        kWorkspaceBytes),
                     "cublasSetWorkspace");
}

Error DeviceRunner::launchAll(CUstream on) {
  auto launchOne = [&](const KernelLaunch &launch) {
    // Arguments as cuLaunchKernel takes them: pointers to the values.
    std::vector<unsigned long long> values;
    for (const KernelArg &arg : launch.args)
      values.push_back(arg.isBuffer
                           ? addresses[arg.value]
                           : static_cast<unsigned long long>(arg.value));
    std::vector<void *> params;
    for (unsigned long long &value : values)
      params.push_back(&value);
    return d.check(d.cuLaunchKernel(functions[launch.kernel], launch.grid[0],
                                    launch.grid[1], launch.grid[2],
                                    launch.block[0], launch.block[1],
                                    launch.block[2], launch.sharedBytes, on,
                                    params.data(), nullptr),
                   "cuLaunchKernel(" + plan.kernels[launch.kernel].name + ")");
  };
  auto gemmOne = [&](const GemmStep &gemm) {
    return blas->gemm(blasHandle, on, gemm, addresses[gemm.a.buffer],
                      addresses[gemm.b.buffer], addresses[gemm.c.buffer]);
  };
  return runSteps(plan, launchOne, gemmOne);
}

Error DeviceRunner::launch(CUstream on) {
  if (!useGraph)
    return launchAll(on);
  // A graph holds the addresses it was captured with: it is replayed while
  // they stay the same, and captured again when they move.
  if (graphExec && (graphAddresses != addresses || graphStream != on))
    dropGraph();
  if (!graphExec) {
    if (Error failure = d.check(
            d.cuStreamBeginCapture(on, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
            "cuStreamBeginCapture"))
      return failure;
    Error launched = launchAll(on);
    CUresult ended = d.cuStreamEndCapture(on, &graph);
    if (!launched && ended == CUDA_SUCCESS)
      launched = d.check(d.cuGraphInstantiate(&graphExec, graph, 0),
                         "cuGraphInstantiateWithFlags");
    else if (!launched)
      launched = d.check(ended, "cuStreamEndCapture");
    if (launched) {
      if (ended != CUDA_SUCCESS)
        graph = nullptr;
      dropGraph();
      return launched;
    }
    graphAddresses = addresses;
    graphStream = on;
  }
  return d.check(d.cuGraphLaunch(graphExec, on), "cuGraphLaunch");
}

Error DeviceRunner::copyIn(const std::vector<const void *> &args) {
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const BufferInfo &buffer = plan.buffers[i];
    if (buffer.kind == BufferKind::Input && buffer.bytes)
      if (Error failure =
              d.check(d.cuMemcpyHtoDAsync(addresses[i], args[buffer.index],
                                          buffer.bytes, stream),
                      "cuMemcpyHtoDAsync"))
        return failure;
  }
  return Error::success();
}

Error DeviceRunner::copyOut(const std::vector<void *> &results) {
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const BufferInfo &buffer = plan.buffers[i];
    if (buffer.kind == BufferKind::Output && buffer.bytes)
      if (Error failure =
              d.check(d.cuMemcpyDtoHAsync(results[buffer.index], addresses[i],
                                          buffer.bytes, stream),
                      "cuMemcpyDtoHAsync"))
        return failure;
  }
  return d.check(d.cuStreamSynchronize(stream), "cuStreamSynchronize");
}

Error DeviceRunner::runOnHost(const std::vector<const void *> &args,
                              const std::vector<void *> &results) {
  if (Error failure = d.check(d.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return failure;
  addresses = ownAddresses;
  if (Error failure = copyIn(args))
    return failure;
  if (Error failure = launch(stream))
    return failure;
  return copyOut(results);
}

Error DeviceRunner::runOnDevice(const std::vector<uint64_t> &args,
                                const std::vector<uint64_t> &results,
                                void *callerStream) {
  if (Error failure = d.check(d.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return failure;
  CUstream on = callerStream ? static_cast<CUstream>(callerStream) : stream;
  addresses = ownAddresses;
  // The kernels take every buffer to be 16-byte aligned (ENS_ALIGNED16 in
  // their prelude): a caller's tensor that is not goes through the
  // runner's own buffer, copied in before the launches and out after.
  auto aligned = [](uint64_t address) { return address % 16 == 0; };
  std::vector<size_t> copiedOut;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const BufferInfo &buffer = plan.buffers[i];
    if (buffer.kind == BufferKind::Input) {
      if (aligned(args[buffer.index]))
        addresses[i] = args[buffer.index];
      else if (buffer.bytes)
        if (Error failure =
                d.check(d.cuMemcpyDtoDAsync(addresses[i], args[buffer.index],
                                            buffer.bytes, on),
                        "cuMemcpyDtoDAsync"))
          return failure;
    }
    if (buffer.kind == BufferKind::Output) {
      if (aligned(results[buffer.index]))
        addresses[i] = results[buffer.index];
      else
        copiedOut.push_back(i);
    }
  }
  if (Error failure = launch(on))
    return failure;
  for (size_t i : copiedOut)
    if (plan.buffers[i].bytes)
      if (Error failure = d.check(
              d.cuMemcpyDtoDAsync(results[plan.buffers[i].index], addresses[i],
                                  plan.buffers[i].bytes, on),
              "cuMemcpyDtoDAsync"))
        return failure;
  return d.check(d.cuStreamSynchronize(on), "cuStreamSynchronize");
}

Expected<std::vector<double>>
DeviceRunner::time(const std::vector<const void *> &args,
                   const std::vector<void *> &results, unsigned times) {
  if (Error failure = runOnHost(args, results))
    return failure;
  CUevent start = nullptr, stop = nullptr;
  Error failure =
      d.check(d.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  if (!failure)
    failure =
        d.check(d.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  std::vector<double> seconds;
  // The inputs stay on the device from the untimed call: each timed call
  // is the plan's launches alone, as a framework's step on device tensors.
  for (unsigned i = 0; i < times && !failure; ++i) {
    float milliseconds = 0;
    failure = d.check(d.cuEventRecord(start, stream), "cuEventRecord");
    if (!failure)
      failure = launch(stream);
    if (!failure)
      failure = d.check(d.cuEventRecord(stop, stream), "cuEventRecord");
    if (!failure)
      failure = d.check(d.cuEventSynchronize(stop), "cuEventSynchronize");
    if (!failure)
      failure = d.check(d.cuEventElapsedTime(&milliseconds, start, stop),
                        "cuEventElapsedTime");
    seconds.push_back(milliseconds * 1e-3);
  }
  if (start)
    d.cuEventDestroy(start);
  if (stop)
    d.cuEventDestroy(stop);
  if (failure)
    return failure;
  if (Error copied = copyOut(results))
    return copied;
  return seconds;
}

Expected<std::unique_ptr<Runner>>
ens::runtime::createDeviceRunner(LaunchPlan plan, std::string_view image,
                                 bool useGraph) {
  if (Error wrong = verifyGemmSteps(plan))
    return wrong;
  Expected<const Driver *> driver = getDriver();
  if (!driver)
    return driver.takeError();
  auto runner =
      std::make_unique<DeviceRunner>(**driver, std::move(plan), useGraph);
  if (Error failure = runner->load(image))
    return failure;
  return std::unique_ptr<Runner>(std::move(runner));
}
