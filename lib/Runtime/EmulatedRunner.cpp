//===- EmulatedRunner.cpp - Launch plans on the CPU emulation of CUDA -----===//
//
// Runs a launch plan with the host build of its CUDA source: the buffers
// in host memory laid out as on a device, each launch through the
// object's launcher for its kernel (lib/Backend/Cuda/Emulator.cpp builds
// the object; docs/cuda.md, "Verification without a GPU"), and each vendor
// GEMM step through the host GEMM (Gemm.cpp).
//
//===----------------------------------------------------------------------===//

#include "SharedObject.h"

#include "ens/Runtime/Runner.h"

#include <cstring>
#include <dlfcn.h>

using namespace ens::runtime;

/// The most threads the emulator runs in one call, over all launches: each
/// runs on the CPU one after another (some as fibers), at roughly 10-100 ns
/// apiece, so this bounds a call to seconds. The emulator checks programs;
/// it is no way to run large ones.
static constexpr uint64_t kMaxEmulatedThreads = uint64_t(1) << 26;

Error ens::runtime::checkEmulatedWork(const LaunchPlan &plan) {
  uint64_t threads = 0;
  for (const KernelLaunch &launch : plan.launches) {
    uint64_t launched = 1;
    for (const std::array<unsigned, 3> *sizes : {&launch.grid, &launch.block})
      for (unsigned size : *sizes)
        if (__builtin_mul_overflow(launched, uint64_t(size), &launched))
          launched = UINT64_MAX;
    if (__builtin_add_overflow(threads, launched, &threads))
      threads = UINT64_MAX;
  }
  if (threads <= kMaxEmulatedThreads)
    return Error::success();
  return Error("cuda-emu runs at most " + std::to_string(kMaxEmulatedThreads) +
               " threads a call; this plan launches " +
               std::to_string(threads) +
               " (cuda-emu is for checking programs: run large ones with "
               "--backend=cpu or cuda)");
}

namespace {
/// Storage aligned as a device allocation: a buffer is a vector of these,
/// whose bytes are addressed through getBytes (as one array, not the
/// first chunk's).
struct alignas(256) DeviceChunk {
  uint8_t bytes[256] = {};
};

uint8_t *getBytes(std::vector<DeviceChunk> &chunks) {
  return reinterpret_cast<uint8_t *>(chunks.data());
}

/// A launcher of the emulated object: const char *(const unsigned *grid,
/// const unsigned *block, unsigned sharedBytes, void **params), which
/// returns what stopped the launch (a misaligned access), or null.
using Launcher = const char *(*)(const unsigned *, const unsigned *, unsigned,
                                 void **);

/// A launch plan with its kernels built for the host.
class EmulatedRunner final : public Runner {
public:
  EmulatedRunner(LaunchPlan plan, void *library,
                 std::vector<Launcher> launchers)
      : plan(std::move(plan)), library(library),
        launchers(std::move(launchers)) {
    // Constants are set once, before the first call, as on a device
    // (DeviceRunner): a kernel that counts in a buffer of zeros must leave
    // it zero for the next call.
    for (const BufferInfo &buffer : this->plan.buffers) {
      constants.emplace_back();
      if (buffer.kind != BufferKind::Constant)
        continue;
      constants.back().resize(buffer.bytes / sizeof(DeviceChunk) + 1);
      std::memcpy(getBytes(constants.back()), buffer.init.data(), buffer.bytes);
    }
  }
  ~EmulatedRunner() override { ::dlclose(library); }

  Error runOnHost(const std::vector<const void *> &args,
                  const std::vector<void *> &results) override;

private:
  LaunchPlan plan;
  void *library;
  std::vector<Launcher> launchers;
  /// Storage for each constant of the plan (empty for the other buffers),
  /// kept from call to call.
  std::vector<std::vector<DeviceChunk>> constants;
};
} // namespace

Error EmulatedRunner::runOnHost(const std::vector<const void *> &args,
                                const std::vector<void *> &results) {
  // 256-byte aligned storage for every buffer, as cudaMalloc's;
  // temporaries in one arena at the offsets the plan gives them, as on a
  // device.
  std::vector<std::vector<DeviceChunk>> storage;
  std::vector<DeviceChunk> arena(plan.arenaBytes / sizeof(DeviceChunk) + 1);
  std::vector<uint8_t *> data;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const BufferInfo &buffer = plan.buffers[i];
    if (buffer.kind == BufferKind::Temporary) {
      data.push_back(getBytes(arena) + buffer.arenaOffset);
      continue;
    }
    if (buffer.kind == BufferKind::Constant) {
      data.push_back(getBytes(constants[i]));
      continue;
    }
    storage.emplace_back(buffer.bytes / sizeof(DeviceChunk) + 1);
    uint8_t *bytes = getBytes(storage.back());
    data.push_back(bytes);
    if (buffer.kind == BufferKind::Input && buffer.bytes)
      std::memcpy(bytes, args[buffer.index], buffer.bytes);
  }
  auto launchOne = [&](const KernelLaunch &launch) {
    std::vector<int64_t> values;
    for (const KernelArg &arg : launch.args) {
      if (arg.isBuffer) {
        int64_t pointer;
        std::memcpy(&pointer, &data[arg.value], sizeof(pointer));
        values.push_back(pointer);
      } else {
        values.push_back(arg.value);
      }
    }
    std::vector<void *> params;
    for (int64_t &value : values)
      params.push_back(&value);
    // A fault stops the call, as a GPU's sticky error stops the context's
    // later launches.
    if (const char *fault =
            launchers[launch.kernel](launch.grid.data(), launch.block.data(),
                                     launch.sharedBytes, params.data()))
      return Error("kernel " + plan.kernels[launch.kernel].name +
                   " faulted on cuda-emu: " + fault);
    return Error::success();
  };
  // A vendor GEMM step runs as the host GEMM of its BLAS semantics.
  auto gemmOne = [&](const GemmStep &gemm) {
    auto floats = [&](const GemmOperand &x) {
      return reinterpret_cast<float *>(data[x.buffer]);
    };
    runHostGemm(gemm, floats(gemm.a), floats(gemm.b), floats(gemm.c));
    return Error::success();
  };
  if (Error failure = runSteps(plan, launchOne, gemmOne))
    return failure;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const BufferInfo &buffer = plan.buffers[i];
    if (buffer.kind == BufferKind::Output && buffer.bytes)
      std::memcpy(results[buffer.index], data[i], buffer.bytes);
  }
  return Error::success();
}

Expected<std::unique_ptr<Runner>>
ens::runtime::createEmulatedRunner(LaunchPlan plan, std::string_view object) {
  if (Error tooMuch = checkEmulatedWork(plan))
    return tooMuch;
  if (Error wrong = verifyGemmSteps(plan))
    return wrong;
  Expected<void *> handle = loadSharedObject(object, "the emulated kernels");
  if (!handle)
    return handle.takeError();
  // Launchers of another ABI would be called wrong (before version 2 they
  // returned nothing).
  if (!::dlsym(*handle, kEmulatorAbiSymbol)) {
    ::dlclose(*handle);
    return Error("the emulated kernels were built by another version of ens "
                 "(their launchers lack " +
                 std::string(kEmulatorAbiSymbol) +
                 "); export the program again");
  }
  if (Error mismatch = checkPlanMatchesCode(plan, [&](const std::string &name) {
        return ::dlsym(*handle, name.c_str()) != nullptr;
      })) {
    ::dlclose(*handle);
    return mismatch;
  }
  std::vector<Launcher> launchers;
  for (const KernelInfo &kernel : plan.kernels) {
    void *launcher = ::dlsym(*handle, ("ens_emu_" + kernel.name).c_str());
    if (!launcher) {
      ::dlclose(*handle);
      return Error("no kernel " + kernel.name + " in the emulated kernels");
    }
    launchers.push_back(reinterpret_cast<Launcher>(launcher));
  }
  return std::unique_ptr<Runner>(
      new EmulatedRunner(std::move(plan), *handle, std::move(launchers)));
}
