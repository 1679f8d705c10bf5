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

/// A function compiled for the CPU emulation of the CUDA execution model:
/// the same source built by the host compiler, kernels run block by block
/// and thread by thread.
class EmulatedExecutable {
public:
  /// Builds `program`'s source with the host compiler ($ENS_HOST_CXX, else
  /// c++) and loads it. The shared object is cached in the "emu"
  /// subdirectory of `cacheDirectory` (see getCacheDirectory) by a hash of
  /// everything that determines it; a cached object is loaded only after
  /// its checksum, key and owner are verified, and otherwise rebuilt.
  static llvm::Expected<std::unique_ptr<EmulatedExecutable>>
  compile(CudaProgram program, StringRef cacheDirectory = getCacheDirectory());
  ~EmulatedExecutable();

  /// Runs the launch plan on `args`, which must match the signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

  const CudaProgram &getProgram() const { return program; }

private:
  EmulatedExecutable(CudaProgram program, void *library,
                     std::vector<void *> launchers);

  CudaProgram program;
  void *library;
  /// One entry per kernel: void (const unsigned *grid, const unsigned
  /// *block, unsigned sharedBytes, void **params).
  std::vector<void *> launchers;
};

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_EMULATOR_H
