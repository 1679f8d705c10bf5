//===- Batching.h - Batching functions over a member axis -------*- C++ -*-===//
//
// The machinery behind `ens.vmap` and the `ens-batch` pass: generates, for a
// function and the batch axes of its arguments, a function that computes it
// for every member at once, by applying each op's batching rule.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_BATCHING_H
#define ENS_DIALECT_ENS_TRANSFORMS_BATCHING_H

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <tuple>
#include <vector>

namespace mlir::ens {

/// Attaches the batching rule of every ens op to the ops.
void registerBatchingRules(DialectRegistry &registry);

/// A generated batched function and where each of its results carries the
/// batch axis (`kUnbatched` for a result that no member changes).
struct BatchedFunction {
  func::FuncOp function;
  SmallVector<int64_t> resultAxes;
};

/// Generates batched functions in a module and caches them per signature, so
/// each (function, argument axes, size) is batched once.
class FunctionBatcher {
public:
  explicit FunctionBatcher(ModuleOp module);

  /// Returns the function computing `callee` for `size` members, where
  /// argument i carries the batch at `argAxes[i]` (or is shared). `user` is
  /// where diagnostics point.
  FailureOr<BatchedFunction> getOrCreate(func::FuncOp callee,
                                         ArrayRef<int64_t> argAxes,
                                         int64_t size, Operation *user);

  /// Replaces every `ens.vmap` in `function` by a call to a batched function.
  LogicalResult lowerVmaps(func::FuncOp function);

  /// Erases the generated functions that nothing calls any more.
  void eraseUnusedFunctions();

private:
  FailureOr<BatchedFunction> create(func::FuncOp callee,
                                    ArrayRef<int64_t> argAxes, int64_t size);
  LogicalResult lowerVmap(VmapOp vmap);

  ModuleOp module;
  SymbolTable symbols;
  using Key = std::tuple<Operation *, std::vector<int64_t>, int64_t>;
  std::map<Key, BatchedFunction> cache;
  llvm::SetVector<Operation *> generated;
  /// Functions whose vmaps are being lowered or whose body is being batched:
  /// meeting one again means the program is recursive.
  llvm::SetVector<Operation *> inProgress;
};

/// `type` with a dimension of `size` inserted at `axis`.
RankedTensorType insertBatchDim(Type type, int64_t axis, int64_t size);

/// Moves the batch axis of `value` from `from` to `to` with a transpose,
/// or returns `value` when they are equal.
Value moveBatchAxis(OpBuilder &builder, Location loc, Value value,
                    int64_t from, int64_t to);

/// Gives a shared `value` a batch axis at `axis` with broadcast_in_dim.
Value broadcastToBatch(OpBuilder &builder, Location loc, Value value,
                       int64_t axis, int64_t size);

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_TRANSFORMS_BATCHING_H
