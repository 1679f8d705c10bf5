//===- FunctionBuilder.cpp - Building functions from C++ ------------------===//
//
// Each method creates one op with its result type computed by the same
// shape rules as the verifier (ShapeInference.h), then verifies it; any
// failure removes the op and throws with the dialect's own message. A
// method that adds more than one op (a scalar's broadcast, a number's
// constant, a library call) does so inside a BuilderTransaction, which
// removes them all if one fails.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ens;
namespace me = mlir::ens;

FunctionBuilder::Impl::Impl(std::shared_ptr<Module::Impl> module,
                            mlir::func::FuncOp function)
    : module(std::move(module)), function(function),
      builder(function.getContext()) {
  builder.setInsertionPointToEnd(&function.getBody().front());
  for (mlir::Value arg : function.getArguments())
    values.push_back(arg);
}

BuilderTransaction::BuilderTransaction(FunctionBuilder::Impl &impl)
    : impl(impl), lock(impl.module->context->mutex),
      numValues(impl.values.size()) {
  mlir::Block &body = impl.function.getBody().front();
  lastOp = body.empty() ? nullptr : &body.back();
  lastGlobal = &impl.module->module->getBody()->back();
}

BuilderTransaction::~BuilderTransaction() {
  if (committed)
    return;
  // Newest first, so that each op goes after its users.
  mlir::Block &body = impl.function.getBody().front();
  while (!body.empty() && &body.back() != lastOp)
    body.back().erase();
  mlir::Block *module = impl.module->module->getBody();
  while (&module->back() != lastGlobal)
    module->back().erase();
  impl.values.resize(numValues);
}

FunctionBuilder::FunctionBuilder(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

FunctionBuilder::FunctionBuilder(FunctionBuilder &&) = default;

FunctionBuilder::~FunctionBuilder() {
  // A function left without a terminator would make the module invalid.
  if (impl_ && !impl_->finished) {
    std::lock_guard<std::recursive_mutex> lock(impl_->module->context->mutex);
    impl_->function.erase();
  }
}

int64_t FunctionBuilder::id(const Value &value, const char *op) const {
  if (value.owner_ != impl_.get() || value.id_ < 0 ||
      value.id_ >= static_cast<int64_t>(impl_->values.size()))
    throw Error(std::string("ens.") + op + ": an operand is not a value of @" +
                impl_->function.getSymName().str());
  return value.id_;
}

Value FunctionBuilder::wrap(int64_t id) const {
  return Value(impl_.get(), id, toTensorType(impl_->values[id].getType()));
}

Value FunctionBuilder::arg(size_t i) const {
  if (i >= impl_->function.getNumArguments())
    throw Error("@" + impl_->function.getSymName().str() + " has " +
                std::to_string(impl_->function.getNumArguments()) +
                " arguments, not " + std::to_string(i + 1));
  return wrap(static_cast<int64_t>(i));
}

namespace {
/// One op being added: holds the lock, collects diagnostics, verifies.
class OpMaker {
public:
  OpMaker(FunctionBuilder::Impl &impl, const char *name)
      : impl(impl), lock(impl.module->context->mutex),
        diagnostics(impl.builder.getContext()), name(name),
        loc(mlir::NameLoc::get(impl.builder.getStringAttr(name))) {
    if (impl.finished)
      throw Error(std::string("cannot add ens.") + name + ": @" +
                  impl.function.getSymName().str() + " is finished");
  }

  mlir::Value operator[](int64_t id) const { return impl.values[id]; }
  mlir::OpBuilder &b() { return impl.builder; }
  mlir::Location location() const { return loc; }
  mlir::Type elementOf(mlir::Value value) const {
    return mlir::getElementTypeOrSelf(value.getType());
  }

  /// The result type from a shape rule, or the rule's message.
  mlir::RankedTensorType typeFrom(mlir::FailureOr<me::Shape> shape,
                                  mlir::Type elementType) const {
    if (failed(shape))
      diagnostics.fail(std::string("ens.") + name);
    return mlir::RankedTensorType::get(*shape, elementType);
  }

  /// Verifies `op` and returns the ids of its results, or removes it.
  std::vector<int64_t> finish(mlir::Operation *op) {
    mlir::SymbolTableCollection symbols;
    auto user = mlir::dyn_cast<mlir::SymbolUserOpInterface>(op);
    if (failed(mlir::verify(op)) ||
        (user && failed(user.verifySymbolUses(symbols)))) {
      op->erase();
      diagnostics.fail(std::string("ens.") + name);
    }
    std::vector<int64_t> ids;
    for (mlir::Value result : op->getResults()) {
      ids.push_back(impl.values.size());
      impl.values.push_back(result);
    }
    return ids;
  }
  int64_t finishOne(mlir::Operation *op) { return finish(op).front(); }

  [[noreturn]] void fail(const std::string &message) const {
    throw Error(std::string("ens.") + name + ": " + message);
  }

private:
  FunctionBuilder::Impl &impl;
  std::lock_guard<std::recursive_mutex> lock;
  DiagnosticCollector diagnostics;
  const char *name;
  mlir::Location loc;
};

/// The shape of `value`.
llvm::ArrayRef<int64_t> shapeOf(mlir::Value value) {
  return mlir::cast<mlir::RankedTensorType>(value.getType()).getShape();
}

/// `operands` with each rank-0 one broadcast to the shape of the first one
/// of higher rank: a scalar combines with a tensor of any shape. The ens
/// dialect never broadcasts implicitly; the builder does it for scalars
/// only, where no shape is ambiguous.
llvm::SmallVector<mlir::Value> broadcastScalars(OpMaker &m,
                                                mlir::ValueRange operands) {
  auto shaped = llvm::find_if(
      operands, [](mlir::Value v) { return !shapeOf(v).empty(); });
  llvm::SmallVector<mlir::Value> result(operands);
  if (shaped == operands.end())
    return result;
  llvm::ArrayRef<int64_t> shape = shapeOf(*shaped);
  for (mlir::Value &operand : result)
    if (shapeOf(operand).empty())
      operand = m[m.finishOne(m.b().create<me::BroadcastInDimOp>(
          m.location(),
          mlir::RankedTensorType::get(shape, m.elementOf(operand)), operand,
          llvm::ArrayRef<int64_t>()))];
  return result;
}

/// Creates the elementwise op `name` on `operands` (same type as the first).
mlir::Operation *createElementwise(OpMaker &m, llvm::StringRef name,
                                   mlir::ValueRange operands) {
  mlir::OperationState state(m.location(), ("ens." + name).str());
  state.addOperands(operands);
  state.addTypes(operands.front().getType());
  return m.b().create(state);
}
} // namespace

Value FunctionBuilder::unary(const char *op, Value x) {
  OpMaker m(*impl_, op);
  return wrap(m.finishOne(createElementwise(m, op, m[id(x, op)])));
}

Value FunctionBuilder::binary(const char *op, Value lhs, Value rhs) {
  // Undoes the scalar's broadcast if the op does not fit.
  BuilderTransaction transaction(*impl_);
  OpMaker m(*impl_, op);
  Value result = wrap(m.finishOne(createElementwise(
      m, op, broadcastScalars(m, {m[id(lhs, op)], m[id(rhs, op)]}))));
  transaction.commit();
  return result;
}

Value FunctionBuilder::binary(const char *op, Value x, double number,
                              bool numberFirst) {
  BuilderTransaction transaction(*impl_);
  // Rank 0 and broadcast, rather than a splat of x's shape, whose
  // attribute would hold every element.
  Value constant = this->constant({x.type().dtype, {}}, {number});
  Value result =
      numberFirst ? binary(op, constant, x) : binary(op, x, constant);
  transaction.commit();
  return result;
}

Value FunctionBuilder::add(Value l, Value r) { return binary("add", l, r); }
Value FunctionBuilder::sub(Value l, Value r) { return binary("sub", l, r); }
Value FunctionBuilder::mul(Value l, Value r) { return binary("mul", l, r); }
Value FunctionBuilder::div(Value l, Value r) { return binary("div", l, r); }
Value FunctionBuilder::max(Value l, Value r) { return binary("max", l, r); }
Value FunctionBuilder::min(Value l, Value r) { return binary("min", l, r); }
Value FunctionBuilder::pow(Value l, Value r) { return binary("pow", l, r); }
Value FunctionBuilder::add(Value l, double r) {
  return binary("add", l, r, false);
}
Value FunctionBuilder::add(double l, Value r) {
  return binary("add", r, l, true);
}
Value FunctionBuilder::sub(Value l, double r) {
  return binary("sub", l, r, false);
}
Value FunctionBuilder::sub(double l, Value r) {
  return binary("sub", r, l, true);
}
Value FunctionBuilder::mul(Value l, double r) {
  return binary("mul", l, r, false);
}
Value FunctionBuilder::mul(double l, Value r) {
  return binary("mul", r, l, true);
}
Value FunctionBuilder::div(Value l, double r) {
  return binary("div", l, r, false);
}
Value FunctionBuilder::div(double l, Value r) {
  return binary("div", r, l, true);
}
Value FunctionBuilder::max(Value l, double r) {
  return binary("max", l, r, false);
}
Value FunctionBuilder::max(double l, Value r) {
  return binary("max", r, l, true);
}
Value FunctionBuilder::min(Value l, double r) {
  return binary("min", l, r, false);
}
Value FunctionBuilder::min(double l, Value r) {
  return binary("min", r, l, true);
}
Value FunctionBuilder::pow(Value l, double r) {
  return binary("pow", l, r, false);
}
Value FunctionBuilder::pow(double l, Value r) {
  return binary("pow", r, l, true);
}
Value FunctionBuilder::neg(Value x) { return unary("neg", x); }
Value FunctionBuilder::exp(Value x) { return unary("exp", x); }
Value FunctionBuilder::log(Value x) { return unary("log", x); }
Value FunctionBuilder::tanh(Value x) { return unary("tanh", x); }
Value FunctionBuilder::sigmoid(Value x) { return unary("sigmoid", x); }
Value FunctionBuilder::relu(Value x) { return unary("relu", x); }
Value FunctionBuilder::sqrt(Value x) { return unary("sqrt", x); }
Value FunctionBuilder::rsqrt(Value x) { return unary("rsqrt", x); }
Value FunctionBuilder::abs(Value x) { return unary("abs", x); }
Value FunctionBuilder::square(Value x) { return unary("square", x); }

Value FunctionBuilder::cmp(Predicate predicate, Value lhs, Value rhs) {
  BuilderTransaction transaction(*impl_);
  OpMaker m(*impl_, "cmp");
  llvm::SmallVector<mlir::Value> operands =
      broadcastScalars(m, {m[id(lhs, "cmp")], m[id(rhs, "cmp")]});
  auto type =
      mlir::RankedTensorType::get(shapeOf(operands[0]), m.b().getI1Type());
  Value result = wrap(m.finishOne(m.b().create<me::CmpOp>(
      m.location(), type, static_cast<me::CmpPredicate>(predicate), operands[0],
      operands[1])));
  transaction.commit();
  return result;
}

Value FunctionBuilder::cmp(Predicate predicate, Value lhs, double rhs) {
  BuilderTransaction transaction(*impl_);
  Value result = cmp(predicate, lhs, constant({lhs.type().dtype, {}}, {rhs}));
  transaction.commit();
  return result;
}

Value FunctionBuilder::select(Value cond, Value onTrue, Value onFalse) {
  BuilderTransaction transaction(*impl_);
  OpMaker m(*impl_, "select");
  llvm::SmallVector<mlir::Value> operands =
      broadcastScalars(m, {m[id(cond, "select")], m[id(onTrue, "select")],
                           m[id(onFalse, "select")]});
  Value result = wrap(m.finishOne(
      m.b().create<me::SelectOp>(m.location(), operands[1].getType(),
                                 operands[0], operands[1], operands[2])));
  transaction.commit();
  return result;
}

Value FunctionBuilder::convert(Value x, DType dtype) {
  OpMaker m(*impl_, "convert");
  mlir::Value v = m[id(x, "convert")];
  auto type = mlir::RankedTensorType::get(
      mlir::cast<mlir::RankedTensorType>(v.getType()).getShape(),
      toElementType(m.b().getContext(), dtype));
  return wrap(m.finishOne(m.b().create<me::ConvertOp>(m.location(), type, v)));
}

Value FunctionBuilder::constant(TensorType type,
                                const std::vector<double> &values) {
  OpMaker m(*impl_, "constant");
  if (values.size() != 1 &&
      static_cast<int64_t>(values.size()) != type.numElements())
    m.fail("a constant " + type.str() + " needs 1 or " +
           std::to_string(type.numElements()) + " values, got " +
           std::to_string(values.size()));
  // Tensor rounds to the element type and lays the values out.
  Tensor tensor(type, values.size() == 1
                          ? std::vector<double>(type.numElements(), values[0])
                          : values);
  mlir::RankedTensorType mlirType = toMlirType(m.b().getContext(), type);
  llvm::ArrayRef<char> raw(static_cast<const char *>(tensor.data()),
                           tensor.byteSize());
  bool detectedSplat = false;
  mlir::DenseElementsAttr attr;
  if (type.dtype == DType::I1) {
    llvm::SmallVector<bool> bits;
    for (double value : tensor.values())
      bits.push_back(value != 0);
    attr = mlir::DenseElementsAttr::get(mlirType, llvm::ArrayRef<bool>(bits));
  } else if (mlir::DenseElementsAttr::isValidRawBuffer(mlirType, raw,
                                                       detectedSplat)) {
    attr = mlir::DenseElementsAttr::getFromRawBuffer(mlirType, raw);
  } else {
    m.fail("cannot make a constant " + type.str());
  }
  return wrap(m.finishOne(m.b().create<me::ConstantOp>(m.location(), attr)));
}

Value FunctionBuilder::broadcastInDim(Value x, std::vector<int64_t> shape,
                                      std::vector<int64_t> dims) {
  OpMaker m(*impl_, "broadcast_in_dim");
  mlir::Value v = m[id(x, "broadcast_in_dim")];
  auto type = mlir::RankedTensorType::get(shape, m.elementOf(v));
  return wrap(m.finishOne(
      m.b().create<me::BroadcastInDimOp>(m.location(), type, v, dims)));
}

Value FunctionBuilder::reshape(Value x, std::vector<int64_t> shape) {
  OpMaker m(*impl_, "reshape");
  mlir::Value v = m[id(x, "reshape")];
  auto type = mlir::RankedTensorType::get(shape, m.elementOf(v));
  return wrap(m.finishOne(m.b().create<me::ReshapeOp>(m.location(), type, v)));
}

Value FunctionBuilder::transpose(Value x, std::vector<int64_t> permutation) {
  OpMaker m(*impl_, "transpose");
  mlir::Value v = m[id(x, "transpose")];
  auto type =
      m.typeFrom(me::inferTransposeShape(m.location(), shapeOf(v), permutation),
                 m.elementOf(v));
  return wrap(m.finishOne(
      m.b().create<me::TransposeOp>(m.location(), type, v, permutation)));
}

Value FunctionBuilder::slice(Value x, std::vector<int64_t> start,
                             std::vector<int64_t> limit,
                             std::vector<int64_t> stride) {
  OpMaker m(*impl_, "slice");
  mlir::Value v = m[id(x, "slice")];
  auto type = m.typeFrom(
      me::inferSliceShape(m.location(), shapeOf(v), start, limit, stride),
      m.elementOf(v));
  return wrap(m.finishOne(
      m.b().create<me::SliceOp>(m.location(), type, v, start, limit, stride)));
}

Value FunctionBuilder::concat(const std::vector<Value> &inputs, int64_t dim) {
  OpMaker m(*impl_, "concat");
  if (inputs.empty())
    m.fail("needs at least one input");
  std::vector<mlir::Value> values;
  llvm::SmallVector<me::Shape> shapes;
  for (const Value &input : inputs) {
    values.push_back(m[id(input, "concat")]);
    shapes.push_back(me::Shape(shapeOf(values.back())));
  }
  auto type = m.typeFrom(me::inferConcatShape(m.location(), shapes, dim),
                         m.elementOf(values.front()));
  return wrap(
      m.finishOne(m.b().create<me::ConcatOp>(m.location(), type, values, dim)));
}

Value FunctionBuilder::take(Value table, Value indices, int64_t axis) {
  OpMaker m(*impl_, "take");
  mlir::Value t = m[id(table, "take")], i = m[id(indices, "take")];
  auto type =
      m.typeFrom(me::inferTakeShape(m.location(), shapeOf(t), shapeOf(i), axis),
                 m.elementOf(t));
  return wrap(
      m.finishOne(m.b().create<me::TakeOp>(m.location(), type, t, i, axis)));
}

Value FunctionBuilder::oneHot(Value indices, int64_t depth, DType dtype) {
  OpMaker m(*impl_, "one_hot");
  mlir::Value i = m[id(indices, "one_hot")];
  me::Shape shape(shapeOf(i));
  shape.push_back(depth);
  auto type = mlir::RankedTensorType::get(
      shape, toElementType(m.b().getContext(), dtype));
  return wrap(m.finishOne(m.b().create<me::OneHotOp>(m.location(), type, i)));
}

/// A reduction `OpTy` of `x` over `dims`.
template <typename OpTy>
static int64_t reduction(OpMaker &m, mlir::Value x,
                         const std::vector<int64_t> &dims) {
  auto type = m.typeFrom(me::inferReduceShape(m.location(), shapeOf(x), dims),
                         m.elementOf(x));
  return m.finishOne(m.b().create<OpTy>(m.location(), type, x, dims));
}

Value FunctionBuilder::reduceSum(Value x, std::vector<int64_t> dims) {
  OpMaker m(*impl_, "reduce_sum");
  return wrap(reduction<me::ReduceSumOp>(m, m[id(x, "reduce_sum")], dims));
}

Value FunctionBuilder::reduceMax(Value x, std::vector<int64_t> dims) {
  OpMaker m(*impl_, "reduce_max");
  return wrap(reduction<me::ReduceMaxOp>(m, m[id(x, "reduce_max")], dims));
}

Value FunctionBuilder::reduceMean(Value x, std::vector<int64_t> dims) {
  OpMaker m(*impl_, "reduce_mean");
  return wrap(reduction<me::ReduceMeanOp>(m, m[id(x, "reduce_mean")], dims));
}

Value FunctionBuilder::logsumexp(Value x, std::vector<int64_t> dims) {
  OpMaker m(*impl_, "logsumexp");
  return wrap(reduction<me::LogsumexpOp>(m, m[id(x, "logsumexp")], dims));
}

Value FunctionBuilder::softmax(Value x, int64_t dim) {
  OpMaker m(*impl_, "softmax");
  mlir::Value v = m[id(x, "softmax")];
  return wrap(m.finishOne(
      m.b().create<me::SoftmaxOp>(m.location(), v.getType(), v, dim)));
}

Value FunctionBuilder::logSoftmax(Value x, int64_t dim) {
  OpMaker m(*impl_, "log_softmax");
  mlir::Value v = m[id(x, "log_softmax")];
  return wrap(m.finishOne(
      m.b().create<me::LogSoftmaxOp>(m.location(), v.getType(), v, dim)));
}

Value FunctionBuilder::einsum(Value lhs, Value rhs, const std::string &spec) {
  OpMaker m(*impl_, "einsum");
  mlir::Value l = m[id(lhs, "einsum")], r = m[id(rhs, "einsum")];
  mlir::FailureOr<me::EinsumSpec> parsed =
      me::EinsumSpec::parse(spec, m.location());
  auto type = m.typeFrom(
      mlir::succeeded(parsed)
          ? me::inferEinsumShape(m.location(), *parsed, shapeOf(l), shapeOf(r))
          : mlir::FailureOr<me::Shape>(mlir::failure()),
      m.elementOf(l));
  return wrap(m.finishOne(m.b().create<me::EinsumOp>(
      m.location(), type, l, r, m.b().getStringAttr(spec))));
}

Value FunctionBuilder::tensordot(Value lhs, Value rhs,
                                 std::vector<int64_t> lhsDims,
                                 std::vector<int64_t> rhsDims) {
  OpMaker m(*impl_, "tensordot");
  mlir::Value l = m[id(lhs, "tensordot")], r = m[id(rhs, "tensordot")];
  auto type = m.typeFrom(me::inferTensordotShape(m.location(), shapeOf(l),
                                                 shapeOf(r), lhsDims, rhsDims),
                         m.elementOf(l));
  return wrap(m.finishOne(m.b().create<me::TensordotOp>(m.location(), type, l,
                                                        r, lhsDims, rhsDims)));
}

Value FunctionBuilder::matmul(Value lhs, Value rhs) {
  OpMaker m(*impl_, "matmul");
  mlir::Value l = m[id(lhs, "matmul")], r = m[id(rhs, "matmul")];
  auto type =
      m.typeFrom(me::inferMatmulShape(m.location(), shapeOf(l), shapeOf(r)),
                 m.elementOf(l));
  return wrap(
      m.finishOne(m.b().create<me::MatmulOp>(m.location(), type, l, r)));
}

/// `key`'s batch shape: all but its last dimension (of size 2, which the
/// verifier checks).
static me::Shape keyBatchShape(mlir::Value key) {
  llvm::ArrayRef<int64_t> shape = shapeOf(key);
  return me::Shape(shape.empty() ? shape : shape.drop_back());
}

/// A random op `OpTy` drawing `type` from each key of `key`.
template <typename OpTy>
static int64_t draw(OpMaker &m, mlir::Value key, const TensorType &type) {
  me::Shape shape = keyBatchShape(key);
  shape.append(type.shape.begin(), type.shape.end());
  auto resultType = mlir::RankedTensorType::get(
      shape, toElementType(m.b().getContext(), type.dtype));
  return m.finishOne(m.b().create<OpTy>(m.location(), resultType, key));
}

Value FunctionBuilder::randomUniform(Value key, TensorType type) {
  OpMaker m(*impl_, "random_uniform");
  return wrap(draw<me::RandomUniformOp>(m, m[id(key, "random_uniform")], type));
}

Value FunctionBuilder::randomNormal(Value key, TensorType type) {
  OpMaker m(*impl_, "random_normal");
  return wrap(draw<me::RandomNormalOp>(m, m[id(key, "random_normal")], type));
}

Value FunctionBuilder::randomSplit(Value key, int64_t count) {
  OpMaker m(*impl_, "random_split");
  mlir::Value k = m[id(key, "random_split")];
  me::Shape shape = keyBatchShape(k);
  shape.append({count, 2});
  auto type = mlir::RankedTensorType::get(shape, m.elementOf(k));
  return wrap(
      m.finishOne(m.b().create<me::RandomSplitOp>(m.location(), type, k)));
}

Value FunctionBuilder::randomFoldIn(Value key, Value data) {
  OpMaker m(*impl_, "random_fold_in");
  mlir::Value k = m[id(key, "random_fold_in")];
  return wrap(m.finishOne(m.b().create<me::RandomFoldInOp>(
      m.location(), k.getType(), k, m[id(data, "random_fold_in")])));
}

std::vector<Value> FunctionBuilder::call(const std::string &function,
                                         const std::vector<Value> &args) {
  OpMaker m(*impl_, "call");
  auto callee =
      impl_->module->module->lookupSymbol<mlir::func::FuncOp>(function);
  if (!callee)
    m.fail("no function named '" + function + "'");
  mlir::FunctionType type = callee.getFunctionType();
  if (args.size() != type.getNumInputs())
    m.fail("@" + function + " takes " + std::to_string(type.getNumInputs()) +
           " arguments, got " + std::to_string(args.size()));
  std::vector<mlir::Value> operands;
  for (auto [i, arg] : llvm::enumerate(args)) {
    operands.push_back(m[id(arg, "call")]);
    if (operands.back().getType() != type.getInput(i))
      m.fail("argument " + std::to_string(i) + " of @" + function +
             " must be " + toTensorType(type.getInput(i)).str() + ", got " +
             arg.type().str());
  }
  std::vector<Value> results;
  for (int64_t result : m.finish(
           m.b().create<mlir::func::CallOp>(m.location(), callee, operands)))
    results.push_back(wrap(result));
  return results;
}

std::vector<Value>
FunctionBuilder::callStdlib(const char *method, const char *name,
                            const std::vector<Value> &args,
                            const std::vector<TensorType> &results) {
  OpMaker m(*impl_, "stdlib_call");
  std::vector<mlir::Value> operands;
  for (const Value &arg : args)
    operands.push_back(m[id(arg, method)]);
  std::vector<mlir::Type> types;
  for (const TensorType &result : results)
    types.push_back(toMlirType(m.b().getContext(), result));
  std::vector<Value> values;
  for (int64_t result : m.finish(m.b().create<me::StdlibCallOp>(
           m.location(), types, m.b().getStringAttr(name), operands)))
    values.push_back(wrap(result));
  return values;
}

void FunctionBuilder::ret(const std::vector<Value> &results) {
  OpMaker m(*impl_, "return");
  std::vector<mlir::Value> values;
  for (const Value &result : results)
    values.push_back(m[id(result, "return")]);
  mlir::func::FuncOp function = impl_->function;
  function.setFunctionType(m.b().getFunctionType(
      function.getArgumentTypes(), mlir::ValueRange(values).getTypes()));
  m.finish(m.b().create<mlir::func::ReturnOp>(m.location(), values));
  impl_->finished = true;
}
