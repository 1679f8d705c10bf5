//===- Batch.cpp - The ens-batch pass -------------------------------------===//

#include "ens/Dialect/Ens/Transforms/Batching.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSBATCH
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
struct EnsBatchPass : ens::impl::EnsBatchBase<EnsBatchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FunctionBatcher batcher(module);
    // Generated functions are inserted as we go and hold no vmaps.
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions)
      if (failed(batcher.lowerVmaps(function)))
        return signalPassFailure();
    batcher.eraseUnusedFunctions();
  }
};
} // namespace
