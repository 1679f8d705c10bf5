//===- OpSamples.cpp - One small program per ens op -----------------------===//
//
// The completeness test runs each sample's function @f through every piece
// of the compiler. A new op needs a sample here: the test fails for an op
// without one. Samples define no @main, @loss or @grad, which the checker
// adds. Where an op's float result would otherwise never get an adjoint,
// the sample multiplies it by a float argument, so that the op's VJP model
// runs under ens-autodiff.
//
//===----------------------------------------------------------------------===//

#include "OpCompleteness.h"

using namespace mlir::ens::test;

namespace {

/// Arguments away from zero and below 2, for ops with a pole or a branch
/// cut at zero.
constexpr double kPositiveLo = 0.5, kPositiveHi = 2;

#define BINARY(OP)                                                             \
  "func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> " \
  "{\n  %r = ens." OP " %a, %b : tensor<2x3xf32>\n  return %r : "              \
  "tensor<2x3xf32>\n}\n"
#define UNARY(OP)                                                              \
  "func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {\n  %r = ens." OP    \
  " %a : tensor<2x3xf32>\n  return %r : tensor<2x3xf32>\n}\n"
#define REDUCE(OP)                                                             \
  "func.func @f(%a: tensor<2x3xf32>) -> tensor<2xf32> {\n  %r = ens." OP      \
  " %a {dims = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>\n  return "   \
  "%r : tensor<2xf32>\n}\n"
#define SOFTMAX(OP)                                                            \
  "func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {\n  %r = ens." OP    \
  " %a {dim = 1 : i64} : tensor<2x3xf32>\n  return %r : tensor<2x3xf32>\n}\n"

const OpSample kSamples[] = {
    // Elementwise.
    {"ens.add", BINARY("add")},
    {"ens.sub", BINARY("sub")},
    {"ens.mul", BINARY("mul")},
    {"ens.div", BINARY("div"), kPositiveLo, kPositiveHi},
    {"ens.max", BINARY("max")},
    {"ens.min", BINARY("min")},
    {"ens.pow", BINARY("pow"), kPositiveLo, kPositiveHi},
    {"ens.neg", UNARY("neg")},
    {"ens.exp", UNARY("exp")},
    {"ens.log", UNARY("log"), kPositiveLo, kPositiveHi},
    {"ens.tanh", UNARY("tanh")},
    {"ens.sigmoid", UNARY("sigmoid")},
    {"ens.relu", UNARY("relu")},
    {"ens.sqrt", UNARY("sqrt"), kPositiveLo, kPositiveHi},
    {"ens.rsqrt", UNARY("rsqrt"), kPositiveLo, kPositiveHi},
    {"ens.abs", UNARY("abs")},
    {"ens.square", UNARY("square")},
    {"ens.cmp", R"mlir(
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %r = ens.cmp lt, %a, %b : tensor<2x3xf32>
  return %r : tensor<2x3xi1>
}
)mlir"},
    {"ens.select", R"mlir(
func.func @f(%c: tensor<2x3xi1>, %a: tensor<2x3xf32>, %b: tensor<2x3xf32>)
    -> tensor<2x3xf32> {
  %r = ens.select %c, %a, %b : tensor<2x3xi1>, tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"},
    {"ens.convert", R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf64> {
  %r = ens.convert %a : tensor<2x3xf32> -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}
)mlir"},
    // Constants and shapes.
    {"ens.constant", R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = ens.constant dense<[[1.5, -2.0, 0.25], [3.0, -0.5, 1.0]]>
      : tensor<2x3xf32>
  %r = ens.mul %a, %c : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"},
    {"ens.broadcast_in_dim", R"mlir(
func.func @f(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = ens.broadcast_in_dim %a {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"},
    {"ens.reshape", R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = ens.reshape %a : tensor<2x3xf32> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
)mlir"},
    {"ens.transpose", R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = ens.transpose %a {permutation = array<i64: 1, 0>}
      : tensor<2x3xf32> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
)mlir"},
    {"ens.slice", R"mlir(
func.func @f(%a: tensor<4x5xf32>) -> tensor<2x3xf32> {
  %r = ens.slice %a {start = array<i64: 1, 0>, limit = array<i64: 4, 5>,
                     stride = array<i64: 2, 2>}
      : tensor<4x5xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"},
    {"ens.concat", R"mlir(
func.func @f(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>) -> tensor<2x3xf32> {
  %r = ens.concat %a, %b {dim = 1 : i64}
      : tensor<2x1xf32>, tensor<2x2xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"},
    {"ens.take", R"mlir(
func.func @f(%a: tensor<4x3xf32>, %i: tensor<2xi32>) -> tensor<2x3xf32> {
  %r = ens.take %a, %i {axis = 0 : i64}
      : tensor<4x3xf32>, tensor<2xi32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir",
     -2, 2, /*indexBound=*/4},
    {"ens.pad", R"mlir(
func.func @f(%a: tensor<2x2xf32>) -> tensor<3x4xf32> {
  %r = ens.pad %a {low = array<i64: 1, 0>, high = array<i64: 0, 1>,
                   interior = array<i64: 0, 1>}
      : tensor<2x2xf32> -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
)mlir"},
    {"ens.scatter_add", R"mlir(
func.func @f(%u: tensor<2x3xf32>, %i: tensor<2xi32>) -> tensor<4x3xf32> {
  %r = ens.scatter_add %u, %i {axis = 0 : i64}
      : tensor<2x3xf32>, tensor<2xi32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
)mlir",
     -2, 2, /*indexBound=*/4},
    {"ens.one_hot", R"mlir(
func.func @f(%i: tensor<3xi32>, %a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %h = ens.one_hot %i : tensor<3xi32> -> tensor<3x4xf32>
  %r = ens.mul %h, %a : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
)mlir",
     -2, 2, /*indexBound=*/4},
    // Reductions and normalisations.
    {"ens.reduce_sum", REDUCE("reduce_sum")},
    {"ens.reduce_max", REDUCE("reduce_max")},
    {"ens.reduce_mean", REDUCE("reduce_mean")},
    {"ens.logsumexp", REDUCE("logsumexp")},
    {"ens.softmax", SOFTMAX("softmax")},
    {"ens.log_softmax", SOFTMAX("log_softmax")},
    // Contractions.
    {"ens.einsum", R"mlir(
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %r = ens.einsum %a, %b {spec = "ij,jk->ik"}
      : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
)mlir"},
    {"ens.tensordot", R"mlir(
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %r = ens.tensordot %a, %b {lhs_dims = array<i64: 1>,
                             rhs_dims = array<i64: 0>}
      : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
)mlir"},
    {"ens.matmul", R"mlir(
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %r = ens.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
)mlir"},
    // Random numbers.
    {"ens.random_uniform", R"mlir(
func.func @f(%k: tensor<2xi32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %u = ens.random_uniform %k : tensor<2xi32> -> tensor<3xf32>
  %r = ens.mul %u, %a : tensor<3xf32>
  return %r : tensor<3xf32>
}
)mlir"},
    {"ens.random_normal", R"mlir(
func.func @f(%k: tensor<2xi32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %n = ens.random_normal %k : tensor<2xi32> -> tensor<3xf32>
  %r = ens.mul %n, %a : tensor<3xf32>
  return %r : tensor<3xf32>
}
)mlir"},
    {"ens.random_split", R"mlir(
func.func @f(%k: tensor<2xi32>) -> tensor<3x2xi32> {
  %r = ens.random_split %k : tensor<2xi32> -> tensor<3x2xi32>
  return %r : tensor<3x2xi32>
}
)mlir"},
    {"ens.random_fold_in", R"mlir(
func.func @f(%k: tensor<2xi32>, %d: tensor<i32>) -> tensor<2xi32> {
  %r = ens.random_fold_in %k, %d : tensor<2xi32>, tensor<i32> -> tensor<2xi32>
  return %r : tensor<2xi32>
}
)mlir"},
    // Function transforms.
    {"ens.vmap", R"mlir(
func.func @g(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %y = ens.mul %x, %w : tensor<3xf32>
  %z = ens.tanh %y : tensor<3xf32>
  return %z : tensor<3xf32>
}
func.func @f(%x: tensor<2x3xf32>, %w: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = ens.vmap @g(%x, %w) {in_axes = array<i64: 0, -1>,
                            out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"},
    // In f64, so that finite differences of the gradient, a second
    // derivative, are accurate.
    {"ens.value_and_grad", R"mlir(
func.func @g(%x: tensor<3xf64>) -> tensor<f64> {
  %t = ens.tanh %x : tensor<3xf64>
  %y = ens.mul %t, %t : tensor<3xf64>
  %s = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @f(%x: tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>) {
  %l, %g = ens.value_and_grad @g(%x) {wrt = array<i64: 0>}
      : (tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)
  return %l, %g : tensor<f64>, tensor<3xf64>
}
)mlir"},
};

#undef BINARY
#undef UNARY
#undef REDUCE
#undef SOFTMAX

} // namespace

llvm::ArrayRef<OpSample> mlir::ens::test::getOpSamples() { return kSamples; }
