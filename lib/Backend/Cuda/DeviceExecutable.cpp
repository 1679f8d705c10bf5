//===- DeviceExecutable.cpp - CUDA programs run on a GPU ------------------===//

#include "ens/Backend/Cuda/DeviceExecutable.h"

#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;
namespace rt = ::ens::runtime;

llvm::Error cuda::loadCudaDriver() { return toLlvmError(rt::loadCudaDriver()); }

llvm::Expected<std::unique_ptr<DeviceExecutable>>
DeviceExecutable::compile(CudaProgram program, DeviceOptions options) {
  rt::Expected<std::string> arch = rt::getDeviceArch();
  if (!arch)
    return toLlvmError(arch.takeError());
  llvm::Expected<CompiledCuda> compiled =
      compileWithNvrtc(program.source, "kernels.cu", *arch);
  if (!compiled)
    return compiled.takeError();
  rt::Expected<std::unique_ptr<rt::Runner>> runner =
      rt::createDeviceRunner(program.plan, compiled->cubin, options.useGraph);
  if (!runner)
    return toLlvmError(runner.takeError());
  return std::unique_ptr<DeviceExecutable>(
      new DeviceExecutable(std::move(program), std::move(*runner)));
}

DeviceExecutable::DeviceExecutable(CudaProgram program,
                                   std::unique_ptr<rt::Runner> runner)
    : program(std::move(program)), runner(std::move(runner)) {}

DeviceExecutable::~DeviceExecutable() = default;

llvm::Expected<std::vector<HostTensor>>
DeviceExecutable::run(ArrayRef<HostTensor> args) {
  std::lock_guard<std::mutex> lock(mutex);
  return runOnHostTensors(*runner, program, args);
}
