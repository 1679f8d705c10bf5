//===- KernelConfigAttr.h - Kernel configs on the IR ------------*- C++ -*-===//
//
// The GPU decisions of a loop over members as IR attributes, which print and
// parse with the IR: `ens-cuda-plan` writes an `ens_cuda.kernel_config`
// dictionary on each scf.forall and `ens_cuda.target` on the module, and
// the kernel emitter reads them back, so that a hand-written config is
// honoured. docs/cuda.md ("The planning pass") lists the fields.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_KERNELCONFIGATTR_H
#define ENS_BACKEND_CUDA_KERNELCONFIGATTR_H

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Backend/Cuda/PerfModel.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace mlir::ens::cuda {

/// The attribute of a loop over members that holds its config.
inline constexpr StringLiteral kKernelConfigAttrName = "ens_cuda.kernel_config";

/// The attribute of a module that names the GPU it is planned for.
inline constexpr StringLiteral kTargetAttrName = "ens_cuda.target";

/// `config` as an `ens_cuda.kernel_config` dictionary.
DictionaryAttr getKernelConfigAttr(MLIRContext *context,
                                   const KernelConfig &config);

/// The decisions written on a loop over members that emission honours:
/// those its `ens_cuda.kernel_config` names, none where it names none.
struct ConfiguredLoop {
  std::optional<Strategy> strategy;
  std::optional<int64_t> membersPerBlock;
};

/// Reads the decisions written on `loop`; an error names a field that is
/// not what the config's fields may be.
llvm::Expected<ConfiguredLoop> readConfiguredLoop(Operation *loop);

/// The GPU that `module`'s `ens_cuda.target` names, or `fallback` if it
/// names none; an error if it names one not in getGpuTargets().
llvm::Expected<const GpuSpec *> readTarget(ModuleOp module,
                                           const GpuSpec &fallback);

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_KERNELCONFIGATTR_H
