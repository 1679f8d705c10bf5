//===- Passes.cpp - The fusion stage both backends run --------------------===//
//
// The CPU and CUDA backends fuse the output of convert-ens-to-linalg alike;
// before bufferization each then runs passes of its own.
//
//===----------------------------------------------------------------------===//

#include "ens/Fusion/Passes.h"

#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ens;

void mlir::ens::buildLinalgFusionPipeline(OpPassManager &pm,
                                          int64_t minMemberWork,
                                          bool joinIndependent,
                                          bool oneMemberLoops) {
  pm.addPass(createEnsInline());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createBoundedCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createEnsFuseElementwise());
  pm.addPass(createBoundedCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      createEnsFuseMembers({minMemberWork, joinIndependent, oneMemberLoops}));
}
