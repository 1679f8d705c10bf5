//===- InitAllDialects.h - Dialects ens tools load --------------*- C++ -*-===//

#ifndef ENS_INITALLDIALECTS_H
#define ENS_INITALLDIALECTS_H

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "ens/Dialect/Ens/Transforms/Autodiff.h"
#include "ens/Dialect/Ens/Transforms/Batching.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::ens {

/// Registers the dialects an ens program may contain, ens itself and the
/// upstream `func` dialect for functions and calls, with the interfaces that
/// ens attaches to their ops.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<EnsDialect, func::FuncDialect>();
  registerBatchingRules(registry);
  registerAutodiffRules(registry);
}

} // namespace mlir::ens

#endif // ENS_INITALLDIALECTS_H
