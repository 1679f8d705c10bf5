//===- StdlibPass.cpp - The ens-stdlib pass -------------------------------===//
//
// Library functions are MLIR text over the aliases !T (the tensor type the
// function is generic in), !S (rank-0 of T's element type), !F (T flattened),
// !R (T without its last dimension), !L (R with i32 elements), !M (T as a
// matrix: its leading dimensions flattened into rows, its last the columns),
// !N (a vector of M's rows), !V (a vector of M's columns) and !B (T's
// shape with i1 elements, a mask). The
// template names where T comes from with `ens.stdlib.bind`: "argN" or
// "resultN". Instantiating prepends the alias definitions and parses.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSSTDLIB
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

/// The library's sources, generated from stdlib/*.mlir at configure time.
static const llvm::StringMap<StringRef> &getTemplates() {
  static const llvm::StringMap<StringRef> templates = {
#include "ens/Dialect/Ens/Transforms/StdlibTemplates.inc"
  };
  return templates;
}

/// The type the template is generic in, read from the declaration at the
/// position the template's `ens.stdlib.bind` names.
static FailureOr<RankedTensorType> getBoundType(func::FuncOp decl,
                                                StringRef source) {
  StringRef marker = "ens.stdlib.bind = \"";
  size_t at = source.find(marker);
  StringRef bind = source.drop_front(at + marker.size()).take_until([](char c) {
    return c == '"';
  });
  unsigned index = 0;
  Type type;
  if (bind.consume_front("arg") && !bind.getAsInteger(10, index) &&
      index < decl.getNumArguments())
    type = decl.getArgumentTypes()[index];
  else if (bind.consume_front("result") && !bind.getAsInteger(10, index) &&
           index < decl.getNumResults())
    type = decl.getResultTypes()[index];
  auto tensorType = dyn_cast_or_null<RankedTensorType>(type);
  if (!tensorType)
    return decl.emitOpError()
           << "does not have the tensor the library function is generic in";
  return tensorType;
}

static std::string aliasDefinitions(RankedTensorType type) {
  Type element = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "!T = " << type << "\n!S = " << RankedTensorType::get({}, element)
     << "\n!F = " << RankedTensorType::get({type.getNumElements()}, element)
     << "\n!B = "
     << RankedTensorType::get(shape, IntegerType::get(type.getContext(), 1))
     << "\n";
  if (!shape.empty()) {
    MLIRContext *context = type.getContext();
    int64_t rows =
        RankedTensorType::get(shape.drop_back(), element).getNumElements();
    os << "!R = " << RankedTensorType::get(shape.drop_back(), element)
       << "\n!L = "
       << RankedTensorType::get(shape.drop_back(),
                                IntegerType::get(context, 32))
       << "\n!M = " << RankedTensorType::get({rows, shape.back()}, element)
       << "\n!N = " << RankedTensorType::get({rows}, element)
       << "\n!V = " << RankedTensorType::get({shape.back()}, element) << "\n";
  }
  return text;
}

/// Gives the body-less `decl` the body of the library function `name`.
static LogicalResult instantiate(func::FuncOp decl, StringRef name) {
  auto it = getTemplates().find(name);
  if (it == getTemplates().end()) {
    auto names = llvm::to_vector(getTemplates().keys());
    llvm::sort(names);
    std::string known = llvm::join(names, ", ");
    return decl.emitOpError()
           << "names '" << name << "', which is not in the standard library ("
           << known << ")";
  }
  if (!decl.isExternal())
    return decl.emitOpError()
           << "has a body, but ens.stdlib is for declarations";
  FailureOr<RankedTensorType> type = getBoundType(decl, it->second);
  if (failed(type))
    return failure();
  if (!type->hasStaticShape())
    return decl.emitOpError()
           << "instantiates '" << name << "' for !T = " << *type
           << ", which has a `?` size; give the program concrete argument "
              "types first (ens-specialize)";

  std::string errors;
  OwningOpRef<ModuleOp> library;
  {
    ScopedDiagnosticHandler collect(decl.getContext(), [&](Diagnostic &diag) {
      errors += "\n  " + diag.str();
      return success();
    });
    library = parseSourceString<ModuleOp>(
        aliasDefinitions(*type) + it->second.str(), decl.getContext());
  }
  auto definition =
      library ? library->lookupSymbol<func::FuncOp>(name) : func::FuncOp();
  if (!definition)
    return decl.emitOpError() << "cannot instantiate '" << name
                              << "' for !T = " << *type << ":" << errors;
  if (definition.getFunctionType() != decl.getFunctionType())
    return decl.emitOpError() << "has type " << decl.getFunctionType()
                              << ", but '" << name << "' for !T = " << *type
                              << " has type " << definition.getFunctionType();
  decl.getBody().takeBody(definition.getBody());
  decl->removeAttr("ens.stdlib");
  return success();
}

namespace {
struct EnsStdlibPass : ens::impl::EnsStdlibBase<EnsStdlibPass> {
  void runOnOperation() override {
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>())
      if (auto name = function->getAttrOfType<StringAttr>("ens.stdlib"))
        if (failed(instantiate(function, name.getValue())))
          signalPassFailure();
  }
};
} // namespace
