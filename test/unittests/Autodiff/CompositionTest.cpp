//===- CompositionTest.cpp - value_and_grad and vmap composed -------------===//
//
// Gradients inside vmaps and vmaps inside gradients. Each program is run
// three ways: with --ens-autodiff then --ens-batch, with --ens-batch then
// --ens-autodiff, and with --ens-autodiff alone, where the interpreter runs
// the vmaps outside gradients by their definition (a loop over members).
// All must agree with each other and with loops written in the test.
//
//===----------------------------------------------------------------------===//

#include "AutodiffTestUtils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

constexpr double kTolerance = 1e-6;

/// A one-layer regression loss of one member, and its gradient step.
constexpr const char *kMember = R"mlir(
func.func @loss(%w: tensor<3x2xf64>, %b: tensor<2xf64>, %x: tensor<5x3xf64>,
                %t: tensor<5x2xf64>) -> tensor<f64> {
  %y = call @forward(%w, %b, %x)
      : (tensor<3x2xf64>, tensor<2xf64>, tensor<5x3xf64>) -> tensor<5x2xf64>
  %e = ens.sub %y, %t : tensor<5x2xf64>
  %q = ens.square %e : tensor<5x2xf64>
  %l = ens.reduce_mean %q {dims = array<i64: 0, 1>}
      : tensor<5x2xf64> -> tensor<f64>
  return %l : tensor<f64>
}
func.func @forward(%w: tensor<3x2xf64>, %b: tensor<2xf64>,
                   %x: tensor<5x3xf64>) -> tensor<5x2xf64> {
  %z = ens.einsum %x, %w {spec = "bi,io->bo"}
      : tensor<5x3xf64>, tensor<3x2xf64> -> tensor<5x2xf64>
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>}
      : tensor<2xf64> -> tensor<5x2xf64>
  %s = ens.add %z, %bb : tensor<5x2xf64>
  %y = ens.tanh %s : tensor<5x2xf64>
  return %y : tensor<5x2xf64>
}
func.func @step(%w: tensor<3x2xf64>, %b: tensor<2xf64>, %x: tensor<5x3xf64>,
                %t: tensor<5x2xf64>)
    -> (tensor<f64>, tensor<3x2xf64>, tensor<2xf64>) {
  %l, %gw, %gb = ens.value_and_grad @loss(%w, %b, %x, %t)
      {wrt = array<i64: 0, 1>}
      : (tensor<3x2xf64>, tensor<2xf64>, tensor<5x3xf64>, tensor<5x2xf64>)
      -> (tensor<f64>, tensor<3x2xf64>, tensor<2xf64>)
  return %l, %gw, %gb : tensor<f64>, tensor<3x2xf64>, tensor<2xf64>
}
)mlir";

/// Four members' training steps on one shared batch; the weight gradients
/// come back with the members in the middle.
constexpr const char *kEnsembleStep = R"mlir(
func.func @ensemble(%w: tensor<4x3x2xf64>, %b: tensor<4x2xf64>,
                    %x: tensor<5x3xf64>, %t: tensor<5x2xf64>)
    -> (tensor<4xf64>, tensor<3x4x2xf64>, tensor<4x2xf64>) {
  %l, %gw, %gb = ens.vmap @step(%w, %b, %x, %t)
      {in_axes = array<i64: 0, 0, -1, -1>, out_axes = array<i64: 0, 1, 0>,
       size = 4 : i64}
      : (tensor<4x3x2xf64>, tensor<4x2xf64>, tensor<5x3xf64>, tensor<5x2xf64>)
      -> (tensor<4xf64>, tensor<3x4x2xf64>, tensor<4x2xf64>)
  return %l, %gw, %gb : tensor<4xf64>, tensor<3x4x2xf64>, tensor<4x2xf64>
}
)mlir";

/// The gradient of the summed squared error of all members' predictions,
/// computed with a vmap; the biases are stacked along axis 1.
constexpr const char *kGradOfVmap = R"mlir(
func.func @ensemble_loss(%w: tensor<4x3x2xf64>, %b: tensor<2x4xf64>,
                         %x: tensor<5x3xf64>, %t: tensor<5x2xf64>)
    -> tensor<f64> {
  %y = ens.vmap @forward(%w, %b, %x)
      {in_axes = array<i64: 0, 1, -1>, out_axes = array<i64: 1>,
       size = 4 : i64}
      : (tensor<4x3x2xf64>, tensor<2x4xf64>, tensor<5x3xf64>)
      -> tensor<5x4x2xf64>
  %tb = ens.broadcast_in_dim %t {dims = array<i64: 0, 2>}
      : tensor<5x2xf64> -> tensor<5x4x2xf64>
  %e = ens.sub %y, %tb : tensor<5x4x2xf64>
  %q = ens.square %e : tensor<5x4x2xf64>
  %l = ens.reduce_mean %q {dims = array<i64: 0, 2, 1>}
      : tensor<5x4x2xf64> -> tensor<f64>
  return %l : tensor<f64>
}
func.func @grad(%w: tensor<4x3x2xf64>, %b: tensor<2x4xf64>,
                %x: tensor<5x3xf64>, %t: tensor<5x2xf64>)
    -> (tensor<f64>, tensor<4x3x2xf64>, tensor<2x4xf64>) {
  %l, %gw, %gb = ens.value_and_grad @ensemble_loss(%w, %b, %x, %t)
      {wrt = array<i64: 0, 1>}
      : (tensor<4x3x2xf64>, tensor<2x4xf64>, tensor<5x3xf64>, tensor<5x2xf64>)
      -> (tensor<f64>, tensor<4x3x2xf64>, tensor<2x4xf64>)
  return %l, %gw, %gb : tensor<f64>, tensor<4x3x2xf64>, tensor<2x4xf64>
}
)mlir";

/// Per-example gradients of every member: vmap(vmap(value_and_grad)).
constexpr const char *kPerExample = R"mlir(
func.func @example_loss(%w: tensor<3x2xf64>, %b: tensor<2xf64>,
                        %x: tensor<3xf64>, %t: tensor<2xf64>) -> tensor<f64> {
  %z = ens.einsum %x, %w {spec = "i,io->o"}
      : tensor<3xf64>, tensor<3x2xf64> -> tensor<2xf64>
  %s = ens.add %z, %b : tensor<2xf64>
  %y = ens.sigmoid %s : tensor<2xf64>
  %e = ens.sub %y, %t : tensor<2xf64>
  %q = ens.square %e : tensor<2xf64>
  %l = ens.reduce_sum %q {dims = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
  return %l : tensor<f64>
}
func.func @example_step(%w: tensor<3x2xf64>, %b: tensor<2xf64>,
                        %x: tensor<3xf64>, %t: tensor<2xf64>)
    -> (tensor<f64>, tensor<3x2xf64>, tensor<2xf64>) {
  %l, %gw, %gb = ens.value_and_grad @example_loss(%w, %b, %x, %t)
      {wrt = array<i64: 0, 1>}
      : (tensor<3x2xf64>, tensor<2xf64>, tensor<3xf64>, tensor<2xf64>)
      -> (tensor<f64>, tensor<3x2xf64>, tensor<2xf64>)
  return %l, %gw, %gb : tensor<f64>, tensor<3x2xf64>, tensor<2xf64>
}
func.func @per_example(%w: tensor<3x2xf64>, %b: tensor<2xf64>,
                       %x: tensor<5x3xf64>, %t: tensor<2x5xf64>)
    -> (tensor<5xf64>, tensor<5x3x2xf64>, tensor<5x2xf64>) {
  %l, %gw, %gb = ens.vmap @example_step(%w, %b, %x, %t)
      {in_axes = array<i64: -1, -1, 0, 1>, out_axes = array<i64: 0, 0, 0>,
       size = 5 : i64}
      : (tensor<3x2xf64>, tensor<2xf64>, tensor<5x3xf64>, tensor<2x5xf64>)
      -> (tensor<5xf64>, tensor<5x3x2xf64>, tensor<5x2xf64>)
  return %l, %gw, %gb : tensor<5xf64>, tensor<5x3x2xf64>, tensor<5x2xf64>
}
func.func @per_member(%w: tensor<4x3x2xf64>, %b: tensor<4x2xf64>,
                      %x: tensor<5x3xf64>, %t: tensor<2x5xf64>)
    -> (tensor<4x5xf64>, tensor<4x5x3x2xf64>, tensor<5x4x2xf64>) {
  %l, %gw, %gb = ens.vmap @per_example(%w, %b, %x, %t)
      {in_axes = array<i64: 0, 0, -1, -1>, out_axes = array<i64: 0, 0, 1>,
       size = 4 : i64}
      : (tensor<4x3x2xf64>, tensor<4x2xf64>, tensor<5x3xf64>, tensor<2x5xf64>)
      -> (tensor<4x5xf64>, tensor<4x5x3x2xf64>, tensor<5x4x2xf64>)
  return %l, %gw, %gb : tensor<4x5xf64>, tensor<4x5x3x2xf64>, tensor<5x4x2xf64>
}
)mlir";

bool hasTransforms(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return isa<VmapOp, ValueAndGradOp>(op) ? WalkResult::interrupt()
                                               : WalkResult::advance();
      })
      .wasInterrupted();
}

void expectAllClose(const std::vector<HostTensor> &actual,
                    const std::vector<HostTensor> &expected,
                    llvm::StringRef what) {
  ASSERT_EQ(actual.size(), expected.size()) << what.str();
  for (size_t i = 0; i < actual.size(); ++i)
    expectClose(actual[i], expected[i], kTolerance, kTolerance,
                llvm::formatv("{0}: result {1}", what, i).str());
}

/// Runs `entry` after both orders of the passes and with autodiff alone
/// (vmaps run as loops); checks that the three agree and returns the last.
std::vector<HostTensor> runThreeWays(Program &program, llvm::StringRef entry,
                                     llvm::ArrayRef<HostTensor> args) {
  struct Way {
    const char *name;
    std::vector<PassKind> passes;
    bool lowersVmaps;
  } ways[] = {
      {"autodiff, batch", {PassKind::Autodiff, PassKind::Batch}, true},
      {"batch, autodiff", {PassKind::Batch, PassKind::Autodiff}, true},
      {"autodiff only", {PassKind::Autodiff}, false},
  };
  std::vector<std::vector<HostTensor>> results;
  for (const Way &way : ways) {
    OwningOpRef<ModuleOp> module = program.cloneModule();
    if (!program.apply(way.passes, *module))
      return {};
    if (way.lowersVmaps) {
      EXPECT_FALSE(hasTransforms(*module)) << way.name;
    }
    results.push_back(run(*module, entry, args));
  }
  for (size_t i = 0; i + 1 < results.size(); ++i)
    expectAllClose(results[i], results.back(),
                   std::string(ways[i].name) + " vs loops");
  return results.back();
}

TEST(CompositionTest, VmapOfValueAndGrad) {
  Program program(std::string(kMember) + kEnsembleStep);
  ASSERT_TRUE(program.isValid());
  Random random(11);
  HostTensor w = random.uniform({4, 3, 2}), b = random.uniform({4, 2}),
             x = random.uniform({5, 3}), t = random.uniform({5, 2});
  std::vector<HostTensor> ensemble =
      runThreeWays(program, "ensemble", {w, b, x, t});
  ASSERT_EQ(ensemble.size(), 3u);

  // Each member's step on its own, stacked as out_axes says.
  OwningOpRef<ModuleOp> module = program.cloneModule();
  ASSERT_TRUE(program.apply({PassKind::Autodiff}, *module));
  std::vector<HostTensor> losses, gw, gb;
  for (int64_t m = 0; m < 4; ++m) {
    std::vector<HostTensor> step =
        run(*module, "step", {indexAxis(w, 0, m), indexAxis(b, 0, m), x, t});
    ASSERT_EQ(step.size(), 3u);
    losses.push_back(step[0]);
    gw.push_back(step[1]);
    gb.push_back(step[2]);
  }
  expectAllClose(ensemble, {stack(losses, 0), stack(gw, 1), stack(gb, 0)},
                 "ensemble vs members");
}

TEST(CompositionTest, ValueAndGradOfVmap) {
  Program program(std::string(kMember) + kGradOfVmap);
  ASSERT_TRUE(program.isValid());
  Random random(12);
  HostTensor w = random.uniform({4, 3, 2}), b = random.uniform({2, 4}),
             x = random.uniform({5, 3}), t = random.uniform({5, 2});
  std::vector<HostTensor> grad = runThreeWays(program, "grad", {w, b, x, t});
  ASSERT_EQ(grad.size(), 3u);

  // The ensemble loss is the mean of the members' losses (each a mean over
  // 5x2 elements), so its gradient stacks the members' gradients / 4.
  OwningOpRef<ModuleOp> module = program.cloneModule();
  ASSERT_TRUE(program.apply({PassKind::Autodiff}, *module));
  double loss = 0;
  std::vector<HostTensor> gw, gb;
  for (int64_t m = 0; m < 4; ++m) {
    std::vector<HostTensor> step =
        run(*module, "step", {indexAxis(w, 0, m), indexAxis(b, 1, m), x, t});
    ASSERT_EQ(step.size(), 3u);
    loss += step[0].values[0] / 4;
    for (HostTensor *g : {&step[1], &step[2]})
      for (double &value : g->values)
        value /= 4;
    gw.push_back(step[1]);
    gb.push_back(step[2]);
  }
  expectAllClose(
      grad, {HostTensor(DType::F64, {}, {loss}), stack(gw, 0), stack(gb, 1)},
      "gradient vs members");
}

TEST(CompositionTest, PerExampleGradientsPerMember) {
  Program program(kPerExample);
  ASSERT_TRUE(program.isValid());
  Random random(13);
  HostTensor w = random.uniform({4, 3, 2}), b = random.uniform({4, 2}),
             x = random.uniform({5, 3}), t = random.uniform({2, 5});
  std::vector<HostTensor> nested =
      runThreeWays(program, "per_member", {w, b, x, t});
  ASSERT_EQ(nested.size(), 3u);

  // Two loops around the single-example step.
  OwningOpRef<ModuleOp> module = program.cloneModule();
  ASSERT_TRUE(program.apply({PassKind::Autodiff}, *module));
  std::vector<HostTensor> losses, gw, gb;
  for (int64_t m = 0; m < 4; ++m) {
    std::vector<HostTensor> exampleLosses, exampleGw, exampleGb;
    for (int64_t e = 0; e < 5; ++e) {
      std::vector<HostTensor> step =
          run(*module, "example_step",
              {indexAxis(w, 0, m), indexAxis(b, 0, m), indexAxis(x, 0, e),
               indexAxis(t, 1, e)});
      ASSERT_EQ(step.size(), 3u);
      exampleLosses.push_back(step[0]);
      exampleGw.push_back(step[1]);
      exampleGb.push_back(step[2]);
    }
    losses.push_back(stack(exampleLosses, 0));
    gw.push_back(stack(exampleGw, 0));
    gb.push_back(stack(exampleGb, 0));
  }
  expectAllClose(nested, {stack(losses, 0), stack(gw, 0), stack(gb, 1)},
                 "nested vmaps vs loops");
}

} // namespace
