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

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

/// Samples shared by the ops of a family, with `ens.OP` standing for the op.
constexpr const char *kUnary = R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = ens.OP %a : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir";
constexpr const char *kBinary = R"mlir(
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = ens.OP %a, %b : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir";
constexpr const char *kReduction = R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  %r = ens.OP %a {dims = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}
)mlir";
constexpr const char *kSoftmax = R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = ens.OP %a {dim = 1 : i64} : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir";

/// The sample of the op named `opName` from a family's `pattern`.
OpSample fromPattern(StringRef opName, StringRef pattern) {
  std::string source = pattern.str();
  source.replace(source.find("ens.OP"), 6, opName.str());
  return {opName.str(), source};
}

/// `sample` with float arguments away from zero and below 2, for ops with a
/// pole or a branch cut at zero.
OpSample positive(OpSample sample) {
  sample.lo = 0.5;
  sample.hi = 2;
  return sample;
}

/// `sample` with i32 arguments in [0, bound).
OpSample withIndicesBelow(int64_t bound, OpSample sample) {
  sample.indexBound = bound;
  return sample;
}

std::vector<OpSample> buildSamples() {
  return {
      // Elementwise.
      fromPattern("ens.add", kBinary),
      fromPattern("ens.sub", kBinary),
      fromPattern("ens.mul", kBinary),
      positive(fromPattern("ens.div", kBinary)),
      fromPattern("ens.max", kBinary),
      fromPattern("ens.min", kBinary),
      positive(fromPattern("ens.pow", kBinary)),
      fromPattern("ens.neg", kUnary),
      fromPattern("ens.exp", kUnary),
      positive(fromPattern("ens.log", kUnary)),
      fromPattern("ens.tanh", kUnary),
      fromPattern("ens.sigmoid", kUnary),
      fromPattern("ens.relu", kUnary),
      positive(fromPattern("ens.sqrt", kUnary)),
      positive(fromPattern("ens.rsqrt", kUnary)),
      fromPattern("ens.abs", kUnary),
      fromPattern("ens.square", kUnary),
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
      withIndicesBelow(4, {"ens.take", R"mlir(
func.func @f(%a: tensor<4x3xf32>, %i: tensor<2xi32>) -> tensor<2x3xf32> {
  %r = ens.take %a, %i {axis = 0 : i64}
      : tensor<4x3xf32>, tensor<2xi32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"}),
      {"ens.pad", R"mlir(
func.func @f(%a: tensor<2x2xf32>) -> tensor<3x4xf32> {
  %r = ens.pad %a {low = array<i64: 1, 0>, high = array<i64: 0, 1>,
                   interior = array<i64: 0, 1>}
      : tensor<2x2xf32> -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
)mlir"},
      withIndicesBelow(4, {"ens.scatter_add", R"mlir(
func.func @f(%u: tensor<2x3xf32>, %i: tensor<2xi32>) -> tensor<4x3xf32> {
  %r = ens.scatter_add %u, %i {axis = 0 : i64}
      : tensor<2x3xf32>, tensor<2xi32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
)mlir"}),
      withIndicesBelow(4, {"ens.one_hot", R"mlir(
func.func @f(%i: tensor<3xi32>, %a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %h = ens.one_hot %i : tensor<3xi32> -> tensor<3x4xf32>
  %r = ens.mul %h, %a : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
)mlir"}),
      // Reductions and normalisations.
      fromPattern("ens.reduce_sum", kReduction),
      fromPattern("ens.reduce_max", kReduction),
      fromPattern("ens.reduce_mean", kReduction),
      fromPattern("ens.logsumexp", kReduction),
      fromPattern("ens.softmax", kSoftmax),
      fromPattern("ens.log_softmax", kSoftmax),
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
      // Convolutions: grouped, strided, padded and dilated, in NHWC/HWIO.
      {"ens.conv", R"mlir(
func.func @f(%x: tensor<2x5x5x2xf32>, %w: tensor<3x3x1x4xf32>)
    -> tensor<2x2x2x4xf32> {
  %r = ens.conv %x, %w {lhs_dims = array<i64: 0, 3, 1, 2>,
                        rhs_dims = array<i64: 3, 2, 0, 1>,
                        out_dims = array<i64: 0, 3, 1, 2>,
                        window_strides = array<i64: 2, 1>,
                        padding = array<i64: 1, 0, 0, 1>,
                        rhs_dilation = array<i64: 1, 2>,
                        feature_group_count = 2 : i64}
      : tensor<2x5x5x2xf32>, tensor<3x3x1x4xf32> -> tensor<2x2x2x4xf32>
  return %r : tensor<2x2x2x4xf32>
}
)mlir"},
      // Pooling: overlapping 3x3 windows, stride 2, padded on both sides;
      // in f64, whose finite-difference step is far below the gaps between
      // the values of a window, so that no step moves a window's maximum.
      {"ens.reduce_window", R"mlir(
func.func @f(%x: tensor<2x2x5x5xf64>) -> tensor<2x2x3x3xf64> {
  %r = ens.reduce_window max, %x {
      window_dimensions = array<i64: 1, 1, 3, 3>,
      window_strides = array<i64: 1, 1, 2, 2>,
      padding = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>}
      : tensor<2x2x5x5xf64> -> tensor<2x2x3x3xf64>
  return %r : tensor<2x2x3x3xf64>
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
      // A library call: layer norm, whose rows and columns make the
      // batching of its reductions and broadcasts count; f64 for the
      // finite differences.
      {"ens.stdlib_call", R"mlir(
func.func @f(%x: tensor<2x3xf64>, %g: tensor<3xf64>, %b: tensor<3xf64>)
    -> tensor<2x3xf64> {
  %eps = ens.constant dense<1.0e-5> : tensor<f64>
  %y = ens.stdlib_call "layer_norm"(%x, %g, %b, %eps) : tensor<2x3xf64>
  return %y : tensor<2x3xf64>
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
}

} // namespace

ArrayRef<OpSample> test::getOpSamples() {
  static const std::vector<OpSample> samples = buildSamples();
  return samples;
}

const OpSample *test::findOpSample(StringRef opName) {
  for (const OpSample &sample : getOpSamples())
    if (sample.opName == opName)
      return &sample;
  return nullptr;
}

std::vector<std::string>
test::findOpsWithoutSamples(MLIRContext &context, StringRef dialectNamespace) {
  std::vector<std::string> missing;
  for (RegisteredOperationName name : context.getRegisteredOperations())
    if (name.getDialectNamespace() == dialectNamespace &&
        !findOpSample(name.getStringRef()))
      missing.push_back(name.getStringRef().str());
  return missing;
}
