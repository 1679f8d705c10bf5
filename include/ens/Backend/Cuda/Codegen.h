//===- Codegen.h - ens functions as CUDA kernels and a plan -----*- C++ -*-===//
//
// The entry point of the CUDA backend's code generation: one function of an
// ens module as CUDA C++ kernels (a kernel for each loop over the members of
// an ensemble, a grid-wide kernel for each other op) and the launch plan
// that runs them.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_CODEGEN_H
#define ENS_BACKEND_CUDA_CODEGEN_H

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Backend/Cuda/LaunchPlan.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace mlir::ens::cuda {

/// Generates CUDA source for the function `entry` of `module`, which is left
/// unchanged. The context must have the CPU backend's dialects registered
/// (registerCpuBackendDialects). An op the generator cannot handle yet is
/// reported as an error that names it, and so is a buffer, or a whole
/// plan, larger than `maxBufferBytes` (0: getDefaultMaxBufferBytes()).
/// `options` say how loops over members are shared out (or the
/// performance model picks for each), whether contractions that are matrix
/// products become vendor GEMM steps, and at what precision the others
/// compute where they can (docs/cuda.md, "TF32 tensor cores").
llvm::Expected<CudaProgram>
generateCuda(ModuleOp module, StringRef entry, int64_t maxBufferBytes = 0,
             const CodegenOptions &options = CodegenOptions());

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_CODEGEN_H
