//===- Passes.cpp - The CUDA backend's pass pipeline ----------------------===//
//
// ens-cuda-pipeline, from linalg on tensors to the linalg on buffers that
// CudaCodegen.cpp turns into kernels: fusion (every loop over members
// becomes one kernel, so no group is too small to fuse), bufferization with
// results as out-parameters, and cleanup.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/Passes.h"

#include "ens/Bufferization/Passes.h"
#include "ens/Fusion/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ens;

void mlir::ens::buildEnsCudaPipeline(OpPassManager &pm) {
  // Independent groups of as many members share a loop, and so a kernel;
  // so do the ops of one member, whose step can then be one kernel.
  buildLinalgFusionPipeline(pm, /*minMemberWork=*/0,
                            /*joinIndependent=*/true, /*oneMemberLoops=*/true);
  pm.addPass(createBoundedCanonicalizerPass());
  // Static: the pass keeps a reference to the options' filter function.
  static const bufferization::BufferResultsToOutParamsOpts outParams = [] {
    bufferization::BufferResultsToOutParamsOpts options;
    options.hoistStaticAllocs = false;
    return options;
  }();
  buildBufferizationPipeline(pm, outParams);
  // A loop that wrote a result in place now copies each slice onto itself
  // through two equal views; once they are one, the copies fold away.
  pm.addPass(createCSEPass());
  pm.addPass(createBoundedCanonicalizerPass());
}

void mlir::ens::registerEnsCudaPipeline() {
  PassPipelineRegistration<>(
      "ens-cuda-pipeline",
      "The CUDA backend's passes from linalg on tensors to the linalg on "
      "buffers that its code generator reads",
      buildEnsCudaPipeline);
}
