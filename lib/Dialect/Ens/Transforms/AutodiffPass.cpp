//===- AutodiffPass.cpp - The ens-autodiff pass ---------------------------===//

#include "ens/Dialect/Ens/Transforms/FunctionTransformer.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSAUTODIFF
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
struct EnsAutodiffPass : ens::impl::EnsAutodiffBase<EnsAutodiffPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FunctionTransformer transformer(module);
    for (func::FuncOp function : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (failed(transformer.lowerValueAndGrads(function)))
        return signalPassFailure();
    transformer.eraseUnusedFunctions();
  }
};
} // namespace
