//===- StdlibBuilder.cpp - The standard library from C++ ------------------===//
//
// FunctionBuilder's losses, optimizers and initialisers. Each checks its
// operands, with messages naming the method and the types, then calls the
// library function with `ens.stdlib_call`, as IR using the library does:
// the math is written once, in stdlib/*.mlir, and the ens-stdlib pass
// instantiates it when the module is compiled.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

using namespace ens;

namespace {
/// Throws the Error of `method`.
[[noreturn]] void fail(const char *method, const std::string &message) {
  throw Error(std::string(method) + ": " + message);
}

bool isFloat(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

/// Checks that the operand `name` of `method` is a float tensor.
void expectFloat(const char *method, const char *name, const Value &value) {
  if (!isFloat(value.type().dtype))
    fail(method, std::string(name) + " must be a float tensor, got " +
                     value.type().str());
}

/// Checks that the operand `name` of `method` has `type`, which `what`
/// explains.
void expectType(const char *method, const char *name, const Value &value,
                const TensorType &type, const char *what) {
  if (value.type() != type)
    fail(method, std::string(name) + " must be " + type.str() + " (" + what +
                     "), got " + value.type().str());
}

/// Checks the operands of an initialiser, and returns the fans of a weight
/// of `type` as ens-train computes them: fan_in the product of all
/// dimensions but the last, fan_out the last (ens's matmul takes x [B, in]
/// and w [in, out]).
std::pair<double, double> initialiserFans(const char *method, const Value &key,
                                          const TensorType &type) {
  expectType(method, "the key", key, {DType::I32, {2}}, "one key");
  if (!isFloat(type.dtype) || type.shape.size() < 2)
    fail(method, "the weight must be a float tensor of rank 2 or more (its "
                 "fans are all dimensions but the last, and the last), got " +
                     type.str());
  double fanIn = 1;
  for (size_t d = 0; d < type.shape.size(); ++d) {
    if (type.shape[d] < 0)
      fail(method, "the weight must have static sizes, got " + type.str());
    if (d + 1 < type.shape.size())
      fanIn *= static_cast<double>(type.shape[d]);
  }
  return {fanIn, static_cast<double>(type.shape.back())};
}
} // namespace

Value FunctionBuilder::scalar(const Scalar &hyperparameter, DType dtype,
                              const char *method, const char *name) {
  TensorType type{dtype, {}};
  if (!hyperparameter.isValue_)
    return constant(type, {hyperparameter.number_});
  expectType(method, name, hyperparameter.value_, type,
             "a number, or a rank-0 value of the parameter's element type");
  return hyperparameter.value_;
}

Value FunctionBuilder::mse(Value predictions, Value targets) {
  expectFloat("mse", "predictions", predictions);
  expectType("mse", "targets", targets, predictions.type(),
             "the predictions' type");
  BuilderTransaction transaction(*impl_);
  Value loss = callStdlib("mse", "mse", {predictions, targets},
                          {{predictions.type().dtype, {}}})
                   .front();
  transaction.commit();
  return loss;
}

Value FunctionBuilder::softmaxCrossEntropy(Value logits, Value labels) {
  const char *method = "softmaxCrossEntropy";
  expectFloat(method, "logits", logits);
  const std::vector<int64_t> &shape = logits.type().shape;
  if (shape.size() != 2)
    fail(method, "logits must be [batch, classes], got " + logits.type().str());
  expectType(method, "labels", labels, {DType::I32, {shape[0]}},
             "one class index per example");
  BuilderTransaction transaction(*impl_);
  Value loss = callStdlib(method, "softmax_cross_entropy", {logits, labels},
                          {{logits.type().dtype, {}}})
                   .front();
  transaction.commit();
  return loss;
}

Value FunctionBuilder::sgd(Value param, Value grad, Scalar lr) {
  expectFloat("sgd", "param", param);
  expectType("sgd", "grad", grad, param.type(), "param's type");
  BuilderTransaction transaction(*impl_);
  Value updated =
      sub(param, mul(scalar(lr, param.type().dtype, "sgd", "lr"), grad));
  transaction.commit();
  return updated;
}

SgdMomentumState FunctionBuilder::sgdMomentum(Value param, Value grad,
                                              Value velocity, Scalar lr,
                                              Scalar momentum,
                                              Scalar weightDecay) {
  const char *method = "sgdMomentum";
  expectFloat(method, "param", param);
  expectType(method, "grad", grad, param.type(), "param's type");
  expectType(method, "velocity", velocity, param.type(), "param's type");
  DType dtype = param.type().dtype;
  BuilderTransaction transaction(*impl_);
  std::vector<Value> state =
      callStdlib(method, "sgd_momentum",
                 {param, grad, velocity, scalar(lr, dtype, method, "lr"),
                  scalar(momentum, dtype, method, "momentum"),
                  scalar(weightDecay, dtype, method, "weightDecay")},
                 {param.type(), param.type()});
  transaction.commit();
  return {state[0], state[1]};
}

AdamState FunctionBuilder::adam(Value param, Value grad, Value m, Value v,
                                Scalar step, Scalar lr, Scalar beta1,
                                Scalar beta2, Scalar eps, Scalar weightDecay) {
  const char *method = "adam";
  expectFloat(method, "param", param);
  expectType(method, "grad", grad, param.type(), "param's type");
  expectType(method, "m", m, param.type(), "param's type");
  expectType(method, "v", v, param.type(), "param's type");
  DType dtype = param.type().dtype;
  BuilderTransaction transaction(*impl_);
  std::vector<Value> state = callStdlib(
      method, "adam",
      {param, grad, m, v, scalar(step, dtype, method, "step"),
       scalar(lr, dtype, method, "lr"), scalar(beta1, dtype, method, "beta1"),
       scalar(beta2, dtype, method, "beta2"), scalar(eps, dtype, method, "eps"),
       scalar(weightDecay, dtype, method, "weightDecay")},
      {param.type(), param.type(), param.type()});
  transaction.commit();
  return {state[0], state[1], state[2]};
}

Value FunctionBuilder::xavierUniform(Value key, TensorType type) {
  auto [fanIn, fanOut] = initialiserFans("xavierUniform", key, type);
  TensorType fan{type.dtype, {}};
  BuilderTransaction transaction(*impl_);
  Value weight =
      callStdlib("xavierUniform", "xavier_uniform",
                 {key, constant(fan, {fanIn}), constant(fan, {fanOut})}, {type})
          .front();
  transaction.commit();
  return weight;
}

Value FunctionBuilder::kaimingUniform(Value key, TensorType type) {
  double fanIn = initialiserFans("kaimingUniform", key, type).first;
  BuilderTransaction transaction(*impl_);
  Value weight = callStdlib("kaimingUniform", "kaiming_uniform",
                            {key, constant({type.dtype, {}}, {fanIn})}, {type})
                     .front();
  transaction.commit();
  return weight;
}
