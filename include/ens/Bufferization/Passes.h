//===- Passes.h - ens bufferization passes ----------------------*- C++ -*-===//
//
// The bufferization stage both backends run on linalg on tensors, and the
// memref passes it is made of.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BUFFERIZATION_PASSES_H
#define ENS_BUFFERIZATION_PASSES_H

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Bufferization/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Bufferization/Passes.h.inc"

/// One-shot bufferization of whole functions with identity layouts at
/// their boundaries, then results as out-parameters (`outParams`, whose
/// copy function, if any, serves both steps) written in place by
/// ens-forward-results. The pass keeps a reference into `outParams`, which
/// must outlive every run of `pm`.
void buildBufferizationPipeline(
    OpPassManager &pm,
    const bufferization::BufferResultsToOutParamsOpts &outParams);

} // namespace mlir::ens

#endif // ENS_BUFFERIZATION_PASSES_H
