//===- Specialize.h - Giving `?` sizes concrete values ----------*- C++ -*-===//
//
// A model may leave sizes unknown (`tensor<?x64xf32>`) so that one program
// serves every batch size. Every target compiles static shapes only, so a
// function is specialized to concrete argument types first: the rules are in
// docs/shapes.md and in the description of the ens-specialize pass.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_SPECIALIZE_H
#define ENS_DIALECT_ENS_TRANSFORMS_SPECIALIZE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace mlir::ens {

/// Whether `type` (a ranked tensor, or a function type's inputs or results)
/// has a `?` size.
bool hasUnknownSizes(Type type);

/// Clones `entry` and every function it reaches through `func.call`,
/// `ens.vmap` and `ens.value_and_grad` at concrete argument types, starting
/// from `argTypes` (static, one per argument of `entry`), re-infers every
/// op's result types with the shared shape rules and rewrites the clones'
/// signatures. A function reached at several argument types gets one clone
/// per types, named `<name>_<types>` (e.g. `@mlp_8x4xf32_4x3xf32`). The
/// original functions are left as they are. Returns the clone of `entry`;
/// on failure, one diagnostic says which argument or value is at fault and
/// the module holds no clone.
FailureOr<func::FuncOp> specializeFunction(ModuleOp module, StringRef entry,
                                           ArrayRef<Type> argTypes);

/// Specializes `entry` like specializeFunction, then replaces `entry` by its
/// clone, which takes its name (unless something else still calls it), and
/// erases the reached originals that have `?` in their signature and that
/// nothing uses any more. The result holds the module ready for a target.
FailureOr<func::FuncOp> specializeEntryInPlace(ModuleOp module, StringRef entry,
                                               ArrayRef<Type> argTypes);

/// An error naming the first `?` in `entry` or in a function it reaches,
/// with what to do about it; success when there is none.
llvm::Error checkStaticShapes(ModuleOp module, StringRef entry);

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_TRANSFORMS_SPECIALIZE_H
