//===- Runner.h - The executors of compiled ens code ------------*- C++ -*-===//
//
// A runner executes one compiled function: a launch plan on a GPU, a
// launch plan through the CPU emulation of CUDA, or CPU code. The runtime's
// Program runs artifacts through them, and the compiler's executables run
// what they have just compiled through the same runners, so that a program
// runs the same way whether or not it went through a file.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_RUNNER_H
#define ENS_RUNTIME_RUNNER_H

#include "ens/Runtime/Error.h"
#include "ens/Runtime/Plan.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ens::runtime {

/// The symbol an emulated object defines for the launchers' ABI it has:
/// const char *(const unsigned *grid, const unsigned *block, unsigned
/// sharedBytes, void **params), returning what stopped the launch or null.
inline constexpr const char *kEmulatorAbiSymbol = "ens_emu_abi_2";

/// Runs one compiled function. Not thread-safe: callers take turns.
class Runner {
public:
  virtual ~Runner();

  /// Runs on host memory: `args[i]` holds argument i and `results[i]`
  /// receives result i, dense and row-major, of the types the runner was
  /// made for (checked by the caller).
  virtual Error runOnHost(const std::vector<const void *> &args,
                          const std::vector<void *> &results) = 0;

  /// Runs on device memory (CUdeviceptr values) on `stream`, for runners
  /// of a GPU; others say that they run on host memory.
  virtual Error runOnDevice(const std::vector<uint64_t> &args,
                            const std::vector<uint64_t> &results, void *stream);

  /// Runs once untimed, then `times` more, and gives each timed call's
  /// seconds; by default the wall clock around runOnHost.
  virtual Expected<std::vector<double>>
  time(const std::vector<const void *> &args,
       const std::vector<void *> &results, unsigned times);
};

/// Loads and initializes the CUDA driver (once per process). Without a
/// driver or a device, an error that starts "no CUDA device: " and says
/// which ("cannot load libcuda.so.1", "the driver finds no device").
Error loadCudaDriver();

/// Loads cuBLAS (once per process), which runs a plan's vendor GEMM steps
/// (GemmStep) on a GPU: $ENS_CUBLAS_LIBRARY if set, else the first of
/// libcublas.so.13, .so.12 and .so that loads. Without it, an error that
/// says the plan calls cuBLAS and names the libraries tried.
Error loadCublas();

/// The GPU that this process uses: device ENS_CUDA_DEVICE modulo the
/// number of devices the driver sees (after CUDA_VISIBLE_DEVICES), device
/// 0 without it. ens-train under mpirun sets it to each process's rank on
/// its machine, so that the processes share the machine's GPUs out. A
/// value that is not a number >= 0 is an error.
Expected<int> getDeviceOrdinal();

/// The architecture of this process's GPU, as "sm_90".
Expected<std::string> getDeviceArch();

/// Runs `plan` on this process's GPU with the kernels of `image`, a CUBIN for
/// its architecture or PTX for the driver to compile. Every buffer has a
/// device allocation held as long as the runner; a call on host memory
/// copies in, launches on the runner's stream and copies out. With
/// `useGraph`, the launches are captured into a CUDA graph on the first
/// call and replayed while the buffers stay where they were. A plan with
/// vendor GEMM steps runs them through cuBLAS (loadCublas) on the same
/// stream, in order with the launches, and in the graph if there is one.
Expected<std::unique_ptr<Runner>>
createDeviceRunner(LaunchPlan plan, std::string_view image, bool useGraph);

/// An error when `plan` launches more threads in all than the emulator
/// runs in one call (2^26: it runs them one after another, so this bounds
/// a call to seconds).
Error checkEmulatedWork(const LaunchPlan &plan);

/// Runs `plan` through the CPU emulation of the CUDA execution model with
/// the kernels of `object`: the plan's CUDA source built for the host as a
/// shared object, with one launcher `ens_emu_<kernel>` per kernel (see
/// lib/Backend/Cuda/Emulator.cpp) and the symbol kEmulatorAbiSymbol. The
/// object is loaded from memory, never from a path another process could
/// change; one without that symbol (built by another version of ens, whose
/// launchers may return nothing) is refused.
Expected<std::unique_ptr<Runner>> createEmulatedRunner(LaunchPlan plan,
                                                       std::string_view object);

/// Runs the CPU code of `object`, a shared object for the host built by
/// mlir::ens::cpu::compileCpuObject (whose documentation gives its ABI),
/// whose entry takes and gives tensors as `signature` says. The object is
/// loaded from memory, as the emulator's is, and allocates its temporary
/// buffers through the runtime's buffer cache.
Expected<std::unique_ptr<Runner>> createCpuRunner(const Signature &signature,
                                                  std::string_view object);

/// The x86 features whose presence the runtime can check on the host, of
/// those CPU code may be compiled for: "avx2", "avx512f", ...
const std::vector<std::string> &getCheckableCpuFeatures();

/// An error naming the first of `features` (comma-separated, as an
/// artifact records them) that this CPU lacks; features the runtime
/// cannot check are assumed present.
Error checkCpuFeatures(const std::string &features);

} // namespace ens::runtime

#endif // ENS_RUNTIME_RUNNER_H
