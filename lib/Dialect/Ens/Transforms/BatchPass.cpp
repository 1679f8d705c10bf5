//===- BatchPass.cpp - The ens-batch pass ---------------------------------===//

#include "ens/Dialect/Ens/Transforms/FunctionTransformer.h"
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
    FunctionTransformer transformer(module);
    // Generated functions are inserted as we go and hold no vmaps.
    for (func::FuncOp function : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (failed(transformer.lowerVmaps(function)))
        return signalPassFailure();
    transformer.eraseUnusedFunctions();
  }
};
} // namespace
