//===- Builder.cpp - The ens Python bindings of FunctionBuilder -----------===//
//
// Module.function(name, arg_types) returns a FunctionBuilder that adds one
// op per method, as ens::FunctionBuilder does: each is checked when it is
// added and a bad one raises ens.Error. Numbers stand for constants and
// scalar hyperparameters; element types are spelled as in the IR ("f32").
//
//===----------------------------------------------------------------------===//

#include "Builder.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace nb::literals;

namespace ens::python {

namespace {
using FB = FunctionBuilder;
using Binary = Value (FB::*)(Value, Value);
using BinaryNumber = Value (FB::*)(Value, double);
using NumberBinary = Value (FB::*)(double, Value);
using Unary = Value (FB::*)(Value);
} // namespace

static const std::pair<const char *, Predicate> predicates[] = {
    {"lt", Predicate::Lt}, {"le", Predicate::Le}, {"gt", Predicate::Gt},
    {"ge", Predicate::Ge}, {"eq", Predicate::Eq}, {"ne", Predicate::Ne}};

static Predicate parsePredicate(const std::string &name) {
  for (const auto &[spelling, predicate] : predicates)
    if (name == spelling)
      return predicate;
  throw Error("unknown comparison '" + name +
              "'; expected lt, le, gt, ge, eq or ne");
}

/// Binds `name` as the three overloads of an elementwise binary op: two
/// values, a value and a number, and a number and a value.
template <typename Class>
static void bindBinary(Class &cls, const char *name, Binary both,
                       BinaryNumber right, NumberBinary left) {
  cls.def(name, both, "lhs"_a, "rhs"_a)
      .def(name, right, "lhs"_a, "rhs"_a)
      .def(name, left, "lhs"_a, "rhs"_a);
}

void bindBuilder(nb::module_ &m, DType (*parseDType)(const std::string &)) {
  nb::class_<Value>(m, "Value", "A value of a function being built.")
      .def_prop_ro("type", &Value::type);
  nb::class_<Scalar>(m, "Scalar")
      .def(nb::init_implicit<double>())
      .def(nb::init_implicit<Value>());

  nb::class_<FB> builder(m, "FunctionBuilder",
                         "Builds one function op by op (docs/api.md).");
  builder.def("arg", &FB::arg, "i"_a);
  bindBinary(builder, "add", &FB::add, &FB::add, &FB::add);
  bindBinary(builder, "sub", &FB::sub, &FB::sub, &FB::sub);
  bindBinary(builder, "mul", &FB::mul, &FB::mul, &FB::mul);
  bindBinary(builder, "div", &FB::div, &FB::div, &FB::div);
  bindBinary(builder, "max", &FB::max, &FB::max, &FB::max);
  bindBinary(builder, "min", &FB::min, &FB::min, &FB::min);
  bindBinary(builder, "pow", &FB::pow, &FB::pow, &FB::pow);
  for (auto [name, op] : std::initializer_list<std::pair<const char *, Unary>>{
           {"neg", &FB::neg},
           {"exp", &FB::exp},
           {"log", &FB::log},
           {"tanh", &FB::tanh},
           {"sigmoid", &FB::sigmoid},
           {"relu", &FB::relu},
           {"sqrt", &FB::sqrt},
           {"rsqrt", &FB::rsqrt},
           {"abs", &FB::abs},
           {"square", &FB::square}})
    builder.def(name, op, "x"_a);
  builder
      .def(
          "cmp",
          [](FB &f, const std::string &predicate, Value lhs, Value rhs) {
            return f.cmp(parsePredicate(predicate), lhs, rhs);
          },
          "predicate"_a, "lhs"_a, "rhs"_a)
      .def(
          "cmp",
          [](FB &f, const std::string &predicate, Value lhs, double rhs) {
            return f.cmp(parsePredicate(predicate), lhs, rhs);
          },
          "predicate"_a, "lhs"_a, "rhs"_a)
      .def("select", &FB::select, "cond"_a, "on_true"_a, "on_false"_a)
      .def(
          "convert",
          [parseDType](FB &f, Value x, const std::string &dtype) {
            return f.convert(x, parseDType(dtype));
          },
          "x"_a, "dtype"_a)
      .def(
          "constant",
          [](FB &f, const TensorType &type, nb::handle values) {
            std::vector<double> list;
            if (nb::isinstance<nb::float_>(values) ||
                nb::isinstance<nb::int_>(values))
              list.push_back(nb::cast<double>(values));
            else
              list = nb::cast<std::vector<double>>(values);
            return f.constant(type, list);
          },
          "type"_a, "values"_a)
      .def("broadcast_in_dim", &FB::broadcastInDim, "x"_a, "shape"_a, "dims"_a)
      .def("reshape", &FB::reshape, "x"_a, "shape"_a)
      .def("transpose", &FB::transpose, "x"_a, "permutation"_a)
      .def("slice", &FB::slice, "x"_a, "start"_a, "limit"_a, "stride"_a)
      .def("concat", &FB::concat, "inputs"_a, "dim"_a)
      .def("take", &FB::take, "table"_a, "indices"_a, "axis"_a)
      .def(
          "one_hot",
          [parseDType](FB &f, Value indices, int64_t depth,
                       const std::string &dtype) {
            return f.oneHot(indices, depth, parseDType(dtype));
          },
          "indices"_a, "depth"_a, "dtype"_a)
      .def("reduce_sum", &FB::reduceSum, "x"_a, "dims"_a)
      .def("reduce_max", &FB::reduceMax, "x"_a, "dims"_a)
      .def("reduce_mean", &FB::reduceMean, "x"_a, "dims"_a)
      .def("logsumexp", &FB::logsumexp, "x"_a, "dims"_a)
      .def("softmax", &FB::softmax, "x"_a, "dim"_a)
      .def("log_softmax", &FB::logSoftmax, "x"_a, "dim"_a)
      .def("einsum", &FB::einsum, "lhs"_a, "rhs"_a, "spec"_a)
      .def("tensordot", &FB::tensordot, "lhs"_a, "rhs"_a, "lhs_dims"_a,
           "rhs_dims"_a)
      .def("matmul", &FB::matmul, "lhs"_a, "rhs"_a)
      .def("random_uniform", &FB::randomUniform, "key"_a, "type"_a)
      .def("random_normal", &FB::randomNormal, "key"_a, "type"_a)
      .def("random_split", &FB::randomSplit, "key"_a, "count"_a)
      .def("random_fold_in", &FB::randomFoldIn, "key"_a, "data"_a)
      .def("mse", &FB::mse, "predictions"_a, "targets"_a)
      .def("softmax_cross_entropy", &FB::softmaxCrossEntropy, "logits"_a,
           "labels"_a)
      .def("sgd", &FB::sgd, "param"_a, "grad"_a, "lr"_a)
      .def(
          "sgd_momentum",
          [](FB &f, Value param, Value grad, Value velocity, Scalar lr,
             Scalar momentum, Scalar weightDecay) {
            SgdMomentumState s =
                f.sgdMomentum(param, grad, velocity, lr, momentum, weightDecay);
            return std::make_pair(s.param, s.velocity);
          },
          "param"_a, "grad"_a, "velocity"_a, "lr"_a, "momentum"_a,
          "weight_decay"_a = 0.0, "PyTorch's SGD; returns (param, velocity).")
      .def(
          "adam",
          [](FB &f, Value param, Value grad, Value m, Value v, Scalar step,
             Scalar lr, Scalar beta1, Scalar beta2, Scalar eps,
             Scalar weightDecay) {
            AdamState s = f.adam(param, grad, m, v, step, lr, beta1, beta2, eps,
                                 weightDecay);
            return std::make_tuple(s.param, s.m, s.v);
          },
          "param"_a, "grad"_a, "m"_a, "v"_a, "step"_a, "lr"_a, "beta1"_a = 0.9,
          "beta2"_a = 0.999, "eps"_a = 1e-8, "weight_decay"_a = 0.0,
          "Adam (decoupled weight decay, as AdamW); returns (param, m, v).")
      .def("xavier_uniform", &FB::xavierUniform, "key"_a, "type"_a)
      .def("kaiming_uniform", &FB::kaimingUniform, "key"_a, "type"_a)
      .def("call", &FB::call, "function"_a, "args"_a)
      .def("ret", &FB::ret, "results"_a,
           "Finishes the function, returning `results`.");
}

} // namespace ens::python
