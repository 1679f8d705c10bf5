//===- Emulator.h - CUDA programs run on the CPU ----------------*- C++ -*-===//
//
// The CPU emulation of the CUDA execution model, which runs the generated
// source unchanged (docs/cuda.md, "Verification without a GPU").
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_EMULATOR_H
#define ENS_BACKEND_CUDA_EMULATOR_H

#include "ens/Backend/Cuda/KernelCache.h"
#include "ens/Backend/Cuda/LaunchPlan.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace mlir::ens::cuda {

/// The host build of `program`'s source: a shared object with one launcher
/// `ens_emu_<kernel>` per kernel, for the runtime's emulated runner
/// (ens::runtime::createEmulatedRunner). It is built with the host compiler
/// ($ENS_HOST_CXX, else c++) and cached in the "emu" subdirectory of
/// `cacheDirectory` (see getCacheDirectory) by a hash of everything that
/// determines it; a cached object is used only after its checksum, key and
/// owner are verified, and otherwise rebuilt.
llvm::Expected<std::string>
buildEmulatorObject(const CudaProgram &program,
                    StringRef cacheDirectory = getCacheDirectory());

/// A function compiled for the CPU emulation of the CUDA execution model:
/// the same source built for the host, kernels run block by block and
/// thread by thread by the runtime's emulated runner.
class EmulatedExecutable {
public:
  /// Builds `program` (buildEmulatorObject) and loads it.
  static llvm::Expected<std::unique_ptr<EmulatedExecutable>>
  compile(CudaProgram program, StringRef cacheDirectory = getCacheDirectory());
  ~EmulatedExecutable();

  /// Runs the launch plan on `args`, which must match the signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

  const CudaProgram &getProgram() const { return program; }

private:
  EmulatedExecutable(CudaProgram program,
                     std::unique_ptr<::ens::runtime::Runner> runner);

  CudaProgram program;
  std::unique_ptr<::ens::runtime::Runner> runner;
};

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_EMULATOR_H
