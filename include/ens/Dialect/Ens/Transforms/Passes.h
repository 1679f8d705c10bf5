//===- Passes.h - ens transformation passes ---------------------*- C++ -*-===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_PASSES_H
#define ENS_DIALECT_ENS_TRANSFORMS_PASSES_H

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_TRANSFORMS_PASSES_H
