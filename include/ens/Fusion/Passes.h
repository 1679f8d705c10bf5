//===- Passes.h - ens fusion passes -----------------------------*- C++ -*-===//

#ifndef ENS_FUSION_PASSES_H
#define ENS_FUSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Fusion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Fusion/Passes.h.inc"

/// The front both backends run after the function transforms:
/// convert-ens-to-linalg, inlining, removal of dead functions,
/// ens-fuse-elementwise and ens-fuse-members (for groups of at least
/// `minMemberWork` loop iterations), with bounded canonicalization between.
void buildLinalgFusionPipeline(OpPassManager &pm, int64_t minMemberWork);

/// One-shot bufferization of whole functions with identity layouts at
/// their boundaries, then results as out-parameters (`outParams`, whose
/// copy function, if any, serves both steps) written in place by
/// ens-forward-results. The pass keeps a reference into `outParams`, which
/// must outlive every run of `pm`.
void buildBufferizationPipeline(
    OpPassManager &pm,
    const bufferization::BufferResultsToOutParamsOpts &outParams);

} // namespace mlir::ens

#endif // ENS_FUSION_PASSES_H
