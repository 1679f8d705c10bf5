//===- FunctionTransformer.h - Lowering vmap and value_and_grad -*- C++ -*-===//
//
// `ens.vmap` and `ens.value_and_grad` are function transforms: each becomes a
// call to a generated function. Either may appear inside the callee of the
// other, so one object lowers both, caching every generated function per
// signature and detecting recursion across both kinds.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_FUNCTIONTRANSFORMER_H
#define ENS_DIALECT_ENS_TRANSFORMS_FUNCTIONTRANSFORMER_H

#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <tuple>
#include <vector>

namespace mlir::ens {

/// A generated batched function and where each of its results carries the
/// batch axis (`kUnbatched` for a result that no member changes).
struct BatchedFunction {
  func::FuncOp function;
  SmallVector<int64_t> resultAxes;
};

/// Generates batched and gradient functions in one module.
class FunctionTransformer {
public:
  explicit FunctionTransformer(ModuleOp module);

  /// The function computing `callee` for `size` members, where argument i
  /// carries the batch at `argAxes[i]` (or is shared). With
  /// `differentRandomness`, each member's draws fold in its index. `user`
  /// is where diagnostics point.
  FailureOr<BatchedFunction>
  getOrCreateBatched(func::FuncOp callee, ArrayRef<int64_t> argAxes,
                     int64_t size, bool differentRandomness, Operation *user);

  /// The function returning `callee`'s loss (first result) and its gradients
  /// with respect to the arguments `wrt`.
  FailureOr<func::FuncOp> getOrCreateGradient(func::FuncOp callee,
                                              ArrayRef<int64_t> wrt,
                                              Operation *user);

  /// Replace the vmaps, or the value_and_grads, or both, in `function`.
  LogicalResult lowerVmaps(func::FuncOp function);
  LogicalResult lowerValueAndGrads(func::FuncOp function);
  LogicalResult lowerAll(func::FuncOp function);

  /// Erases the generated functions that nothing calls any more.
  void eraseUnusedFunctions();

private:
  FailureOr<BatchedFunction> createBatched(func::FuncOp callee,
                                           ArrayRef<int64_t> argAxes,
                                           int64_t size,
                                           bool differentRandomness);
  FailureOr<func::FuncOp> createGradient(func::FuncOp callee,
                                         ArrayRef<int64_t> wrt);
  LogicalResult lowerVmap(VmapOp vmap);
  LogicalResult lowerValueAndGrad(ValueAndGradOp op);
  /// Replaces the ops of one kind in `function`.
  template <typename OpTy, typename LowerFn>
  LogicalResult lowerEach(func::FuncOp function, LowerFn lower);
  /// Marks `callee` as being transformed; fails on recursion.
  LogicalResult enter(func::FuncOp callee, Operation *user);
  /// A new private function after `anchor`, named after it.
  func::FuncOp createFunction(func::FuncOp anchor, StringRef suffix,
                              FunctionType type);

  ModuleOp module;
  SymbolTable symbols;
  std::map<std::tuple<Operation *, std::vector<int64_t>, int64_t, bool>,
           BatchedFunction>
      batched;
  std::map<std::tuple<Operation *, std::vector<int64_t>>, func::FuncOp>
      gradients;
  llvm::SetVector<Operation *> generated;
  /// Functions being transformed: meeting one again means recursion.
  llvm::SetVector<Operation *> inProgress;
};

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_TRANSFORMS_FUNCTIONTRANSFORMER_H
