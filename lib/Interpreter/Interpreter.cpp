//===- Interpreter.cpp - Reference interpreter for ens programs -----------===//
//
// Walks a function's single block in order, keeping one host tensor per SSA
// value. Each ens op maps to one reference kernel.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Interpreter.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"
#include "ens/Interpreter/Kernels.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ens;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

/// Recursion has no base case in a language without control flow, so a deep
/// call chain is a recursive program; stop it before the host stack does.
static constexpr unsigned kMaxCallDepth = 256;

/// A vmap runs its callee once per member, so a huge size with small (or no)
/// results would run for hours; stop it up front instead.
static constexpr int64_t kMaxVmapSize = int64_t(1) << 20;

/// Calls branch without control flow to stop them, so a short program can
/// run exponentially many ops; stop it when it has run this many.
static constexpr int64_t kMaxOpsRun = int64_t(1) << 22;

static HostTensor fromElements(DenseElementsAttr elements) {
  auto type = cast<RankedTensorType>(elements.getType());
  DType dtype = *getDType(type.getElementType());
  std::vector<double> values;
  values.reserve(elements.getNumElements());
  if (isFloatDType(dtype)) {
    for (const APFloat &v : elements.getValues<APFloat>())
      values.push_back(v.convertToDouble());
  } else {
    for (const APInt &v : elements.getValues<APInt>())
      values.push_back(dtype == DType::I1 ? double(v.getBoolValue())
                                          : double(v.getSExtValue()));
  }
  return HostTensor(dtype, type.getShape(), std::move(values));
}

static ref::CompareKind toCompareKind(CmpPredicate predicate) {
  switch (predicate) {
  case CmpPredicate::lt:
    return ref::CompareKind::Lt;
  case CmpPredicate::le:
    return ref::CompareKind::Le;
  case CmpPredicate::gt:
    return ref::CompareKind::Gt;
  case CmpPredicate::ge:
    return ref::CompareKind::Ge;
  case CmpPredicate::eq:
    return ref::CompareKind::Eq;
  case CmpPredicate::ne:
    return ref::CompareKind::Ne;
  }
  llvm_unreachable("unknown predicate");
}

/// The element labels of an einsum operand, as the kernels take them.
static SmallVector<int64_t> toLabels(StringRef labels) {
  return SmallVector<int64_t>(labels.begin(), labels.end());
}

static ArrayRef<int64_t> resultShape(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getShape();
}

static DType resultDType(Operation *op) {
  return *getDType(
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType());
}

/// Beyond this many multiply-adds, a contraction's reference kernel would run
/// for minutes.
static constexpr int64_t kMaxMultiplyAdds = int64_t(1) << 30;

/// Checks the work of the contraction `op`: one multiply-add per result
/// element and index of the summed dimensions, whose sizes are `summed`.
static llvm::Error checkMultiplyAdds(Operation *op, ArrayRef<int64_t> summed) {
  int64_t count = getNumElements(resultShape(op));
  if (count == 0 || llvm::is_contained(summed, 0))
    return llvm::Error::success();
  for (int64_t size : summed)
    if (llvm::MulOverflow(count, size, count) || count > kMaxMultiplyAdds)
      return createStringError(
          inconvertibleErrorCode(),
          llvm::formatv("'{0}' needs more than {1} multiply-adds, the "
                        "interpreter's limit",
                        op->getName().getStringRef(), kMaxMultiplyAdds));
  return llvm::Error::success();
}

namespace {
/// Evaluates one single-result ens op on its operand values.
class OpEvaluator {
public:
  OpEvaluator(ArrayRef<HostTensor> operands, ArrayRef<int64_t> memberPath)
      : operands(operands), memberPath(memberPath) {}

  llvm::Expected<HostTensor> evaluate(Operation *op) {
    using namespace ref;
    const HostTensor &x = operands.empty() ? empty : operands[0];
    auto y = [&] { return operands[1]; };
    return llvm::TypeSwitch<Operation *, llvm::Expected<HostTensor>>(op)
        // Elementwise.
        .Case([&](AddOp) { return binary(BinaryKind::Add, x, y()); })
        .Case([&](SubOp) { return binary(BinaryKind::Sub, x, y()); })
        .Case([&](MulOp) { return binary(BinaryKind::Mul, x, y()); })
        .Case([&](DivOp) { return binary(BinaryKind::Div, x, y()); })
        .Case([&](MaxOp) { return binary(BinaryKind::Max, x, y()); })
        .Case([&](MinOp) { return binary(BinaryKind::Min, x, y()); })
        .Case([&](PowOp) { return binary(BinaryKind::Pow, x, y()); })
        .Case([&](NegOp) { return unary(UnaryKind::Neg, x); })
        .Case([&](ExpOp) { return unary(UnaryKind::Exp, x); })
        .Case([&](LogOp) { return unary(UnaryKind::Log, x); })
        .Case([&](TanhOp) { return unary(UnaryKind::Tanh, x); })
        .Case([&](SigmoidOp) { return unary(UnaryKind::Sigmoid, x); })
        .Case([&](ReluOp) { return unary(UnaryKind::Relu, x); })
        .Case([&](SqrtOp) { return unary(UnaryKind::Sqrt, x); })
        .Case([&](RsqrtOp) { return unary(UnaryKind::Rsqrt, x); })
        .Case([&](AbsOp) { return unary(UnaryKind::Abs, x); })
        .Case([&](SquareOp) { return unary(UnaryKind::Square, x); })
        .Case([&](CmpOp cmp) {
          return compare(toCompareKind(cmp.getPredicate()), x, y());
        })
        .Case([&](SelectOp) { return select(x, y(), operands[2]); })
        .Case([&](ConvertOp op) { return convert(x, resultDType(op)); })
        // Constants and shapes.
        .Case([&](ConstantOp constant) -> llvm::Expected<HostTensor> {
          if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
            return fromElements(dense);
          return createStringError(inconvertibleErrorCode(),
                                   "only dense constants can be evaluated");
        })
        .Case([&](BroadcastInDimOp op) {
          return broadcastInDim(x, resultShape(op), op.getDims());
        })
        .Case([&](ReshapeOp op) { return reshape(x, resultShape(op)); })
        .Case([&](TransposeOp op) { return transpose(x, op.getPermutation()); })
        .Case([&](SliceOp op) {
          return slice(x, op.getStart(), op.getLimit(), op.getStride());
        })
        .Case([&](ConcatOp op) { return concat(operands, op.getDim()); })
        .Case([&](TakeOp op) { return take(x, y(), op.getAxis()); })
        .Case([&](OneHotOp op) {
          return oneHot(x, resultShape(op).back(), resultDType(op));
        })
        // Reductions and normalisations.
        .Case([&](ReduceSumOp op) {
          return reduce(ReduceKind::Sum, x, op.getDims());
        })
        .Case([&](ReduceMaxOp op) {
          return reduce(ReduceKind::Max, x, op.getDims());
        })
        .Case([&](ReduceMeanOp op) {
          return reduce(ReduceKind::Mean, x, op.getDims());
        })
        .Case([&](LogsumexpOp op) {
          return reduce(ReduceKind::LogSumExp, x, op.getDims());
        })
        .Case([&](SoftmaxOp op) { return softmax(x, op.getDim()); })
        .Case([&](LogSoftmaxOp op) { return logSoftmax(x, op.getDim()); })
        // Contractions.
        .Case([&](EinsumOp op) -> llvm::Expected<HostTensor> {
          FailureOr<EinsumSpec> spec =
              EinsumSpec::parse(op.getSpec(), std::nullopt);
          if (failed(spec))
            return createStringError(inconvertibleErrorCode(),
                                     "invalid einsum spec");
          SmallVector<int64_t> summed;
          for (auto [i, label] : llvm::enumerate(spec->lhs))
            if (!llvm::is_contained(spec->out, label))
              summed.push_back(x.shape[i]);
          for (auto [i, label] : llvm::enumerate(spec->rhs))
            if (!llvm::is_contained(spec->out, label) &&
                !llvm::is_contained(spec->lhs, label))
              summed.push_back(y().shape[i]);
          if (llvm::Error error = checkMultiplyAdds(op, summed))
            return std::move(error);
          return contract(x, toLabels(spec->lhs), y(), toLabels(spec->rhs),
                          toLabels(spec->out));
        })
        .Case([&](TensordotOp op) -> llvm::Expected<HostTensor> {
          SmallVector<int64_t> summed;
          for (int64_t d : op.getLhsDims())
            summed.push_back(x.shape[d]);
          if (llvm::Error error = checkMultiplyAdds(op, summed))
            return std::move(error);
          return tensordot(x, y(), op.getLhsDims(), op.getRhsDims());
        })
        .Case([&](MatmulOp op) -> llvm::Expected<HostTensor> {
          if (llvm::Error error = checkMultiplyAdds(op, x.shape.back()))
            return std::move(error);
          return matmul(x, y());
        })
        .Case([&](ConvOp op) -> llvm::Expected<HostTensor> {
          // Each result element sums over one group's input features and
          // every filter tap.
          ConvDims dims = op.getConvDims();
          SmallVector<int64_t> summed{y().shape[dims.rhs[1]]};
          for (int64_t i = 0; i < dims.getSpatialRank(); ++i)
            summed.push_back(y().shape[dims.rhs[2 + i]]);
          if (llvm::Error error = checkMultiplyAdds(op, summed))
            return std::move(error);
          return conv(x, y(), dims, resultShape(op));
        })
        .Case([&](ReduceWindowOp op) -> llvm::Expected<HostTensor> {
          Window window = op.getWindow();
          if (llvm::Error error = checkMultiplyAdds(op, window.dimensions))
            return std::move(error);
          return reduceWindow(op.getKind() == WindowKind::max ? ReduceKind::Max
                                                              : ReduceKind::Sum,
                              x, window, resultShape(op));
        })
        // Adjoints of slice and take.
        .Case([&](PadOp op) {
          return pad(x, op.getLow(), op.getHigh(), op.getInterior());
        })
        .Case([&](ScatterAddOp op) {
          return scatterAdd(x, y(), op.getAxis(), resultShape(op));
        })
        // Random numbers.
        .Case(
            [&](RandomUniformOp op) { return draw(Distribution::Uniform, op); })
        .Case([&](RandomNormalOp op) { return draw(Distribution::Normal, op); })
        .Case([&](RandomSplitOp op) {
          return randomSplit(x, resultShape(op).drop_back().back());
        })
        .Case([&](RandomFoldInOp) { return randomFoldIn(x, y()); })
        .Case([&](ValueAndGradOp) -> llvm::Expected<HostTensor> {
          return createStringError(inconvertibleErrorCode(),
                                   "ens.value_and_grad must be lowered by "
                                   "--ens-autodiff before it can run");
        })
        .Default([&](Operation *op) -> llvm::Expected<HostTensor> {
          return createStringError(
              inconvertibleErrorCode(),
              llvm::formatv("the interpreter cannot run '{0}'",
                            op->getName().getStringRef()));
        });
  }

private:
  /// Inside members of vmaps with randomness "different", each draw folds
  /// the member indices into its keys, innermost first, as ens-batch does.
  HostTensor draw(ref::Distribution distribution, Operation *op) {
    HostTensor keys = operands[0];
    for (int64_t member : llvm::reverse(memberPath)) {
      HostTensor data(DType::I32, ArrayRef<int64_t>(keys.shape).drop_back());
      std::fill(data.values.begin(), data.values.end(), double(member));
      keys = ref::randomFoldIn(keys, data);
    }
    ArrayRef<int64_t> blockShape =
        resultShape(op).drop_front(keys.getRank() - 1);
    return ref::randomDraw(distribution, keys, blockShape, resultDType(op));
  }

  ArrayRef<HostTensor> operands;
  ArrayRef<int64_t> memberPath;
  HostTensor empty;
};
} // namespace

Interpreter::Interpreter(ModuleOp module) : symbols(module) {}

llvm::Expected<std::vector<HostTensor>>
Interpreter::run(StringRef entry, ArrayRef<HostTensor> args) {
  auto function = symbols.lookup<func::FuncOp>(entry);
  if (!function)
    return createStringError(inconvertibleErrorCode(),
                             llvm::formatv("no function named '{0}'", entry));
  return run(function, args);
}

llvm::Expected<std::vector<HostTensor>>
Interpreter::run(func::FuncOp function, ArrayRef<HostTensor> args) {
  auto fail = [&](const llvm::Twine &message) {
    return createStringError(inconvertibleErrorCode(),
                             "@" + function.getSymName() + ": " + message);
  };
  if (function.isExternal())
    return fail("function has no body");
  if (!function.getBody().hasOneBlock())
    return fail("functions with control flow are not supported");
  if (llvm::Error error = checkArguments(function.getFunctionType(), args))
    return fail(llvm::toString(std::move(error)));
  if (callDepth >= kMaxCallDepth)
    return fail(llvm::formatv("call depth exceeds {0}; is the program "
                              "recursive?",
                              kMaxCallDepth));
  if (callDepth == 0)
    opsRun = 0;

  llvm::DenseMap<Value, HostTensor> env;
  for (auto [argument, value] : llvm::zip_equal(function.getArguments(), args))
    env[argument] = value;
  auto gather = [&](ValueRange values) {
    std::vector<HostTensor> result;
    for (Value value : values)
      result.push_back(env.at(value));
    return result;
  };

  for (Operation &op : function.getBody().front()) {
    if (++opsRun > kMaxOpsRun)
      return fail(llvm::formatv("the program runs more than {0} ops, the "
                                "interpreter's limit",
                                kMaxOpsRun));
    if (auto ret = dyn_cast<func::ReturnOp>(op))
      return gather(ret.getOperands());
    for (auto [i, type] : llvm::enumerate(op.getResultTypes()))
      if (llvm::Error error = checkTensorType(type))
        return fail(llvm::formatv("result {0} of '{1}': {2}", i,
                                  op.getName().getStringRef(),
                                  llvm::toString(std::move(error))));
    std::vector<HostTensor> results;
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee)
        return fail(
            llvm::formatv("call to unknown function @{0}", call.getCallee()));
      llvm::Expected<std::vector<HostTensor>> values =
          runCallee(callee, gather(call.getOperands()));
      if (!values)
        return values.takeError();
      results = std::move(*values);
    } else if (auto vmap = dyn_cast<VmapOp>(op)) {
      llvm::Expected<std::vector<HostTensor>> values =
          runVmap(vmap, gather(vmap.getArgs()));
      if (!values)
        return values.takeError();
      results = std::move(*values);
    } else {
      std::vector<HostTensor> operands = gather(op.getOperands());
      llvm::Expected<HostTensor> value =
          OpEvaluator(operands, memberPath).evaluate(&op);
      if (!value)
        return fail(llvm::toString(value.takeError()));
      results.push_back(std::move(*value));
    }
    for (auto [result, value] : llvm::zip_equal(op.getResults(), results))
      env[result] = std::move(value);
  }
  return fail("function body has no terminator");
}

llvm::Expected<std::vector<HostTensor>>
Interpreter::runCallee(func::FuncOp callee, ArrayRef<HostTensor> args) {
  ++callDepth;
  llvm::Expected<std::vector<HostTensor>> results = run(callee, args);
  --callDepth;
  return results;
}

/// By definition: one call per member on its slices of the batched
/// arguments, with the members' results stacked.
llvm::Expected<std::vector<HostTensor>>
Interpreter::runVmap(VmapOp vmap, ArrayRef<HostTensor> args) {
  auto callee = symbols.lookup<func::FuncOp>(vmap.getCallee());
  if (!callee)
    return createStringError(
        inconvertibleErrorCode(),
        llvm::formatv("vmap of unknown function @{0}", vmap.getCallee()));
  if (vmap.getSize() > kMaxVmapSize)
    return createStringError(
        inconvertibleErrorCode(),
        llvm::formatv("vmap of @{0} has {1} members, more than the "
                      "interpreter runs ({2})",
                      vmap.getCallee(), vmap.getSize(), kMaxVmapSize));
  std::vector<std::vector<HostTensor>> members(vmap.getNumResults());
  for (int64_t member = 0, size = vmap.getSize(); member < size; ++member) {
    std::vector<HostTensor> memberArgs;
    for (auto [arg, axis] : llvm::zip_equal(args, vmap.getInAxes()))
      memberArgs.push_back(axis == -1 ? arg
                                      : ref::indexAxis(arg, axis, member));
    bool different = vmap.getRandomness() == "different";
    if (different)
      memberPath.push_back(member);
    llvm::Expected<std::vector<HostTensor>> results =
        runCallee(callee, memberArgs);
    if (different)
      memberPath.pop_back();
    if (!results)
      return results.takeError();
    for (auto [stacked, result] : llvm::zip_equal(members, *results))
      stacked.push_back(std::move(result));
  }
  std::vector<HostTensor> results;
  for (auto [stacked, axis] : llvm::zip_equal(members, vmap.getOutAxes()))
    results.push_back(ref::stack(stacked, axis));
  return results;
}
