//===- Stdlib.h - The standard library's generic signatures -----*- C++ -*-===//
//
// The standard library (stdlib/*.mlir) is MLIR text written once against
// type aliases: !T, the float tensor type a function is generic in, and
// types derived from it (docs/stdlib.md). This header gives the library's
// sources, the aliases for a given !T, and each function's signature at a
// given !T, which `ens.stdlib_call` verifies against and `ens-stdlib`
// instantiates.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_STDLIB_H
#define ENS_DIALECT_ENS_IR_STDLIB_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::ens::stdlib {

/// The source of library function `name` (stdlib/<name>.mlir), if any.
std::optional<llvm::StringRef> lookupSource(llvm::StringRef name);

/// The library's function names, sorted and comma-separated, for
/// diagnostics.
std::string listNames();

/// A library function's signature over the aliases, read from its source:
/// each input and result is an alias (`!T`, `!S`, ...) or a concrete type
/// (`tensor<2xi32>`), and !T is bound to one of them.
struct GenericSignature {
  llvm::SmallVector<std::string> inputs, results;
  /// Whether !T is the type of result `index` rather than input `index`.
  bool boundToResult = false;
  unsigned index = 0;
};

/// The generic signature of library function `name`, or an error through
/// `emitError` when the name is unknown.
FailureOr<GenericSignature>
getGenericSignature(llvm::StringRef name,
                    llvm::function_ref<InFlightDiagnostic()> emitError);

/// The alias definitions for !T = `type` ("!T = tensor<...>\n!S = ...")
/// that a library source is parsed after. Sizes that depend on a `?` size
/// of `type` are `?`; the aliases that drop the last dimension are absent
/// for a rank-0 `type`.
std::string getAliasDefinitions(RankedTensorType type);

/// `signature` at !T = `type`, or an error through `emitError` when `type`
/// is not a float tensor or lacks an alias the function uses. `name` is
/// for the messages.
FailureOr<FunctionType>
instantiateSignature(llvm::StringRef name, const GenericSignature &signature,
                     RankedTensorType type,
                     llvm::function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::ens::stdlib

#endif // ENS_DIALECT_ENS_IR_STDLIB_H
