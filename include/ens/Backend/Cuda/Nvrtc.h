//===- Nvrtc.h - CUDA source to CUBIN with NVRTC ----------------*- C++ -*-===//
//
// Compiles generated CUDA source with NVRTC, through the process's kernel
// cache (KernelCache.h).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_NVRTC_H
#define ENS_BACKEND_CUDA_NVRTC_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::ens::cuda {

/// Whether this build can compile with NVRTC.
bool isNvrtcAvailable();

/// Where compiled kernels came from.
enum class CacheOrigin { Compiled, Memory, Disk };

/// Kernels compiled by NVRTC for one architecture.
struct CompiledCuda {
  std::string arch;
  /// CUBIN for a real architecture (sm_90); PTX for a virtual one
  /// (compute_90), which the driver compiles for the device it finds.
  std::string image;
  /// NVRTC's log, with ptxas's register and spill lines for each kernel.
  std::string log;
  CacheOrigin origin = CacheOrigin::Compiled;
};

/// Compiles `source` (named `name` in messages) to CUBIN for `arch`
/// ("sm_90"), or to PTX for a virtual architecture ("compute_90"), through the
/// process's kernel cache. A failure carries the name and NVRTC's log.
llvm::Expected<CompiledCuda> compileWithNvrtc(StringRef source, StringRef name,
                                              StringRef arch);

/// Compiles hand-written `source` for `arch` with NVRTC and `options`
/// instead of ens's own (only the toolkit's include directory is added),
/// without the cache: for tools and tests that need other options, such as
/// fused multiply-add on.
llvm::Expected<CompiledCuda>
compileWithNvrtcOptions(StringRef source, StringRef name, StringRef arch,
                        ArrayRef<std::string> options);

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_NVRTC_H
