//===- EnsDialect.h - ens dialect -------------------------------*- C++ -*-===//
//
// Declares the ens dialect.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_ENSDIALECT_H
#define ENS_DIALECT_ENS_IR_ENSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ens/Dialect/Ens/IR/EnsOpsDialect.h.inc"

#endif // ENS_DIALECT_ENS_IR_ENSDIALECT_H
