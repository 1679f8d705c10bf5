//===- Autodiff.h - Reverse-mode differentiation rules ----------*- C++ -*-===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_AUTODIFF_H
#define ENS_DIALECT_ENS_TRANSFORMS_AUTODIFF_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::ens {

/// Attaches the vector-Jacobian product of every ens op to the ops.
void registerAutodiffRules(DialectRegistry &registry);

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_TRANSFORMS_AUTODIFF_H
