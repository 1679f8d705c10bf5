//===- EnsDialect.cpp - ens dialect ---------------------------------------===//

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ens;

#include "ens/Dialect/Ens/IR/EnsOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ens/Dialect/Ens/IR/EnsAttrs.cpp.inc"

void EnsDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ens/Dialect/Ens/IR/EnsOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ens/Dialect/Ens/IR/EnsAttrs.cpp.inc"
      >();
}

Operation *EnsDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

// A loop over members maps to no processing unit that upstream code would
// index: its one id is 0, and it is not a linear mapping.
int64_t MembersMappingAttr::getMappingId() const { return 0; }

bool MembersMappingAttr::isLinearMapping() const { return false; }

int64_t MembersMappingAttr::getRelativeIndex() const { return 0; }
