//===- FunctionTransformer.cpp - Lowering vmap and value_and_grad ---------===//
//
// The parts shared by batching (Batching.cpp) and differentiation
// (Differentiation.cpp): caches, recursion detection, lowering the
// transform ops of a function, and clean-up.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Transforms/FunctionTransformer.h"
#include "ens/Dialect/Ens/Transforms/Specialize.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::ens;

FunctionTransformer::FunctionTransformer(ModuleOp module)
    : module(module), symbols(module) {}

LogicalResult FunctionTransformer::enter(func::FuncOp callee, Operation *user) {
  if (inProgress.contains(callee))
    return user->emitOpError() << "transforms @" << callee.getSymName()
                               << " recursively, which ens cannot do";
  if (callee.isExternal())
    return user->emitOpError() << "cannot transform @" << callee.getSymName()
                               << ", which has no body";
  // The batching and differentiation rules build static types.
  if (hasUnknownSizes(callee.getFunctionType()))
    return user->emitOpError()
           << "cannot transform @" << callee.getSymName()
           << ", whose signature has `?` sizes; give the program concrete "
              "argument types first (ens-specialize)";
  inProgress.insert(callee);
  return success();
}

func::FuncOp FunctionTransformer::createFunction(func::FuncOp anchor,
                                                 StringRef suffix,
                                                 FunctionType type) {
  OpBuilder builder(anchor);
  builder.setInsertionPointAfter(anchor);
  auto function = builder.create<func::FuncOp>(
      anchor.getLoc(), (anchor.getSymName() + suffix).str(), type);
  function.setPrivate();
  symbols.insert(function);
  generated.insert(function);
  return function;
}

FailureOr<BatchedFunction> FunctionTransformer::getOrCreateBatched(
    func::FuncOp callee, ArrayRef<int64_t> argAxes, int64_t size,
    bool differentRandomness, Operation *user) {
  auto key =
      std::make_tuple(callee.getOperation(),
                      std::vector<int64_t>(argAxes.begin(), argAxes.end()),
                      size, differentRandomness);
  if (auto it = batched.find(key); it != batched.end())
    return it->second;
  if (failed(enter(callee, user)))
    return failure();
  FailureOr<BatchedFunction> result =
      createBatched(callee, argAxes, size, differentRandomness);
  inProgress.remove(callee);
  if (succeeded(result))
    batched.emplace(std::move(key), *result);
  return result;
}

FailureOr<func::FuncOp> FunctionTransformer::getOrCreateGradient(
    func::FuncOp callee, ArrayRef<int64_t> wrt, Operation *user) {
  auto key = std::make_tuple(callee.getOperation(),
                             std::vector<int64_t>(wrt.begin(), wrt.end()));
  if (auto it = gradients.find(key); it != gradients.end())
    return it->second;
  if (failed(enter(callee, user)))
    return failure();
  FailureOr<func::FuncOp> result = createGradient(callee, wrt);
  inProgress.remove(callee);
  if (succeeded(result))
    gradients.emplace(std::move(key), *result);
  return result;
}

template <typename OpTy, typename LowerFn>
LogicalResult FunctionTransformer::lowerEach(func::FuncOp function,
                                             LowerFn lower) {
  // A function with `?` sizes waits for ens-specialize, whose clones of it
  // are lowered instead; compiling it as it is fails with a clear message.
  if (function.isExternal() || hasUnknownSizes(function.getFunctionType()))
    return success();
  // When called while `function` is being transformed, it stays in
  // progress until that finishes.
  bool entered = inProgress.insert(function);
  LogicalResult result = success();
  for (OpTy op : llvm::to_vector(function.getBody().getOps<OpTy>()))
    if (failed(lower(op))) {
      result = failure();
      break;
    }
  if (entered)
    inProgress.remove(function);
  return result;
}

LogicalResult FunctionTransformer::lowerVmaps(func::FuncOp function) {
  return lowerEach<VmapOp>(function, [&](VmapOp op) { return lowerVmap(op); });
}

LogicalResult FunctionTransformer::lowerValueAndGrads(func::FuncOp function) {
  return lowerEach<ValueAndGradOp>(
      function, [&](ValueAndGradOp op) { return lowerValueAndGrad(op); });
}

LogicalResult FunctionTransformer::lowerAll(func::FuncOp function) {
  return success(succeeded(lowerValueAndGrads(function)) &&
                 succeeded(lowerVmaps(function)));
}

void FunctionTransformer::eraseUnusedFunctions() {
  // Erasing one function can leave the functions it called unused.
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *function : generated.takeVector()) {
      if (!SymbolTable::symbolKnownUseEmpty(function, module)) {
        generated.insert(function);
        continue;
      }
      for (auto it = batched.begin(); it != batched.end();)
        it =
            it->second.function == function ? batched.erase(it) : std::next(it);
      for (auto it = gradients.begin(); it != gradients.end();)
        it = it->second == function ? gradients.erase(it) : std::next(it);
      symbols.erase(function);
      erased = true;
    }
  }
}
