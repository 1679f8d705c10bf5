//===- AutodiffOpInterface.h - Per-op reverse-mode rules --------*- C++ -*-===//

#ifndef ENS_DIALECT_ENS_INTERFACES_AUTODIFFOPINTERFACE_H
#define ENS_DIALECT_ENS_INTERFACES_AUTODIFFOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "ens/Dialect/Ens/Interfaces/AutodiffOpInterface.h.inc"

#endif // ENS_DIALECT_ENS_INTERFACES_AUTODIFFOPINTERFACE_H
