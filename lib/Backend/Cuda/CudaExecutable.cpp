//===- CudaExecutable.cpp - The CUDA backend as an Executable -------------===//
//
// The cuda-emu and cuda targets of compileExecutable: the function's CUDA
// program, optionally written out and checked with NVRTC, run by the CPU
// emulation of the CUDA execution model or on a GPU.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/DeviceExecutable.h"
#include "ens/Backend/Cuda/Emulator.h"
#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Backend/Executable.h"
#include "ens/Runtime/Runner.h"
#include "ens/Support/FileSystem.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;

namespace {
/// `Compiled` is cuda::EmulatedExecutable or cuda::DeviceExecutable.
template <typename Compiled> class CudaAdaptor final : public Executable {
public:
  CudaAdaptor(Target target, std::unique_ptr<Compiled> executable)
      : Executable(target, executable->getProgram().type),
        compiled(std::move(executable)) {}

protected:
  llvm::Expected<std::vector<HostTensor>>
  runOnHost(ArrayRef<HostTensor> args) override {
    return compiled->run(args);
  }

private:
  std::unique_ptr<Compiled> compiled;
};
} // namespace

/// Writes `program` to the dump directory of `options`, if any, and
/// compiles it with NVRTC for the architectures ens supports where the
/// options ask for it.
static llvm::Error dumpAndCheck(const cuda::CudaProgram &program,
                                StringRef entry, Target target,
                                const ExecutableOptions::CudaPart &options) {
  StringRef cudaDump = options.dumpDirectory;
  std::string name = (entry + ".cu").str();
  auto write = [&](StringRef file, StringRef text) {
    std::error_code ec;
    llvm::raw_fd_ostream os((cudaDump + "/" + file).str(), ec);
    os << text;
  };
  if (!cudaDump.empty()) {
    llvm::sys::fs::create_directories(cudaDump);
    write(name, program.source);
    write("plan.txt", cuda::printPlan(program.plan));
  }
  // The emulated kernels must also be CUDA for the architectures ens
  // supports; on a GPU, the runtime compiles for the device's own.
  bool checkArchs = target == Target::CudaEmu && options.checkWithNvrtc &&
                    cuda::isNvrtcAvailable();
  if (!cudaDump.empty() || checkArchs)
    for (StringRef arch : {"sm_80", "sm_90"}) {
      llvm::Expected<cuda::CompiledCuda> compiled =
          cuda::compileWithNvrtc(program.source, name, arch);
      if (!compiled)
        return compiled.takeError();
      if (!cudaDump.empty()) {
        write(("nvrtc-" + arch + ".log").str(), compiled->log);
        write((entry + "." + arch + ".cubin").str(), compiled->image);
      }
    }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Executable>>
mlir::ens::compileCudaExecutable(ModuleOp module, StringRef entry,
                                 Target target,
                                 const ExecutableOptions &options) {
  if (target == Target::Cuda)
    if (llvm::Error failure = cuda::loadCudaDriver())
      return std::move(failure);
  llvm::Expected<cuda::CudaProgram> program = cuda::generateCuda(
      module, entry, options.maxBufferBytes, options.cuda.codegen);
  if (!program)
    return program.takeError();
  // cuBLAS is loaded only for a plan that calls it, and before the device
  // is set up, so that its absence is the error a user sees.
  if (target == Target::Cuda && !program->plan.gemms.empty())
    if (llvm::Error failure = toLlvmError(::ens::runtime::loadCublas()))
      return std::move(failure);
  if (llvm::Error error = dumpAndCheck(*program, entry, target, options.cuda))
    return std::move(error);
  if (target == Target::Cuda) {
    cuda::DeviceOptions deviceOptions;
    deviceOptions.useGraph = options.cuda.useGraph;
    llvm::Expected<std::unique_ptr<cuda::DeviceExecutable>> executable =
        cuda::DeviceExecutable::compile(std::move(*program), deviceOptions);
    if (!executable)
      return executable.takeError();
    return std::make_unique<CudaAdaptor<cuda::DeviceExecutable>>(
        target, std::move(*executable));
  }
  llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> executable =
      cuda::EmulatedExecutable::compile(std::move(*program));
  if (!executable)
    return executable.takeError();
  return std::make_unique<CudaAdaptor<cuda::EmulatedExecutable>>(
      target, std::move(*executable));
}
