//===- StdlibPass.cpp - The ens-stdlib pass -------------------------------===//
//
// Defines the standard library's functions a module uses. A library source
// is MLIR text over type aliases (Stdlib.h); instantiating one prepends the
// alias definitions for the concrete !T and parses. Each `ens.stdlib_call`
// first becomes a `func.call` of a private declaration
// (`attributes {ens.stdlib = name}`), one per function and signature, so
// that calls and hand-written declarations are then defined alike.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/Stdlib.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Dialect/Ens/Transforms/Specialize.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-stdlib"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSSTDLIB
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

/// The type the library function is generic in, read from the declaration
/// at the position the function's source binds.
static FailureOr<RankedTensorType>
getBoundType(func::FuncOp decl, const stdlib::GenericSignature &signature) {
  TypeRange types =
      signature.boundToResult ? decl.getResultTypes() : decl.getArgumentTypes();
  auto tensorType = signature.index < types.size()
                        ? dyn_cast<RankedTensorType>(types[signature.index])
                        : RankedTensorType();
  if (!tensorType)
    return decl.emitOpError()
           << "does not have the tensor the library function is generic in";
  return tensorType;
}

/// Gives the body-less `decl` the body of the library function `name`.
static LogicalResult instantiate(func::FuncOp decl, StringRef name) {
  FailureOr<stdlib::GenericSignature> signature =
      stdlib::getGenericSignature(name, [&] { return decl.emitOpError(); });
  if (failed(signature))
    return failure();
  if (!decl.isExternal())
    return decl.emitOpError()
           << "has a body, but ens.stdlib is for declarations";
  FailureOr<RankedTensorType> type = getBoundType(decl, *signature);
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
    library = parseSourceString<ModuleOp>(stdlib::getAliasDefinitions(*type) +
                                              stdlib::lookupSource(name)->str(),
                                          decl.getContext());
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

/// The name of the declaration `call` calls: the function and its !T,
/// "adam_64x32xf32" for Adam on tensor<64x32xf32> parameters.
static std::string getDeclarationName(StdlibCallOp call) {
  std::string name = call.getFunction().str() + "_";
  llvm::raw_string_ostream os(name);
  auto bound = cast<RankedTensorType>(call.getBoundType());
  for (int64_t size : bound.getShape())
    os << size << "x";
  os << bound.getElementType();
  return name;
}

/// Replaces each ens.stdlib_call in `module` by a call of a private
/// declaration of its function at its types, declared once per signature.
static LogicalResult declareCalls(ModuleOp module) {
  SmallVector<StdlibCallOp> calls;
  module.walk([&](StdlibCallOp call) { calls.push_back(call); });
  SymbolTable symbols(module);
  DenseMap<std::pair<Attribute, Type>, func::FuncOp> declarations;
  for (StdlibCallOp call : calls) {
    FunctionType type = FunctionType::get(
        module.getContext(), call.getArgs().getTypes(), call.getResultTypes());
    if (hasUnknownSizes(type))
      return call.emitOpError()
             << "calls '" << call.getFunction() << "' at " << type
             << ", which has a `?` size; give the program concrete argument "
                "types first (ens-specialize)";
    func::FuncOp &decl = declarations[{call.getFunctionAttr(), type}];
    if (!decl) {
      decl =
          func::FuncOp::create(call.getLoc(), getDeclarationName(call), type);
      decl.setPrivate();
      decl->setAttr("ens.stdlib", call.getFunctionAttr());
      symbols.insert(decl); // renamed if the name is taken
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] '" << call.getFunction() << "' at "
                 << type << " is @" << decl.getSymName() << "\n");
    }
    OpBuilder builder(call);
    auto replacement =
        builder.create<func::CallOp>(call.getLoc(), decl, call.getArgs());
    call.replaceAllUsesWith(replacement.getResults());
    call.erase();
  }
  return success();
}

namespace {
struct EnsStdlibPass : ens::impl::EnsStdlibBase<EnsStdlibPass> {
  void runOnOperation() override {
    if (failed(declareCalls(getOperation())))
      return signalPassFailure();
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>())
      if (auto name = function->getAttrOfType<StringAttr>("ens.stdlib"))
        if (failed(instantiate(function, name.getValue())))
          signalPassFailure();
  }
};
} // namespace
