//===- Differentiation.cpp - Reverse-mode gradients of functions ----------===//
//
// A gradient function runs the member function's forward pass, with every
// call inlined so that the adjoint sweep sees one straight-line program, and
// then visits the forward ops in reverse, applying each op's VJP rule to the
// adjoints of its results. Rules read the forward values, which therefore
// stay live instead of being recomputed; adjoints of values used several
// times are summed.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Interfaces/AutodiffOpInterface.h"
#include "ens/Dialect/Ens/Transforms/FunctionTransformer.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-autodiff"

using namespace mlir;
using namespace mlir::ens;

/// Calls are inlined into the forward pass, so a call tree that branches at
/// every level grows exponentially; stop beyond kMaxInlinedOps ops, the
/// bound of every pass that inlines.
static constexpr size_t kMaxTapeOps = kMaxInlinedOps;

static bool isFloatTensor(Value value) {
  return isa<FloatType>(getElementTypeOrSelf(value.getType()));
}

FailureOr<func::FuncOp>
FunctionTransformer::createGradient(func::FuncOp callee,
                                    ArrayRef<int64_t> wrt) {
  FunctionType type = callee.getFunctionType();
  SmallVector<Type> resultTypes{type.getResult(0)};
  for (int64_t index : wrt)
    resultTypes.push_back(type.getInput(index));
  func::FuncOp function = createFunction(
      callee, "_grad",
      FunctionType::get(module.getContext(), type.getInputs(), resultTypes));
  OpBuilder builder = OpBuilder::atBlockBegin(function.addEntryBlock());

  // The forward pass, with calls inlined; `tape` lists its ops in order.
  SmallVector<Operation *> tape;
  std::function<FailureOr<SmallVector<Value>>(func::FuncOp, ValueRange)>
      emitInline = [&](func::FuncOp body,
                       ValueRange args) -> FailureOr<SmallVector<Value>> {
    if (failed(lowerAll(body)))
      return failure();
    IRMapping mapping;
    mapping.map(body.getArguments(), args);
    for (Operation &op : body.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op))
        return llvm::to_vector(llvm::map_range(
            ret.getOperands(), [&](Value v) { return mapping.lookup(v); }));
      auto call = dyn_cast<func::CallOp>(op);
      if (!call) {
        if (tape.size() == kMaxTapeOps)
          return callee.emitOpError()
                 << "has more than " << kMaxTapeOps
                 << " ops once its calls are inlined, too many to "
                    "differentiate";
        tape.push_back(builder.clone(op, mapping));
        continue;
      }
      auto target = symbols.lookup<func::FuncOp>(call.getCallee());
      if (failed(enter(target, call)))
        return failure();
      SmallVector<Value> operands;
      for (Value operand : call.getOperands())
        operands.push_back(mapping.lookup(operand));
      FailureOr<SmallVector<Value>> results = emitInline(target, operands);
      inProgress.remove(target);
      if (failed(results))
        return failure();
      mapping.map(call.getResults(), *results);
    }
    return failure();
  };
  FailureOr<SmallVector<Value>> outputs =
      emitInline(callee, function.getArguments());
  if (failed(outputs))
    return failure();

  // The adjoint sweep, seeded with d loss / d loss = 1.
  Value loss = outputs->front();
  auto lossType = cast<RankedTensorType>(loss.getType());
  llvm::DenseMap<Value, Value> adjoints;
  adjoints[loss] = builder.create<ConstantOp>(
      callee.getLoc(),
      DenseElementsAttr::get(
          lossType, builder.getFloatAttr(lossType.getElementType(), 1.0)));
  for (Operation *op : llvm::reverse(tape)) {
    SmallVector<Value> resultGrads;
    for (Value result : op->getResults())
      resultGrads.push_back(adjoints.lookup(result));
    if (llvm::none_of(resultGrads, [](Value g) { return bool(g); }))
      continue;
    auto rule = dyn_cast<AutodiffOpInterface>(op);
    if (!rule)
      return op->emitOpError() << "has no differentiation rule";
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] the VJP of " << op->getName()
                            << " at " << op->getLoc() << "\n");
    FailureOr<SmallVector<Value>> grads = rule.vjp(builder, resultGrads);
    if (failed(grads))
      return failure();
    for (auto [operand, grad] : llvm::zip_equal(op->getOperands(), *grads)) {
      if (!grad || !isFloatTensor(operand))
        continue;
      Value &adjoint = adjoints[operand];
      adjoint =
          adjoint ? builder.create<AddOp>(op->getLoc(), adjoint, grad) : grad;
    }
  }

  SmallVector<Value> returned{loss};
  for (int64_t index : wrt) {
    Value arg = function.getArgument(index);
    Value adjoint = adjoints.lookup(arg);
    if (!adjoint) {
      // The loss does not depend on this argument.
      auto argType = cast<RankedTensorType>(arg.getType());
      adjoint = builder.create<ConstantOp>(
          callee.getLoc(),
          DenseElementsAttr::get(
              argType, builder.getFloatAttr(argType.getElementType(), 0.0)));
    }
    returned.push_back(adjoint);
  }
  builder.create<func::ReturnOp>(callee.getLoc(), returned);

  // Forward values that neither the loss nor any adjoint needs.
  IRRewriter rewriter(module.getContext());
  (void)runRegionDCE(rewriter, function.getBody());
  return function;
}

LogicalResult FunctionTransformer::lowerValueAndGrad(ValueAndGradOp op) {
  auto callee = symbols.lookup<func::FuncOp>(op.getCallee());
  FailureOr<func::FuncOp> gradient =
      getOrCreateGradient(callee, op.getWrt(), op);
  if (failed(gradient))
    return failure();
  OpBuilder builder(op);
  auto call =
      builder.create<func::CallOp>(op.getLoc(), *gradient, op.getArgs());
  op.replaceAllUsesWith(call.getResults());
  op.erase();
  return success();
}
