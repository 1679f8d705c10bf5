//===- GroupsTest.cpp - Heterogeneous ensembles through the C++ API -------===//
//
// Module::groups compiles members of several architectures as one program,
// one ens.vmap per group (issue #30). Each group's results must be those of
// the group compiled alone: bit for bit on the CPU, and the interpreter, the
// oracle, agrees with both within rounding.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "ens/ens.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

using ens::DType;
using ens::TensorType;

using ens_test::expectError;

constexpr int64_t kBatch = 6, kIn = 4;

/// The parameter types of one MLP member kIn -> widths... -> 1:
/// w, b per layer.
std::vector<TensorType> mlpParams(const std::vector<int64_t> &widths) {
  std::vector<TensorType> params;
  int64_t in = kIn;
  std::vector<int64_t> outs = widths;
  outs.push_back(1);
  for (int64_t out : outs) {
    params.push_back({DType::F32, {in, out}});
    params.push_back({DType::F32, {out}});
    in = out;
  }
  return params;
}

/// Adds @<name>_loss(params..., x, t) and @<name>_step, one SGD step of one
/// member returning (loss, params'...). The step takes its shared inputs x,
/// t and lr first, or after the parameters with `sharedLast`, so that the
/// groups' shared arguments sit at different places.
std::string addMlpStep(ens::Module &module, const std::string &name,
                       const std::vector<int64_t> &widths, bool sharedLast) {
  std::vector<TensorType> params = mlpParams(widths);
  TensorType x{DType::F32, {kBatch, kIn}}, t{DType::F32, {kBatch, 1}},
      scalar{DType::F32, {}};
  size_t n = params.size();
  std::vector<TensorType> lossArgs = params;
  lossArgs.insert(lossArgs.end(), {x, t});
  ens::FunctionBuilder loss = module.function(name + "_loss", lossArgs);
  ens::Value h = loss.arg(n);
  for (size_t layer = 0; layer < n / 2; ++layer) {
    ens::Value w = loss.arg(2 * layer), b = loss.arg(2 * layer + 1);
    int64_t out = w.type().shape[1];
    h = loss.add(loss.matmul(h, w), loss.broadcastInDim(b, {kBatch, out}, {1}));
    if (layer + 1 < n / 2)
      h = loss.tanh(h);
  }
  loss.ret({loss.mse(h, loss.arg(n + 1))});
  std::vector<int64_t> wrt;
  for (size_t i = 0; i < n; ++i)
    wrt.push_back(static_cast<int64_t>(i));
  std::string grad = module.valueAndGrad(name + "_loss", wrt);

  std::vector<TensorType> stepArgs = {x, t, scalar};
  stepArgs.insert(sharedLast ? stepArgs.begin() : stepArgs.end(),
                  params.begin(), params.end());
  ens::FunctionBuilder step = module.function(name + "_step", stepArgs);
  size_t shared = sharedLast ? n : 0, own = sharedLast ? 0 : 3;
  std::vector<ens::Value> gradArgs;
  for (size_t i = 0; i < n; ++i)
    gradArgs.push_back(step.arg(own + i));
  gradArgs.push_back(step.arg(shared));
  gradArgs.push_back(step.arg(shared + 1));
  std::vector<ens::Value> g = step.call(grad, gradArgs);
  std::vector<ens::Value> out = {g[0]};
  for (size_t i = 0; i < n; ++i)
    out.push_back(step.sgd(step.arg(own + i), g[1 + i], step.arg(shared + 2)));
  step.ret(out);
  return name + "_step";
}

/// The group of `size` members of `step`, its shared arguments x, t, lr.
ens::Group mlpGroup(const std::string &step, size_t numParams, int64_t size,
                    bool sharedLast) {
  std::vector<int64_t> inAxes(numParams, 0);
  inAxes.insert(sharedLast ? inAxes.end() : inAxes.begin(), {-1, -1, -1});
  return {step, inAxes, std::vector<int64_t>(numParams + 1, 0), size};
}

/// The two groups both tests build: three members of 4 -> 8 -> 1 (shared
/// arguments first) and two of 4 -> 16 -> 16 -> 1 (shared arguments last).
struct NarrowAndDeep {
  size_t narrowParams, deepParams;
  ens::Group narrow, deep;
};

NarrowAndDeep addNarrowAndDeep(ens::Module &module) {
  std::vector<int64_t> narrow = {8}, deep = {16, 16};
  size_t narrowParams = mlpParams(narrow).size(),
         deepParams = mlpParams(deep).size();
  return {
      narrowParams, deepParams,
      mlpGroup(addMlpStep(module, "narrow", narrow, false), narrowParams, 3,
               false),
      mlpGroup(addMlpStep(module, "deep", deep, true), deepParams, 2, true)};
}

/// A tensor of `type` with values from a fixed sequence in [-1, 1).
ens::Tensor filled(const TensorType &type, uint32_t seed) {
  std::vector<double> values(type.numElements());
  uint32_t state = seed * 2654435761u + 1;
  for (double &value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<double>(state >> 8) / (1 << 23) - 1.0;
  }
  return ens::Tensor(type, values);
}

/// The arguments of group `group` alone, out of the program's `args`: its
/// shared ones in its own order, then its parameters.
std::vector<ens::Tensor> groupArgs(const std::vector<ens::Tensor> &args,
                                   const ens::Group &group, size_t firstOwn) {
  std::vector<ens::Tensor> result;
  size_t shared = 0, own = firstOwn;
  for (int64_t axis : group.inAxes)
    result.push_back(axis == -1 ? args[shared++] : args[own++]);
  return result;
}

void expectBitwiseEqual(const ens::Tensor &actual, const ens::Tensor &expected,
                        const std::string &what) {
  ASSERT_EQ(actual.type(), expected.type()) << what;
  EXPECT_EQ(actual.values(), expected.values()) << what;
}

void expectNear(const ens::Tensor &actual, const ens::Tensor &expected,
                const std::string &what) {
  ASSERT_EQ(actual.type(), expected.type()) << what;
  std::vector<double> a = actual.values(), e = expected.values();
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a[i], e[i], 1e-5 + 1e-5 * std::fabs(e[i]))
        << what << "[" << i << "]";
}

TEST(ApiGroupsTest, EachGroupComputesWhatItDoesAlone) {
  ens::Context context;
  ens::Module module = context.createModule();
  auto [narrowParams, deepParams, narrow, deep] = addNarrowAndDeep(module);
  std::vector<ens::Group> groups = {narrow, deep};
  std::string program = module.groups(groups, "hetero");
  EXPECT_EQ(program, "hetero");

  // The program's arguments: x, t, lr, then each group's parameters.
  ens::Signature signature = module.signature(program);
  ASSERT_EQ(signature.inputs.size(), 3 + narrowParams + deepParams);
  ASSERT_EQ(signature.results.size(), 1 + narrowParams + 1 + deepParams);
  EXPECT_EQ(signature.inputs[3].str(), "tensor<3x4x8xf32>");
  EXPECT_EQ(signature.inputs[3 + narrowParams].str(), "tensor<2x4x16xf32>");
  std::vector<ens::Tensor> args;
  for (size_t i = 0; i < signature.inputs.size(); ++i)
    args.push_back(filled(signature.inputs[i], static_cast<uint32_t>(i)));
  args[2] = ens::Tensor({DType::F32, {}}, {0.05});

  // Each group alone, compiled on the CPU.
  std::vector<std::vector<ens::Tensor>> alone;
  size_t firstOwn = 3;
  for (const ens::Group &group : groups) {
    std::string single =
        module.vmap(group.function, group.inAxes, group.outAxes, group.size);
    alone.push_back(module.compile(single, ens::Target::Cpu)
                        .run(groupArgs(args, group, firstOwn)));
    firstOwn += group.inAxes.size() - 3;
  }
  auto check = [&](ens::Target target, int threads, bool bitwise,
                   const std::string &what) {
    ens::CompileOptions options;
    options.threads = threads;
    std::vector<ens::Tensor> out =
        module.compile(program, target, options).run(args);
    ASSERT_EQ(out.size(), signature.results.size());
    size_t next = 0;
    for (size_t g = 0; g < groups.size(); ++g)
      for (const ens::Tensor &expected : alone[g]) {
        std::string name = what + ": group " + std::to_string(g) + " result " +
                           std::to_string(next);
        if (bitwise)
          expectBitwiseEqual(out[next++], expected, name);
        else
          expectNear(out[next++], expected, name);
      }
  };
  check(ens::Target::Cpu, 1, true, "cpu, 1 thread");
  check(ens::Target::Cpu, 2, true, "cpu, 2 threads");
  check(ens::Target::Interpreter, 0, false, "interpreter");
  check(ens::Target::CudaEmu, 0, false, "cuda-emu");

  // The step did train: the losses are positive and the parameters moved.
  EXPECT_GT(alone[0][0].at(0), 0.0);
  EXPECT_NE(alone[1][1].values(), args[3 + narrowParams].values());
}

TEST(ApiGroupsTest, RejectsGroupsThatDoNotFit) {
  ens::Context context;
  ens::Module module = context.createModule();
  NarrowAndDeep both = addNarrowAndDeep(module);
  const ens::Group &a = both.narrow, &b = both.deep;
  std::vector<std::string> before = module.functionNames();

  expectError([&] { module.groups({}); }, "groups needs at least one group");
  expectError(
      [&] {
        module.groups({a, {"nowhere", {}, {}, 1}});
      },
      "no function named 'nowhere'");
  ens::Group wrongAxes = b;
  wrongAxes.inAxes.pop_back();
  expectError(
      [&] {
        module.groups({a, wrongAxes});
      },
      "vmap of @deep_step needs one in_axes entry per argument");
  ens::Group zero = b;
  zero.size = 0;
  expectError(
      [&] {
        module.groups({a, zero});
      },
      "vmap size must be at least 1, got 0");
  // The deep group sharing only x and t, and lr per member: the shared
  // arguments differ.
  ens::Group fewerShared = b;
  fewerShared.inAxes.back() = 0;
  expectError(
      [&] {
        module.groups({a, fewerShared});
      },
      "group 1 (@deep_step) shares the arguments (tensor<6x4xf32>, "
      "tensor<6x1xf32>) but group 0 shares (tensor<6x4xf32>, "
      "tensor<6x1xf32>, tensor<f32>); every group must share as "
      "many, of the same types");
  module.groups({a, b}, "taken");
  expectError(
      [&] {
        module.groups({a, b}, "taken");
      },
      "the module already has a symbol named 'taken'");
  before.push_back("taken");
  EXPECT_EQ(module.functionNames(), before);
}

} // namespace
