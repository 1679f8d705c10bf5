//===- TrainingTest.cpp - The example ensemble learns ---------------------===//
//
// Runs examples/ensemble_init.mlir and then examples/ensemble_train_step.mlir
// repeatedly with the reference interpreter, after the full transform
// pipeline (ens-stdlib, ens-autodiff, ens-batch), on a synthetic regression
// problem: targets from a fixed random "teacher" network. Every one of the
// 128 members, each with its own learning rate, must lower its loss.
//
//===----------------------------------------------------------------------===//

#include "ExampleSupport.h"

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

constexpr int64_t kMembers = 128, kBatch = 256, kIn = 64, kOut = 8;

/// tanh(x @ teacher), computed directly.
HostTensor teacherTargets(const HostTensor &x, const HostTensor &teacher) {
  HostTensor targets(DType::F32, {kBatch, kOut});
  for (int64_t b = 0; b < kBatch; ++b)
    for (int64_t o = 0; o < kOut; ++o) {
      double sum = 0;
      for (int64_t i = 0; i < kIn; ++i)
        sum += x.values[b * kIn + i] * teacher.values[i * kOut + o];
      targets.values[b * kOut + o] = std::tanh(sum);
    }
  targets.roundToDType();
  return targets;
}

TEST(TrainingTest, EveryMemberLearnsTheSyntheticRegression) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> init = loadExample(context, "ensemble_init.mlir");
  OwningOpRef<ModuleOp> step = loadExample(context, "ensemble_train_step.mlir");
  ASSERT_TRUE(init && step);
  for (ModuleOp module : {*init, *step})
    module.walk([](Operation *op) {
      EXPECT_FALSE((isa<VmapOp, ValueAndGradOp>(op)))
          << "the pipeline left " << op->getName().getStringRef().str();
    });

  HostTensor key(DType::I32, {2}, {0, 42});
  Interpreter initInterpreter(*init);
  llvm::Expected<std::vector<HostTensor>> state =
      initInterpreter.run("init", {key});
  ASSERT_TRUE(bool(state)) << llvm::toString(state.takeError());

  std::mt19937 rng(2026);
  HostTensor x = normal({kBatch, kIn}, 1.0, rng);
  HostTensor targets =
      teacherTargets(x, normal({kIn, kOut}, 1.0 / std::sqrt(kIn), rng));
  HostTensor learningRates(DType::F32, {kMembers});
  for (int64_t m = 0; m < kMembers; ++m)
    learningRates.values[m] = 1e-3 + 9e-3 * m / (kMembers - 1);
  learningRates.roundToDType();

  Interpreter stepInterpreter(*step);
  std::vector<double> firstLosses;
  std::vector<HostTensor> current = std::move(*state);
  constexpr int kSteps = 12;
  for (int s = 1; s <= kSteps; ++s) {
    std::vector<HostTensor> args = current;
    args.push_back(HostTensor(DType::F32, {}, {double(s)}));
    args.push_back(learningRates);
    args.push_back(x);
    args.push_back(targets);
    llvm::Expected<std::vector<HostTensor>> results =
        stepInterpreter.run("train_step", args);
    ASSERT_TRUE(bool(results)) << llvm::toString(results.takeError());
    const HostTensor &losses = results->back();
    if (s == 1)
      firstLosses = losses.values;
    if (s == kSteps)
      for (int64_t m = 0; m < kMembers; ++m) {
        EXPECT_TRUE(std::isfinite(losses.values[m])) << "member " << m;
        EXPECT_LT(losses.values[m], 0.9 * firstLosses[m])
            << "member " << m << " did not learn (lr "
            << learningRates.values[m] << ")";
      }
    current.assign(results->begin(), results->end() - 1);
  }
}

} // namespace
