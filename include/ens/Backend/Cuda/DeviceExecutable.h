//===- DeviceExecutable.h - CUDA programs run on a GPU ----------*- C++ -*-===//
//
// A CUDA program compiled by NVRTC for the first GPU and run by the
// runtime's device runner (ens/Runtime/Runner.h).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_DEVICEEXECUTABLE_H
#define ENS_BACKEND_CUDA_DEVICEEXECUTABLE_H

#include "ens/Backend/Cuda/LaunchPlan.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <vector>

namespace mlir::ens::cuda {

/// Loads and initializes the CUDA driver (once per process); see
/// ens::runtime::loadCudaDriver.
llvm::Error loadCudaDriver();

/// How a function runs on a GPU.
struct DeviceOptions {
  /// Capture the launches of the first call into a CUDA graph and replay
  /// it on every call.
  bool useGraph = false;
};

/// A function compiled for the first GPU of this machine: its kernels
/// NVRTC-compiled for the device's architecture, its launch plan run by
/// the runtime's device runner. Calls from several threads take turns.
class DeviceExecutable {
public:
  static llvm::Expected<std::unique_ptr<DeviceExecutable>>
  compile(CudaProgram program, DeviceOptions options = {});
  ~DeviceExecutable();

  /// Runs the launch plan on `args`, which must match the signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

  const CudaProgram &getProgram() const { return program; }

private:
  DeviceExecutable(CudaProgram program,
                   std::unique_ptr<::ens::runtime::Runner> runner);

  CudaProgram program;
  std::unique_ptr<::ens::runtime::Runner> runner;
  std::mutex mutex;
};

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_DEVICEEXECUTABLE_H
