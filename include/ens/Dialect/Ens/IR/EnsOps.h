//===- EnsOps.h - ens dialect operations ------------------------*- C++ -*-===//
//
// Declares the operations, enums and attributes of the ens dialect.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_ENSOPS_H
#define ENS_DIALECT_ENS_IR_ENSOPS_H

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ens/Dialect/Ens/IR/EnsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ens/Dialect/Ens/IR/EnsAttrs.h.inc"

#define GET_OP_CLASSES
#include "ens/Dialect/Ens/IR/EnsOps.h.inc"

#endif // ENS_DIALECT_ENS_IR_ENSOPS_H
