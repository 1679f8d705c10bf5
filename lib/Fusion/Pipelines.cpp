//===- Pipelines.cpp - Pass sequences both backends run -------------------===//
//
// The CPU and CUDA backends lower and fuse alike and bufferize alike;
// between and after these sequences each runs passes of its own.
//
//===----------------------------------------------------------------------===//

#include "ens/Fusion/Passes.h"

#include "ens/Conversion/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ens;

void mlir::ens::buildLinalgFusionPipeline(OpPassManager &pm,
                                          int64_t minMemberWork) {
  pm.addPass(createConvertEnsToLinalg());
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createBoundedCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createEnsFuseElementwise());
  pm.addPass(createBoundedCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createEnsFuseMembers({minMemberWork}));
}

void mlir::ens::buildBufferizationPipeline(
    OpPassManager &pm,
    const bufferization::BufferResultsToOutParamsOpts &outParams) {
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  bufferization::OneShotBufferizationOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  bufferization.memCpyFn = outParams.memCpyFn;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  // Loops that carried tensors now carry the same buffer throughout; folding
  // them away shows which results are fresh allocations.
  pm.addPass(createBoundedCanonicalizerPass());
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addNestedPass<func::FuncOp>(createEnsForwardResults());
}
