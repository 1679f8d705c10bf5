//===- Passes.h - ens transformation passes ---------------------*- C++ -*-===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_PASSES_H
#define ENS_DIALECT_ENS_TRANSFORMS_PASSES_H

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"

/// Options of the ens-front pipeline.
struct EnsFrontPipelineOptions
    : public PassPipelineOptions<EnsFrontPipelineOptions> {
  PassOptions::Option<bool> batch{
      *this, "batch",
      llvm::cl::desc("Replace ens.vmap with batched functions (ens-batch). "
                     "The interpreter turns this off: it runs a vmap by its "
                     "definition, member by member, as the reference that "
                     "ens-batch is tested against"),
      llvm::cl::init(true)};
};

/// Adds the front every target runs, on ens IR: ens-stdlib, ens-autodiff
/// and, unless turned off, ens-batch. Afterwards the program holds plain ens
/// ops and calls, with the model axis a leading dimension of the batched
/// values.
void buildEnsFrontPipeline(OpPassManager &pm,
                           const EnsFrontPipelineOptions &options = {});

/// Registers the ens-front pipeline with the pass registry.
void registerEnsFrontPipeline();

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_TRANSFORMS_PASSES_H
