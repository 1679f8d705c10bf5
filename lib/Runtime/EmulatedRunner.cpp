//===- EmulatedRunner.cpp - Launch plans on the CPU emulation of CUDA -----===//
//
// Runs a launch plan with the host build of its CUDA source: the buffers
// in host memory laid out as on a device, each launch through the
// object's launcher for its kernel (lib/Backend/Cuda/Emulator.cpp builds
// the object; docs/cuda.md, "Verification without a GPU").
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Runner.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

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

/// An error "<what>: <strerror(errno)>".
static Error errnoError(const std::string &what) {
  return Error(what + ": " + std::strerror(errno));
}

/// Loads the shared object whose bytes are `bytes`.
///
/// dlopen takes a path and resolves it when it opens it, so a file checked
/// a moment before could be another file by then. The verified bytes are
/// therefore copied into an anonymous memory file (memfd_create) that no
/// other process can name, sealed against writes and size changes (a
/// truncation under a mapped object is a SIGBUS), and loaded through
/// /proc/self/fd/N.
///
/// glibc recognizes an object already loaded by the name given to dlopen
/// before it opens anything. An earlier object loaded through the same
/// /proc/self/fd/N stays loaded after dlclose when it registered
/// thread-local destructors (the emulation header does), and dlopen would
/// return that object in place of this one. A name that is taken is
/// therefore skipped by moving to a higher descriptor number.
static Expected<void *> loadObject(std::string_view bytes) {
  int memfd = ::memfd_create("ens-cuda-emu", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (memfd < 0)
    return errnoError("cannot create a memory file for the emulated kernels");
  int fd = memfd;
  struct CloseAll {
    int &fd, &memfd;
    ~CloseAll() {
      if (fd != memfd)
        ::close(fd);
      ::close(memfd);
    }
  } closeAll{fd, memfd};
  for (size_t done = 0; done < bytes.size();) {
    ssize_t written = ::write(memfd, bytes.data() + done, bytes.size() - done);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return errnoError("cannot copy the emulated kernels to memory");
    done += static_cast<size_t>(written);
  }
  if (::fcntl(memfd, F_ADD_SEALS,
              F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
    return errnoError("cannot seal the emulated kernels");
  std::string name;
  while (true) {
    name = "/proc/self/fd/" + std::to_string(fd);
    void *loaded = ::dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!loaded)
      break;
    ::dlclose(loaded);
    int next = ::fcntl(memfd, F_DUPFD_CLOEXEC, fd + 1);
    if (next < 0)
      return errnoError("cannot load the emulated kernels");
    if (fd != memfd)
      ::close(fd);
    fd = next;
  }
  void *handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return Error(std::string("cannot load the emulated kernels: ") +
                 ::dlerror());
  return handle;
}

namespace {
/// A launcher of the emulated object: void (const unsigned *grid, const
/// unsigned *block, unsigned sharedBytes, void **params).
using Launcher = void (*)(const unsigned *, const unsigned *, unsigned,
                          void **);

/// A launch plan with its kernels built for the host.
class EmulatedRunner final : public Runner {
public:
  EmulatedRunner(LaunchPlan plan, void *library,
                 std::vector<Launcher> launchers)
      : plan(std::move(plan)), library(library),
        launchers(std::move(launchers)) {}
  ~EmulatedRunner() override { ::dlclose(library); }

  Error runOnHost(const std::vector<const void *> &args,
                  const std::vector<void *> &results) override;

private:
  LaunchPlan plan;
  void *library;
  std::vector<Launcher> launchers;
};
} // namespace

Error EmulatedRunner::runOnHost(const std::vector<const void *> &args,
                                const std::vector<void *> &results) {
  // 8-byte aligned storage for every buffer; temporaries in one arena at
  // the offsets the plan gives them, as on a device.
  std::vector<std::vector<uint64_t>> storage;
  std::vector<uint64_t> arena(plan.arenaBytes / 8 + 1, 0);
  std::vector<uint8_t *> data;
  for (const BufferInfo &buffer : plan.buffers) {
    if (buffer.kind == BufferKind::Temporary) {
      data.push_back(reinterpret_cast<uint8_t *>(arena.data()) +
                     buffer.arenaOffset);
      continue;
    }
    storage.emplace_back((buffer.bytes + 7) / 8 + 1, 0);
    auto *bytes = reinterpret_cast<uint8_t *>(storage.back().data());
    data.push_back(bytes);
    if (buffer.kind == BufferKind::Constant)
      std::memcpy(bytes, buffer.init.data(), buffer.bytes);
    if (buffer.kind == BufferKind::Input && buffer.bytes)
      std::memcpy(bytes, args[buffer.index], buffer.bytes);
  }
  for (const KernelLaunch &launch : plan.launches) {
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
    launchers[launch.kernel](launch.grid.data(), launch.block.data(),
                             launch.sharedBytes, params.data());
  }
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
  Expected<void *> handle = loadObject(object);
  if (!handle)
    return handle.takeError();
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
