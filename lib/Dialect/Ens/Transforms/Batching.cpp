//===- Batching.cpp - Batching functions over a member axis ---------------===//
//
// A batched function is built by walking the member function's body once,
// keeping for each value where it carries the batch (or that it is shared).
// Ops with only shared operands are cloned unchanged, calls batch their
// callee recursively, and every other op applies its BatchingOpInterface
// rule. Inner `ens.vmap`s and `ens.value_and_grad`s are lowered to calls
// first, so the transforms nest and compose in either order.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Transforms/Batching.h"
#include "ens/Dialect/Ens/Transforms/FunctionTransformer.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-batch"

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
  // A broadcast moves its batch axis by broadcasting in the new order: a
  // broadcast is an index map that fusion folds into its consumers, while a
  // transpose of it would write every broadcast element (the bias of a
  // batched convolution meeting the convolution's batch axis).
  if (auto broadcast = value.getDefiningOp<BroadcastInDimOp>()) {
    auto type = cast<RankedTensorType>(value.getType());
    // Result dim d of the broadcast becomes dim inverse[d] of the transpose.
    SmallVector<int64_t> inverse(rank), shape;
    for (auto [position, dim] : llvm::enumerate(permutation)) {
      inverse[dim] = position;
      shape.push_back(type.getDimSize(dim));
    }
    SmallVector<int64_t> dims;
    for (int64_t dim : broadcast.getDims())
      dims.push_back(inverse[dim]);
    return builder.create<BroadcastInDimOp>(
        loc, RankedTensorType::get(shape, type.getElementType()),
        broadcast.getOperand(), dims);
  }
  return builder.create<TransposeOp>(loc, value, permutation);
}

Value mlir::ens::splitDim(OpBuilder &builder, Location loc, Value value,
                          int64_t dim, int64_t factor) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] /= factor;
  shape.insert(shape.begin() + dim, factor);
  return builder.create<ReshapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), value);
}

Value mlir::ens::mergeDimInto(OpBuilder &builder, Location loc, Value value,
                              int64_t from, int64_t into) {
  int64_t target = into < from ? into : into - 1;
  Value moved = moveBatchAxis(builder, loc, value, from, target);
  auto type = cast<RankedTensorType>(moved.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[target] *= shape[target + 1];
  shape.erase(shape.begin() + target + 1);
  return builder.create<ReshapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), moved);
}

Value mlir::ens::broadcastToBatch(OpBuilder &builder, Location loc, Value value,
                                  int64_t axis, int64_t size) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(d < axis ? d : d + 1);
  return builder.create<BroadcastInDimOp>(
      loc, insertBatchDim(value.getType(), axis, size), value, dims);
}

/// Keys of a draw under randomness "different": each member's keys with
/// the member index folded in, batched at axis 0, as the interpreter's
/// definition of vmap does.
static BatchedValue foldMemberIndex(OpBuilder &builder, Location loc,
                                    BatchedValue key, int64_t size) {
  Value keys = key.isBatched()
                   ? moveBatchAxis(builder, loc, key.value, key.axis, 0)
                   : broadcastToBatch(builder, loc, key.value, 0, size);
  auto keyType = cast<RankedTensorType>(keys.getType());
  auto dataType = RankedTensorType::get(keyType.getShape().drop_back(),
                                        keyType.getElementType());
  auto members = llvm::to_vector(llvm::seq<int32_t>(0, size));
  Value memberIndex = builder.create<ConstantOp>(
      loc, DenseElementsAttr::get(
               RankedTensorType::get({size}, keyType.getElementType()),
               ArrayRef<int32_t>(members)));
  Value data = builder.create<BroadcastInDimOp>(loc, dataType, memberIndex,
                                                ArrayRef<int64_t>{0});
  return {builder.create<RandomFoldInOp>(loc, keyType, keys, data), 0};
}

/// Whether running `function` draws random numbers, in its body or in a
/// function it calls or transforms.
static bool drawsRandomNumbers(func::FuncOp function, SymbolTable &symbols,
                               llvm::SmallPtrSetImpl<Operation *> &visited) {
  if (!function || !visited.insert(function).second)
    return false;
  return function
      .walk([&](Operation *op) {
        if (isa<RandomUniformOp, RandomNormalOp>(op))
          return WalkResult::interrupt();
        auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee");
        if (callee &&
            drawsRandomNumbers(symbols.lookup<func::FuncOp>(callee.getValue()),
                               symbols, visited))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

FailureOr<BatchedFunction>
FunctionTransformer::createBatched(func::FuncOp callee,
                                   ArrayRef<int64_t> argAxes, int64_t size,
                                   bool differentRandomness) {
  if (failed(lowerAll(callee)))
    return failure();

  SmallVector<Type> argTypes;
  for (auto [type, axis] : llvm::zip_equal(callee.getArgumentTypes(), argAxes))
    argTypes.push_back(axis == kUnbatched ? type
                                          : insertBatchDim(type, axis, size));
  func::FuncOp function = createFunction(
      callee, "_vmap", FunctionType::get(module.getContext(), argTypes, {}));
  OpBuilder builder = OpBuilder::atBlockBegin(function.addEntryBlock());

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
      function.setFunctionType(
          builder.getFunctionType(argTypes, ValueRange(returned).getTypes()));
      break;
    }

    // A member's draws differ from every other member's even when the key
    // is shared.
    if (differentRandomness && isa<RandomUniformOp, RandomNormalOp>(op))
      operands[0] = foldMemberIndex(builder, op.getLoc(), operands[0], size);

    // So do the draws of a callee, so such a call is batched even when
    // every operand is shared.
    bool drawsPerMember = false;
    if (auto call = dyn_cast<func::CallOp>(op); call && differentRandomness) {
      llvm::SmallPtrSet<Operation *, 8> visited;
      drawsPerMember = drawsRandomNumbers(
          symbols.lookup<func::FuncOp>(call.getCallee()), symbols, visited);
    }

    SmallVector<BatchedValue> results;
    LLVM_DEBUG({
      llvm::dbgs() << "[" DEBUG_TYPE "] " << op.getName() << " at "
                   << op.getLoc() << ", operand axes (";
      llvm::interleaveComma(operands, llvm::dbgs(), [](auto &v) {
        llvm::dbgs() << (v.isBatched() ? std::to_string(v.axis) : "shared");
      });
      llvm::dbgs() << ")\n";
    });
    if (!drawsPerMember &&
        llvm::none_of(operands, [](auto &v) { return v.isBatched(); })) {
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
          getOrCreateBatched(target, axes, size, differentRandomness, call);
      if (failed(callee))
        return failure();
      auto batchedCall =
          builder.create<func::CallOp>(call.getLoc(), callee->function, args);
      for (auto [value, axis] :
           llvm::zip_equal(batchedCall.getResults(), callee->resultAxes))
        results.push_back({value, axis});
    } else if (auto rule = dyn_cast<BatchingOpInterface>(op)) {
      FailureOr<SmallVector<BatchedValue>> batchedResults =
          rule.batch(builder, operands, size);
      if (failed(batchedResults))
        return failure();
      results = std::move(*batchedResults);
    } else {
      return op.emitOpError() << "has no batching rule";
    }

    for (auto [old, value] : llvm::zip_equal(op.getResults(), results)) {
      values[old] = value;
      if (!value.isBatched())
        shared.map(old, value.value);
    }
  }
  return result;
}

LogicalResult FunctionTransformer::lowerVmap(VmapOp vmap) {
  auto callee = symbols.lookup<func::FuncOp>(vmap.getCallee());
  FailureOr<BatchedFunction> function =
      getOrCreateBatched(callee, vmap.getInAxes(), vmap.getSize(),
                         vmap.getRandomness() == "different", vmap);
  if (failed(function))
    return failure();

  OpBuilder builder(vmap);
  auto call = builder.create<func::CallOp>(vmap.getLoc(), function->function,
                                           vmap.getOperands());
  for (auto [result, value, axis, outAxis] :
       llvm::zip_equal(vmap.getResults(), call.getResults(),
                       function->resultAxes, vmap.getOutAxes())) {
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
