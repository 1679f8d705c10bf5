//===- Passes.h - ens fusion passes -----------------------------*- C++ -*-===//

#ifndef ENS_FUSION_PASSES_H
#define ENS_FUSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Fusion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Fusion/Passes.h.inc"

/// The fusion stage both backends run on the output of
/// convert-ens-to-linalg: inlining, removal of dead functions,
/// ens-fuse-elementwise and ens-fuse-members (for groups of at least
/// `minMemberWork` loop iterations, independent groups of as many members
/// in one loop if `joinIndependent`, a loop for an ensemble of one member
/// if `oneMemberLoops`), with bounded canonicalization between.
void buildLinalgFusionPipeline(OpPassManager &pm, int64_t minMemberWork,
                               bool joinIndependent, bool oneMemberLoops);

} // namespace mlir::ens

#endif // ENS_FUSION_PASSES_H
