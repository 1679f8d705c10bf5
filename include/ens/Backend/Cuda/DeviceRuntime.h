//===- DeviceRuntime.h - CUDA programs run on a GPU -------------*- C++ -*-===//
//
// Runs a launch plan on the first GPU of the machine through the CUDA
// Driver API, which is loaded at run time.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_DEVICERUNTIME_H
#define ENS_BACKEND_CUDA_DEVICERUNTIME_H

#include "ens/Backend/Cuda/LaunchPlan.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <vector>

namespace mlir::ens::cuda {

/// Loads and initializes the CUDA driver (once per process). Without a
/// driver or a device, an error that starts "no CUDA device: " and says
/// which ("cannot load libcuda.so.1", "the driver finds no device").
llvm::Error loadCudaDriver();

/// How a function runs on a GPU.
struct DeviceOptions {
  /// Capture the launches of the first call into a CUDA graph and replay
  /// it on every call.
  bool useGraph = false;
};

/// A function compiled for the first GPU of this machine: its launch plan
/// run through the CUDA Driver API, with kernels NVRTC-compiled for the
/// device's architecture. Arguments, results and constants have device
/// allocations of their own and the temporaries one arena, all held as
/// long as the executable; a call copies the arguments in, launches the
/// kernels on the executable's stream (or replays their graph), copies the
/// results out and waits. Calls from several threads take turns.
class DeviceExecutable {
public:
  static llvm::Expected<std::unique_ptr<DeviceExecutable>>
  compile(CudaProgram program, DeviceOptions options = {});
  ~DeviceExecutable();

  /// Runs the launch plan on `args`, which must match the signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

  const CudaProgram &getProgram() const;

private:
  struct Impl;
  explicit DeviceExecutable(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl;
  std::mutex mutex;
};

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_DEVICERUNTIME_H
