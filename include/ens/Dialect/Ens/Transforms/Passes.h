//===- Passes.h - ens transformation passes ---------------------*- C++ -*-===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_PASSES_H
#define ENS_DIALECT_ENS_TRANSFORMS_PASSES_H

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::ens {

/// The most ops a function may have once its calls are inlined, for every
/// pass that inlines (ens-inline, ens-autodiff): beyond it a call tree that
/// branches at every level would grow without bound.
constexpr uint64_t kMaxInlinedOps = uint64_t(1) << 20;

/// Emits an error on the first function of `module` that has more than
/// `maxOps` ops once its calls (to functions of `module`) are inlined.
/// Counting takes time linear in the module, however much inlining would
/// make: each function's count is computed once. A recursive call counts
/// as one op, as the inliner leaves it a call.
LogicalResult checkInlinedSizes(ModuleOp module, uint64_t maxOps);

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
