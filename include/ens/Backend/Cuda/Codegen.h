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
/// Loops over members are shared out with `strategy`, or as the
/// performance model picks for each; contractions that are matrix
/// products become vendor GEMM steps as `gemm` says, and the others compute
/// at `precision` where they can (docs/cuda.md, "TF32 tensor cores").
llvm::Expected<CudaProgram> generateCuda(ModuleOp module, StringRef entry,
                                         int64_t maxBufferBytes = 0,
                                         StrategyChoice strategy = {},
                                         GemmChoice gemm = GemmChoice::Auto,
                                         Precision precision = Precision::F32);

/// The same with the strategy, the GEMM choice and the precision by name,
/// as ExecutableOptions holds them (getStrategyNames(),
/// getGemmChoiceNames(), getPrecisionNames(); empty for the default). An
/// unknown name is an error that lists the known ones.
llvm::Expected<CudaProgram> generateCuda(ModuleOp module, StringRef entry,
                                         int64_t maxBufferBytes,
                                         StringRef strategy, StringRef gemm,
                                         StringRef precision);

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_CODEGEN_H
