//===- PlanPass.cpp - The GPU decisions recorded on the IR ----------------===//
//
// The ens-cuda-plan pass: plans each function for the target GPU that its
// option names and records each loop over members' KernelConfig on the loop
// (ens_cuda.kernel_config) and the target on the module (ens_cuda.target),
// where lit tests check them and emission reads them back.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "ens/Backend/Cuda/KernelConfigAttr.h"
#include "ens/Backend/Cuda/Passes.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cuda-plan"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCUDAPLAN
#include "ens/Backend/Cuda/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {
struct EnsCudaPlanPass
    : public mlir::ens::impl::EnsCudaPlanBase<EnsCudaPlanPass> {
  using EnsCudaPlanBase::EnsCudaPlanBase;

  void runOnOperation() override;

private:
  /// Plans `function` and writes its loops' configs on them.
  LogicalResult plan(func::FuncOp function, const GpuSpec &gpu,
                     const CodegenOptions &options);
};
} // namespace

void EnsCudaPlanPass::runOnOperation() {
  ModuleOp module = getOperation();
  const GpuSpec *gpu = lookupGpuTarget(target);
  if (!gpu) {
    module.emitError() << "unknown GPU target '" << target
                       << "' (known: " << getGpuTargetNames() << ")";
    return signalPassFailure();
  }
  llvm::Expected<CodegenOptions> options =
      parseCodegenOptions(strategy, gemm, precision);
  if (!options) {
    module.emitError() << llvm::toString(options.takeError());
    return signalPassFailure();
  }
  module->setAttr(kTargetAttrName, StringAttr::get(&getContext(), gpu->target));
  for (func::FuncOp function : module.getOps<func::FuncOp>())
    if (!function.isExternal() && failed(plan(function, *gpu, *options)))
      return signalPassFailure();
}

LogicalResult EnsCudaPlanPass::plan(func::FuncOp function, const GpuSpec &gpu,
                                    const CodegenOptions &options) {
  if (!function.getBody().hasOneBlock())
    return function.emitError("the CUDA backend needs a function of one block");
  KernelEmitter emitter(function, /*maxBufferBytes=*/0, options.strategy,
                        options.gemm, options.precision, gpu);
  // Every argument counts as an input: planning does not depend on which
  // buffers are the function's results.
  if (llvm::Error failure = emitter.run(function.getNumArguments()))
    return function.emitError(llvm::toString(std::move(failure)));
  // The emitter plans the loops with members in the order of the body.
  ArrayRef<KernelConfig> configs = emitter.program.configs;
  for (auto forall : function.getBody().front().getOps<scf::ForallOp>()) {
    if (forall.getStaticUpperBound()[0] == 0)
      continue;
    if (configs.empty())
      return forall.emitError("the CUDA backend planned no kernel for this "
                              "loop");
    forall->setAttr(kKernelConfigAttrName,
                    getKernelConfigAttr(&getContext(), configs.front()));
    LLVM_DEBUG(llvm::dbgs() << "planned " << configs.front().phases.size()
                            << " phases for " << gpu.target << "\n");
    configs = configs.drop_front();
  }
  return success();
}
