//===- Pipeline.cpp - The passes from ens to CUDA kernels -----------------===//
//
// Takes a function through the common front of the pipeline, fusion
// (elementwise, then over the members of an ensemble) and one-shot
// bufferization (results as out-parameters), the CUDA backend's own passes
// (generalization, elementwise chains merged), and hands the bufferized
// function to the kernel emitter.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/KernelConfigAttr.h"
#include "ens/Backend/Cuda/Passes.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Runtime/Plan.h"
#include "ens/Support/Sizes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// Names each ens op in its location, so the kernels that come from it can
/// say which ops they compute.
static void tagEnsOps(ModuleOp module) {
  module.walk([](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "ens")
      op->setLoc(NameLoc::get(
          StringAttr::get(op->getContext(), op->getName().getStringRef()),
          op->getLoc()));
  });
}

llvm::Expected<CudaProgram> cuda::generateCuda(ModuleOp module, StringRef entry,
                                               int64_t maxBufferBytes,
                                               const CodegenOptions &options) {
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return error("no function named '" + entry + "'");
  FunctionType type = function.getFunctionType();
  OwningOpRef<ModuleOp> clone = module.clone();
  for (func::FuncOp other : clone->getOps<func::FuncOp>())
    if (other.getSymName() != entry)
      other.setPrivate();

  MLIRContext *context = module.getContext();
  std::string diagnostics;
  ScopedDiagnosticHandler collect(context, [&](Diagnostic &d) {
    diagnostics += "\n  " + d.str();
    return success();
  });
  PassManager front(context);
  // Only what the entry calls is compiled.
  front.addPass(createSymbolDCEPass());
  buildEnsFrontPipeline(front);
  if (failed(front.run(*clone)))
    return error("cannot compile @" + entry + " for CUDA:" + diagnostics);
  tagEnsOps(*clone);

  PassManager pm(context);
  pm.addPass(createConvertEnsToLinalg());
  buildEnsCudaPipeline(pm);
  pm.addNestedPass<func::FuncOp>(createEnsCudaGeneralize());
  pm.addNestedPass<func::FuncOp>(createEnsCudaMergeElementwise());
  if (failed(pm.run(*clone)))
    return error("cannot compile @" + entry + " for CUDA:" + diagnostics);

  auto lowered = clone->lookupSymbol<func::FuncOp>(entry);
  if (!lowered || !lowered.getBody().hasOneBlock())
    return error("cannot compile @" + entry + " for CUDA: no function body");
  // The GPU the module names (ens_cuda.target), else the default.
  llvm::Expected<const GpuSpec *> target =
      readTarget(*clone, getDefaultGpuTarget());
  if (!target)
    return target.takeError();
  KernelEmitter emitter(lowered, maxBufferBytes, options.strategy, options.gemm,
                        options.precision, **target);
  if (llvm::Error failure = emitter.run(type.getNumInputs()))
    return std::move(failure);
  if (llvm::Error tooLarge = checkBufferBytes(
          emitter.program.plan.getPeakDeviceBytes(), maxBufferBytes,
          "@" + entry.str() +
              " (arguments, results, constants and "
              "temporaries together)"))
    return std::move(tooLarge);
  emitter.program.type = type;
  // The plan the kernels are written for, for runners to check an
  // artifact's plan against (getPlanKernelName).
  emitter.program.source +=
      "\n" + ::ens::runtime::getPlanKernelDefinition(emitter.program.plan);
  return std::move(emitter.program);
}
