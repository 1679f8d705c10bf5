//===- Passes.cpp - The bufferization stage both backends run -------------===//
//
// From linalg on tensors to linalg on buffers, with every result of the
// entry written into a buffer the caller provides.
//
//===----------------------------------------------------------------------===//

#include "ens/Bufferization/Passes.h"

#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::ens;

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
