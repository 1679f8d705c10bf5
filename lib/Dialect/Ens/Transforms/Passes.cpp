//===- Passes.cpp - The ens-front pass pipeline ---------------------------===//
//
// The one definition of the function transforms that every target runs
// before it lowers ens ops: the backends, the interpreter, the tools and the
// C++ API all build their front with buildEnsFrontPipeline.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::ens;

void mlir::ens::buildEnsFrontPipeline(OpPassManager &pm,
                                      const EnsFrontPipelineOptions &options) {
  // The standard library first, so that its functions are differentiated
  // and batched like any other.
  pm.addPass(createEnsStdlib());
  pm.addPass(createEnsAutodiff());
  if (options.batch)
    pm.addPass(createEnsBatch());
}

void mlir::ens::registerEnsFrontPipeline() {
  PassPipelineRegistration<EnsFrontPipelineOptions>(
      "ens-front",
      "The function transforms every target runs first: ens-stdlib, "
      "ens-autodiff, ens-batch",
      buildEnsFrontPipeline);
}
