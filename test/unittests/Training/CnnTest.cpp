//===- CnnTest.cpp - The CNN ensemble example learns, on every backend ----===//
//
// Runs examples/cnn.mlir's @train_step for 8 convolutional members after the
// transform pipeline (ens-stdlib, ens-autodiff, ens-batch): the CPU backend
// and cuda-emu must agree with the interpreter on a step, and over a few
// steps of SGD every member's loss on a synthetic image task must fall. The
// task: 12x12 images of noise, labelled by their brightest quadrant.
//
//===----------------------------------------------------------------------===//

#include "ExampleSupport.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Emulator.h"
#include "ens/InitAllDialects.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::ens;
using ens_test::loadExample;
using ens_test::normal;

namespace {

constexpr int64_t kMembers = 8, kBatch = 8, kSide = 12, kClasses = 4;

/// The quadrant (top-left 0, top-right 1, bottom-left 2, bottom-right 3)
/// with the largest sum of each image of `x` [batch, 1, side, side].
HostTensor brightestQuadrant(const HostTensor &x) {
  HostTensor labels(DType::I32, {kBatch});
  int64_t half = kSide / 2;
  for (int64_t b = 0; b < kBatch; ++b) {
    double sums[kClasses] = {0, 0, 0, 0};
    for (int64_t i = 0; i < kSide; ++i)
      for (int64_t j = 0; j < kSide; ++j)
        sums[2 * (i / half) + j / half] +=
            x.values[(b * kSide + i) * kSide + j];
    labels.values[b] = std::max_element(sums, sums + kClasses) - sums;
  }
  return labels;
}

/// Members' parameters with He-normal weights and zero biases.
std::vector<HostTensor> initialParameters(std::mt19937 &rng) {
  return {normal({kMembers, 4, 1, 3, 3}, std::sqrt(2.0 / 9), rng),
          HostTensor(DType::F32, {kMembers, 4}),
          normal({kMembers, 8, 4, 3, 3}, std::sqrt(2.0 / 36), rng),
          HostTensor(DType::F32, {kMembers, 8}),
          normal({kMembers, 72, kClasses}, std::sqrt(1.0 / 72), rng),
          HostTensor(DType::F32, {kMembers, kClasses})};
}

void expectNear(const std::vector<HostTensor> &actual,
                const std::vector<HostTensor> &expected, const char *backend) {
  ASSERT_EQ(actual.size(), expected.size()) << backend;
  for (size_t r = 0; r < actual.size(); ++r) {
    ASSERT_EQ(actual[r].shape, expected[r].shape) << backend << " result " << r;
    for (int64_t i = 0; i < actual[r].getNumElements(); ++i) {
      double want = expected[r].values[i], got = actual[r].values[i];
      // f32 sums in another order than the interpreter's double ones.
      ASSERT_NEAR(got, want, 1e-5 + 1e-4 * std::fabs(want))
          << backend << " result " << r << " element " << i;
    }
  }
}

TEST(CnnTest, EnsembleStepAgreesOnEveryBackendAndLearns) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = loadExample(context, "cnn.mlir");
  ASSERT_TRUE(module);

  std::mt19937 rng(17);
  HostTensor x = normal({kBatch, 1, kSide, kSide}, 1.0, rng);
  HostTensor labels = brightestQuadrant(x);
  HostTensor learningRates(DType::F32, {kMembers});
  for (int64_t m = 0; m < kMembers; ++m)
    learningRates.values[m] = 0.05 + 0.1 * m / (kMembers - 1);
  learningRates.roundToDType();
  std::vector<HostTensor> parameters = initialParameters(rng);
  auto arguments = [&](const std::vector<HostTensor> &params) {
    std::vector<HostTensor> args = params;
    args.push_back(learningRates);
    args.push_back(x);
    args.push_back(labels);
    return args;
  };

  Interpreter interpreter(*module);
  llvm::Expected<std::vector<HostTensor>> first =
      interpreter.run("train_step", arguments(parameters));
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());

  llvm::Expected<std::unique_ptr<CpuExecutable>> cpu =
      CpuExecutable::compile(*module, "train_step");
  ASSERT_TRUE(bool(cpu)) << llvm::toString(cpu.takeError());
  llvm::Expected<std::vector<HostTensor>> onCpu =
      (*cpu)->run(arguments(parameters));
  ASSERT_TRUE(bool(onCpu)) << llvm::toString(onCpu.takeError());
  expectNear(*onCpu, *first, "cpu");

  llvm::Expected<cuda::CudaProgram> program =
      cuda::generateCuda(*module, "train_step");
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> emulated =
      cuda::EmulatedExecutable::compile(std::move(*program));
  ASSERT_TRUE(bool(emulated)) << llvm::toString(emulated.takeError());
  llvm::Expected<std::vector<HostTensor>> onEmu =
      (*emulated)->run(arguments(parameters));
  ASSERT_TRUE(bool(onEmu)) << llvm::toString(onEmu.takeError());
  expectNear(*onEmu, *first, "cuda-emu");

  // A few more steps on the interpreter: every member's loss falls.
  std::vector<double> firstLosses = first->back().values;
  std::vector<HostTensor> current(first->begin(), first->end() - 1);
  constexpr int kSteps = 6;
  for (int s = 2; s <= kSteps; ++s) {
    llvm::Expected<std::vector<HostTensor>> results =
        interpreter.run("train_step", arguments(current));
    ASSERT_TRUE(bool(results)) << llvm::toString(results.takeError());
    if (s == kSteps) {
      for (int64_t m = 0; m < kMembers; ++m)
        EXPECT_LT(results->back().values[m], 0.9 * firstLosses[m])
            << "member " << m << " did not learn (lr "
            << learningRates.values[m] << ", first loss " << firstLosses[m]
            << ")";
    }
    current.assign(results->begin(), results->end() - 1);
  }
}

} // namespace
