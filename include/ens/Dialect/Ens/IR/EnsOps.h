//===- EnsOps.h - ens dialect operations ------------------------*- C++ -*-===//
//
// Declares the operations, enums and attributes of the ens dialect.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_ENSOPS_H
#define ENS_DIALECT_ENS_IR_ENSOPS_H

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/SCF/IR/DeviceMappingInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ens {

/// ens.conv's dimension numbers, defined with its shape rule in
/// ShapeInference.h.
struct ConvDims;
/// ens.reduce_window's window, defined with its shape rule in
/// ShapeInference.h.
struct Window;

/// Checks that every operand and the result of an elementwise op have the
/// shape of operand 0, naming the shapes when they differ.
LogicalResult verifyShapesAgree(Operation *op);

/// The bytes a ranked shaped `type` occupies (each element rounded up to
/// whole bytes; dynamic sizes count as 1), or an error naming the type when
/// the count overflows 64 bits.
llvm::Expected<int64_t> getTypeByteSize(ShapedType type);

/// An error when `type`, or a type inside a function type, is a shaped type
/// whose static sizes make a byte count that overflows 64 bits (dynamic
/// sizes count as 1).
llvm::Error checkTypeSize(Type type);

/// Checks that the size in bytes of every operand and result fits in 64
/// bits, naming the value and its type when it does not.
LogicalResult verifyValueSizes(Operation *op);

namespace OpTrait {
/// Every operand's and result's size in bytes fits in 64 bits.
template <typename ConcreteType>
class SizedValues : public mlir::OpTrait::TraitBase<ConcreteType, SizedValues> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyValueSizes(op);
  }
};

/// The shapes of an elementwise op's operands and result agree.
template <typename ConcreteType>
class ShapesAgree : public mlir::OpTrait::TraitBase<ConcreteType, ShapesAgree> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyShapesAgree(op);
  }
};
} // namespace OpTrait

} // namespace mlir::ens

#include "ens/Dialect/Ens/IR/EnsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ens/Dialect/Ens/IR/EnsAttrs.h.inc"

#define GET_OP_CLASSES
#include "ens/Dialect/Ens/IR/EnsOps.h.inc"

#endif // ENS_DIALECT_ENS_IR_ENSOPS_H
