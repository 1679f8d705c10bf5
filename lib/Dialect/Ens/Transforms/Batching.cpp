//===- Batching.cpp - Batching functions over a member axis ---------------===//
//
// A batched function is built by walking the member function's body once,
// keeping for each value where it carries the batch (or that it is shared).
// Ops with only shared operands are cloned unchanged, calls batch their
// callee recursively, and every other op applies its BatchingOpInterface
// rule. Inner `ens.vmap`s are lowered to calls first, so nested vmaps
// compose in either order.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Transforms/Batching.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ens;

RankedTensorType mlir::ens::insertBatchDim(Type type, int64_t axis,
                                           int64_t size) {
  auto tensorType = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensorType.getShape());
  shape.insert(shape.begin() + axis, size);
  return RankedTensorType::get(shape, tensorType.getElementType());
}

Value mlir::ens::moveBatchAxis(OpBuilder &builder, Location loc, Value value,
                               int64_t from, int64_t to) {
  if (from == to)
    return value;
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d < rank; ++d)
    if (d != from)
      permutation.push_back(d);
  permutation.insert(permutation.begin() + to, from);
  return builder.create<TransposeOp>(loc, value, permutation);
}

Value mlir::ens::broadcastToBatch(OpBuilder &builder, Location loc,
                                  Value value, int64_t axis, int64_t size) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(d < axis ? d : d + 1);
  return builder.create<BroadcastInDimOp>(
      loc, insertBatchDim(value.getType(), axis, size), value, dims);
}

FunctionBatcher::FunctionBatcher(ModuleOp module)
    : module(module), symbols(module) {}

FailureOr<BatchedFunction>
FunctionBatcher::getOrCreate(func::FuncOp callee, ArrayRef<int64_t> argAxes,
                             int64_t size, Operation *user) {
  Key key{callee, std::vector<int64_t>(argAxes.begin(), argAxes.end()), size};
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  if (inProgress.contains(callee))
    return user->emitOpError() << "batches @" << callee.getSymName()
                               << " recursively, which ens cannot batch";
  if (callee.isExternal())
    return user->emitOpError() << "cannot batch @" << callee.getSymName()
                               << ", which has no body";
  inProgress.insert(callee);
  FailureOr<BatchedFunction> batched = create(callee, argAxes, size);
  inProgress.remove(callee);
  if (succeeded(batched))
    cache.emplace(std::move(key), *batched);
  return batched;
}

FailureOr<BatchedFunction> FunctionBatcher::create(func::FuncOp callee,
                                                   ArrayRef<int64_t> argAxes,
                                                   int64_t size) {
  if (failed(lowerVmaps(callee)))
    return failure();

  SmallVector<Type> argTypes;
  for (auto [type, axis] : llvm::zip_equal(callee.getArgumentTypes(), argAxes))
    argTypes.push_back(axis == kUnbatched ? type
                                          : insertBatchDim(type, axis, size));
  OpBuilder builder(callee);
  builder.setInsertionPointAfter(callee);
  auto function = builder.create<func::FuncOp>(
      callee.getLoc(), (callee.getSymName() + "_vmap").str(),
      builder.getFunctionType(argTypes, {}));
  function.setPrivate();
  symbols.insert(function);
  generated.insert(function);
  builder.setInsertionPointToStart(function.addEntryBlock());

  // Each member value's batched counterpart; `shared` maps the values that
  // stay unbatched, for cloning ops that use only those.
  llvm::DenseMap<Value, BatchedValue> values;
  IRMapping shared;
  for (auto [old, arg, axis] : llvm::zip_equal(
           callee.getArguments(), function.getArguments(), argAxes)) {
    values[old] = {arg, axis};
    if (axis == kUnbatched)
      shared.map(old, arg);
  }

  BatchedFunction result{function, {}};
  for (Operation &op : callee.getBody().front()) {
    SmallVector<BatchedValue> operands;
    for (Value operand : op.getOperands())
      operands.push_back(values.at(operand));

    if (isa<func::ReturnOp>(op)) {
      SmallVector<Value> returned;
      for (const BatchedValue &operand : operands) {
        returned.push_back(operand.value);
        result.resultAxes.push_back(operand.axis);
      }
      builder.create<func::ReturnOp>(op.getLoc(), returned);
      function.setFunctionType(builder.getFunctionType(
          argTypes, ValueRange(returned).getTypes()));
      break;
    }

    SmallVector<BatchedValue> results;
    if (llvm::none_of(operands, [](auto &v) { return v.isBatched(); })) {
      Operation *clone = builder.clone(op, shared);
      for (Value value : clone->getResults())
        results.push_back({value, kUnbatched});
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      auto target = symbols.lookup<func::FuncOp>(call.getCallee());
      SmallVector<int64_t> axes;
      SmallVector<Value> args;
      for (const BatchedValue &operand : operands) {
        axes.push_back(operand.axis);
        args.push_back(operand.value);
      }
      FailureOr<BatchedFunction> callee =
          getOrCreate(target, axes, size, call);
      if (failed(callee))
        return failure();
      auto batchedCall =
          builder.create<func::CallOp>(call.getLoc(), callee->function, args);
      for (auto [value, axis] :
           llvm::zip_equal(batchedCall.getResults(), callee->resultAxes))
        results.push_back({value, axis});
    } else if (auto rule = dyn_cast<BatchingOpInterface>(op)) {
      FailureOr<SmallVector<BatchedValue>> batched =
          rule.batch(builder, operands, size);
      if (failed(batched))
        return failure();
      results = std::move(*batched);
    } else {
      return op.emitOpError() << "has no batching rule";
    }

    for (auto [old, batched] : llvm::zip_equal(op.getResults(), results)) {
      values[old] = batched;
      if (!batched.isBatched())
        shared.map(old, batched.value);
    }
  }
  return result;
}

LogicalResult FunctionBatcher::lowerVmaps(func::FuncOp function) {
  if (function.isExternal())
    return success();
  // When called from create(), the function is already in progress and
  // stays so until its batched body is built.
  bool entered = inProgress.insert(function);
  SmallVector<VmapOp> vmaps(function.getBody().getOps<VmapOp>());
  LogicalResult result = success();
  for (VmapOp vmap : vmaps)
    if (failed(lowerVmap(vmap))) {
      result = failure();
      break;
    }
  if (entered)
    inProgress.remove(function);
  return result;
}

LogicalResult FunctionBatcher::lowerVmap(VmapOp vmap) {
  auto callee = symbols.lookup<func::FuncOp>(vmap.getCallee());
  FailureOr<BatchedFunction> batched =
      getOrCreate(callee, vmap.getInAxes(), vmap.getSize(), vmap);
  if (failed(batched))
    return failure();

  OpBuilder builder(vmap);
  auto call = builder.create<func::CallOp>(vmap.getLoc(), batched->function,
                                           vmap.getOperands());
  for (auto [result, value, axis, outAxis] :
       llvm::zip_equal(vmap.getResults(), call.getResults(),
                       batched->resultAxes, vmap.getOutAxes())) {
    Value placed =
        axis == kUnbatched
            ? broadcastToBatch(builder, vmap.getLoc(), value, outAxis,
                               vmap.getSize())
            : moveBatchAxis(builder, vmap.getLoc(), value, axis, outAxis);
    result.replaceAllUsesWith(placed);
  }
  vmap.erase();
  return success();
}

void FunctionBatcher::eraseUnusedFunctions() {
  // Erasing one function can leave the functions it called unused.
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *function : generated.takeVector()) {
      if (!SymbolTable::symbolKnownUseEmpty(function, module)) {
        generated.insert(function);
        continue;
      }
      for (auto it = cache.begin(); it != cache.end();)
        it = it->second.function == function ? cache.erase(it) : std::next(it);
      symbols.erase(function);
      erased = true;
    }
  }
}
