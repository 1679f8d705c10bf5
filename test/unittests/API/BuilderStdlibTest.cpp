//===- BuilderStdlibTest.cpp - The stdlib and scalars from the builder ----===//
//
// Uses only include/ens/ens.h and libens, as a framework would: a whole
// ensemble training step built op by op, and each loss, optimizer,
// initialiser and scalar rule on its own. Expected values are computed
// here, in double, from the definitions (docs/stdlib.md), never by ens.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "ens/ens.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

using ens::DType;
using ens::TensorType;
using ens::Value;

using ens_test::expectError;

/// Expects `actual` to equal `expected` elementwise within `tolerance`,
/// relative to max(1, |expected|).
void expectNear(const std::vector<double> &actual,
                const std::vector<double> &expected, double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i],
                tolerance * std::max(1.0, std::abs(expected[i])))
        << "element " << i;
}

/// Runs `function` of `module` on the interpreter, the exact target.
std::vector<ens::Tensor> run(const ens::Module &module,
                             const std::string &function,
                             const std::vector<ens::Tensor> &args) {
  return module.compile(function, ens::Target::Interpreter).run(args);
}

const TensorType kScalar{DType::F32, {}};

TEST(ApiStdlibTest, ScalarsAndNumbersBroadcastInElementwiseOps) {
  ens::Context context;
  ens::Module module = context.createModule();
  ens::FunctionBuilder f =
      module.function("f", {{DType::F32, {2, 3}}, kScalar});
  Value x = f.arg(0), s = f.arg(1);
  Value positive = f.cmp(ens::Predicate::Gt, x, 2.5);
  f.ret({f.add(x, s), f.mul(s, x), f.sub(1.0, x), f.div(x, 2.0), f.max(x, 3.0),
         f.min(4, x), f.pow(x, 2.0), f.sub(s, s),
         f.select(positive, x, f.constant(kScalar, {-1.0})),
         f.cmp(ens::Predicate::Lt, s, x),
         f.select(f.cmp(ens::Predicate::Gt, s, 5.0), f.neg(x), x)});
  // The scalar became an explicit broadcast: the dialect itself never
  // broadcasts.
  EXPECT_NE(module.str().find("ens.broadcast_in_dim"), std::string::npos);

  std::vector<double> xs{1, 2, 3, -4, 5, 0.5};
  double sv = 10;
  std::vector<ens::Tensor> out =
      run(module, "f", {{{DType::F32, {2, 3}}, xs}, {kScalar, {sv}}});
  ASSERT_EQ(out.size(), 11u);
  std::vector<std::vector<double>> expected(11);
  for (double v : xs) {
    expected[0].push_back(v + sv);
    expected[1].push_back(sv * v);
    expected[2].push_back(1 - v);
    expected[3].push_back(v / 2);
    expected[4].push_back(std::max(v, 3.0));
    expected[5].push_back(std::min(4.0, v));
    expected[6].push_back(v * v);
    expected[8].push_back(v > 2.5 ? v : -1);
    expected[9].push_back(sv < v ? 1 : 0);
    expected[10].push_back(sv > 5 ? -v : v);
  }
  expected[7] = {0};
  for (size_t i = 0; i < out.size(); ++i) {
    std::vector<int64_t> shape =
        i == 7 ? std::vector<int64_t>{} : std::vector<int64_t>{2, 3};
    EXPECT_EQ(out[i].type().shape, shape);
    expectNear(out[i].values(), expected[i], 1e-6);
  }
}

TEST(ApiStdlibTest, LossesMatchTheirDefinitions) {
  ens::Context context;
  ens::Module module = context.createModule();
  TensorType logitsType{DType::F32, {3, 4}}, labelsType{DType::I32, {3}};
  ens::FunctionBuilder f =
      module.function("losses", {logitsType, logitsType, labelsType});
  f.ret({f.mse(f.arg(0), f.arg(1)), f.softmaxCrossEntropy(f.arg(0), f.arg(2))});

  std::vector<double> logits{0.5, -1, 2, 0.25, 3, 1, -2, 0, -0.5, 0.5, 1.5, 4};
  std::vector<double> targets{1, 0, 2, 0, 2, 1, -1, 1, 0, 0, 1, 3};
  std::vector<int> labels{2, 0, 3};
  std::vector<ens::Tensor> out =
      run(module, "losses",
          {{logitsType, logits},
           {logitsType, targets},
           {labelsType, std::vector<double>(labels.begin(), labels.end())}});

  double squares = 0;
  for (size_t i = 0; i < logits.size(); ++i)
    squares += (logits[i] - targets[i]) * (logits[i] - targets[i]);
  double nll = 0;
  for (int b = 0; b < 3; ++b) {
    double sum = 0;
    for (int c = 0; c < 4; ++c)
      sum += std::exp(logits[b * 4 + c]);
    nll += std::log(sum) - logits[b * 4 + labels[b]];
  }
  EXPECT_NEAR(out[0].at(0), squares / logits.size(), 1e-6);
  EXPECT_NEAR(out[1].at(0), nll / 3, 1e-6);
}

TEST(ApiStdlibTest, SgdAndMomentumMatchHandComputedUpdates) {
  ens::Context context;
  ens::Module module = context.createModule();
  TensorType t{DType::F32, {4}};
  ens::FunctionBuilder f = module.function("update", {t, t, t, kScalar});
  Value p = f.arg(0), g = f.arg(1), velocity = f.arg(2), lr = f.arg(3);
  ens::SgdMomentumState momentum =
      f.sgdMomentum(p, g, velocity, 0.1, 0.9, 0.01);
  // Each method is one ens.stdlib_call at its operands' types, with no
  // declaration per signature.
  ens::SgdMomentumState again = f.sgdMomentum(p, g, velocity, lr, 0.5);
  f.ret({f.sgd(p, g, lr), f.sgd(p, g, 0.25), momentum.param, momentum.velocity,
         again.param, again.velocity});
  std::string text = module.str();
  size_t first = text.find("ens.stdlib_call \"sgd_momentum\"");
  ASSERT_NE(first, std::string::npos);
  EXPECT_NE(text.find("ens.stdlib_call \"sgd_momentum\"", first + 1),
            std::string::npos);
  EXPECT_EQ(text.find("ens.stdlib ="), std::string::npos);
  EXPECT_EQ(module.functionNames(), std::vector<std::string>{"update"});

  std::vector<double> ps{1, -2, 0.5, 3}, gs{0.5, 0.25, -1, 2},
      vs{0.1, 0, -0.2, 1};
  double lrv = 0.05;
  std::vector<ens::Tensor> out =
      run(module, "update", {{t, ps}, {t, gs}, {t, vs}, {kScalar, {lrv}}});
  std::vector<std::vector<double>> expected(6);
  for (size_t i = 0; i < 4; ++i) {
    expected[0].push_back(ps[i] - lrv * gs[i]);
    expected[1].push_back(ps[i] - 0.25 * gs[i]);
    double v1 = 0.9 * vs[i] + gs[i] + 0.01 * ps[i];
    expected[2].push_back(ps[i] - 0.1 * v1);
    expected[3].push_back(v1);
    double v2 = 0.5 * vs[i] + gs[i];
    expected[4].push_back(ps[i] - lrv * v2);
    expected[5].push_back(v2);
  }
  for (size_t i = 0; i < 6; ++i)
    expectNear(out[i].values(), expected[i], 1e-6);

  // A learning-rate sweep: under vmap the rank-0 lr is each member's own.
  std::string sweep =
      module.vmap("update", {-1, -1, -1, 0}, {0, 0, 0, 0, 0, 0}, 2);
  std::vector<ens::Tensor> swept =
      run(module, sweep,
          {{t, ps}, {t, gs}, {t, vs}, {{DType::F32, {2}}, {0.5, 2}}});
  std::vector<double> want;
  for (double memberLr : {0.5, 2.0})
    for (size_t i = 0; i < 4; ++i)
      want.push_back(ps[i] - memberLr * gs[i]);
  expectNear(swept[0].values(), want, 1e-6);
}

/// Mean and population variance of `values`.
std::pair<double, double> moments(const std::vector<double> &values) {
  double mean = 0, variance = 0;
  for (double v : values)
    mean += v / values.size();
  for (double v : values)
    variance += (v - mean) * (v - mean) / values.size();
  return {mean, variance};
}

TEST(ApiStdlibTest, InitialisersAndRandomOpsHaveTheirDistributions) {
  ens::Context context;
  ens::Module module = context.createModule();
  TensorType keyType{DType::I32, {2}}, wType{DType::F32, {64, 32}};
  ens::FunctionBuilder f = module.function("init", {keyType});
  Value keys = f.randomSplit(f.arg(0), 4);
  EXPECT_EQ(keys.type(), (TensorType{DType::I32, {4, 2}}));
  auto key = [&](int64_t i) {
    return f.reshape(f.slice(keys, {i, 0}, {i + 1, 2}, {1, 1}), {2});
  };
  Value folded = f.randomFoldIn(key(3), f.constant({DType::I32, {}}, {7}));
  f.ret({f.xavierUniform(key(0), wType), f.kaimingUniform(key(1), wType),
         f.randomUniform(key(2), {DType::F32, {4096}}),
         f.randomNormal(folded, {DType::F32, {4096}})});
  const int64_t members = 3;
  std::string ensemble = module.vmap("init", {-1}, {0, 0, 0, 0}, members);
  std::vector<ens::Tensor> out = run(module, ensemble, {{keyType, {17, 42}}});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].type(), (TensorType{DType::F32, {members, 64, 32}}));

  const int64_t n = 64 * 32;
  double xavier = std::sqrt(6.0 / (64 + 32)), kaiming = std::sqrt(6.0 / 64);
  for (int which = 0; which < 2; ++which) {
    double bound = which == 0 ? xavier : kaiming;
    std::vector<double> all = out[which].values();
    for (double w : all)
      ASSERT_LE(std::abs(w), bound);
    for (int64_t m = 0; m < members; ++m) {
      std::vector<double> member(all.begin() + m * n,
                                 all.begin() + (m + 1) * n);
      auto [mean, variance] = moments(member);
      // U(-b, b): mean 0 and variance b^2 / 3; with 2048 draws the
      // standard error of the mean is b / sqrt(3 * 2048) ~ 0.013 b.
      EXPECT_NEAR(mean, 0, 0.06 * bound);
      EXPECT_NEAR(variance, bound * bound / 3, 0.1 * bound * bound / 3);
      // The bound is reached: the draws are not squeezed.
      EXPECT_GT(*std::max_element(member.begin(), member.end()), 0.95 * bound);
      if (m > 0) {
        EXPECT_NE(member, std::vector<double>(all.begin(), all.begin() + n))
            << "member " << m << " drew member 0's weights";
      }
    }
  }
  std::vector<double> uniform = out[2].values(), normal = out[3].values();
  for (double u : uniform)
    ASSERT_TRUE(u >= 0 && u < 1) << u;
  auto [uMean, uVariance] = moments(uniform);
  EXPECT_NEAR(uMean, 0.5, 0.02);
  EXPECT_NEAR(uVariance, 1.0 / 12, 0.01);
  auto [nMean, nVariance] = moments(normal);
  EXPECT_NEAR(nMean, 0, 0.05);
  EXPECT_NEAR(nVariance, 1, 0.06);
}

// An MLP member (4 -> 16 -> 3, ReLU) with softmax cross-entropy, trained by
// AdamW, vmapped over members: everything from the API, no IR text.
constexpr int64_t kBatch = 8, kIn = 4, kHidden = 16, kClasses = 3;
constexpr int64_t kMembers = 4;
constexpr double kLr = 0.01, kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8,
                 kDecay = 0.05;

std::vector<TensorType> paramTypes() {
  return {{DType::F32, {kIn, kHidden}},
          {DType::F32, {kHidden}},
          {DType::F32, {kHidden, kClasses}},
          {DType::F32, {kClasses}}};
}

/// Builds @init (key -> params), @loss, and @step (params, m, v, x, labels,
/// step -> loss, params', m', v') of one member, and returns the ensemble's
/// init and step.
std::pair<std::string, std::string> buildEnsemble(ens::Module &module) {
  std::vector<TensorType> params = paramTypes();
  TensorType xType{DType::F32, {kBatch, kIn}}, labelsType{DType::I32, {kBatch}};
  {
    ens::FunctionBuilder f = module.function("init", {{DType::I32, {2}}});
    Value keys = f.randomSplit(f.arg(0), 2);
    auto key = [&](int64_t i) {
      return f.reshape(f.slice(keys, {i, 0}, {i + 1, 2}, {1, 1}), {2});
    };
    f.ret({f.xavierUniform(key(0), params[0]), f.constant(params[1], {0}),
           f.xavierUniform(key(1), params[2]), f.constant(params[3], {0})});
  }
  {
    std::vector<TensorType> args = params;
    args.insert(args.end(), {xType, labelsType});
    ens::FunctionBuilder f = module.function("loss", args);
    Value h = f.relu(f.add(f.matmul(f.arg(4), f.arg(0)),
                           f.broadcastInDim(f.arg(1), {kBatch, kHidden}, {1})));
    Value logits = f.add(f.matmul(h, f.arg(2)),
                         f.broadcastInDim(f.arg(3), {kBatch, kClasses}, {1}));
    f.ret({f.softmaxCrossEntropy(logits, f.arg(5))});
  }
  std::string grad = module.valueAndGrad("loss", {0, 1, 2, 3});
  {
    std::vector<TensorType> args;
    for (int copy = 0; copy < 3; ++copy)
      args.insert(args.end(), params.begin(), params.end());
    args.insert(args.end(), {xType, labelsType, kScalar});
    ens::FunctionBuilder f = module.function("step", args);
    std::vector<Value> lossArgs{f.arg(0), f.arg(1),  f.arg(2),
                                f.arg(3), f.arg(12), f.arg(13)};
    std::vector<Value> lossAndGrads = f.call(grad, lossArgs);
    std::vector<Value> results{lossAndGrads[0]}, ms, vs;
    for (size_t i = 0; i < 4; ++i) {
      ens::AdamState s =
          f.adam(f.arg(i), lossAndGrads[1 + i], f.arg(4 + i), f.arg(8 + i),
                 f.arg(14), kLr, kBeta1, kBeta2, kEps, kDecay);
      results.push_back(s.param);
      ms.push_back(s.m);
      vs.push_back(s.v);
    }
    results.insert(results.end(), ms.begin(), ms.end());
    results.insert(results.end(), vs.begin(), vs.end());
    f.ret(results);
  }
  std::string init = module.vmap("init", {-1}, {0, 0, 0, 0}, kMembers);
  std::vector<int64_t> inAxes(12, 0), outAxes(13, 0);
  inAxes.insert(inAxes.end(), {-1, -1, -1});
  return {init, module.vmap("step", inAxes, outAxes, kMembers)};
}

/// Member `m`'s block of a tensor whose leading dimension is the members.
std::vector<double> member(const ens::Tensor &tensor, int64_t m) {
  std::vector<double> all = tensor.values();
  size_t size = all.size() / tensor.type().shape[0];
  return std::vector<double>(all.begin() + m * size,
                             all.begin() + (m + 1) * size);
}

/// The member's loss, computed in double from the definitions.
double referenceLoss(const std::vector<std::vector<double>> &p,
                     const std::vector<double> &x,
                     const std::vector<int> &labels) {
  double total = 0;
  for (int64_t b = 0; b < kBatch; ++b) {
    std::vector<double> h(kHidden), logits(kClasses);
    for (int64_t j = 0; j < kHidden; ++j) {
      h[j] = p[1][j];
      for (int64_t i = 0; i < kIn; ++i)
        h[j] += x[b * kIn + i] * p[0][i * kHidden + j];
      h[j] = std::max(h[j], 0.0);
    }
    double sum = 0;
    for (int64_t c = 0; c < kClasses; ++c) {
      logits[c] = p[3][c];
      for (int64_t j = 0; j < kHidden; ++j)
        logits[c] += h[j] * p[2][j * kClasses + c];
      sum += std::exp(logits[c]);
    }
    total += std::log(sum) - logits[labels[b]];
  }
  return total / kBatch;
}

/// The Adam update as IR text using the library, to compare the builder's
/// route with: one parameter type, hyperparameters as constants.
std::string adamText(const TensorType &type) {
  std::string t = type.str(), s = "tensor<f32>";
  auto constant = [&](const char *name, double value) {
    // %e: MLIR's float literals need the point.
    char text[64];
    std::snprintf(text, sizeof text, "%.17e", value);
    return std::string("  %") + name + " = ens.constant dense<" + text +
           "> : " + s + "\n";
  };
  return "func.func private @adam_decl(" + t + ", " + t + ", " + t + ", " + t +
         ", " + s + ", " + s + ", " + s + ", " + s + ", " + s + ", " + s +
         ") -> (" + t + ", " + t + ", " + t +
         ") attributes {ens.stdlib = \"adam\"}\n"
         "func.func @update(%p: " +
         t + ", %g: " + t + ", %m: " + t + ", %v: " + t + ", %step: " + s +
         ") -> (" + t + ", " + t + ", " + t + ") {\n" + constant("lr", kLr) +
         constant("b1", kBeta1) + constant("b2", kBeta2) +
         constant("eps", kEps) + constant("wd", kDecay) +
         "  %r:3 = call @adam_decl(%p, %g, %m, %v, %step, %lr, %b1, %b2, "
         "%eps, %wd) : (" +
         t + ", " + t + ", " + t + ", " + t + ", " + s + ", " + s + ", " + s +
         ", " + s + ", " + s + ", " + s + ") -> (" + t + ", " + t + ", " + t +
         ")\n  return %r#0, %r#1, %r#2 : " + t + ", " + t + ", " + t + "\n}\n";
}

TEST(ApiStdlibTest, BuildsAWholeEnsembleTrainingStep) {
  ens::Context context;
  ens::Module module = context.createModule();
  auto [init, step] = buildEnsemble(module);
  std::vector<TensorType> params = paramTypes();

  std::vector<ens::Tensor> state =
      run(module, init, {{{DType::I32, {2}}, {5, 11}}});
  ASSERT_EQ(state.size(), 4u);
  EXPECT_NE(member(state[0], 0), member(state[0], 1));
  // m and v start at zero.
  for (int copy = 0; copy < 2; ++copy)
    for (size_t i = 0; i < 4; ++i) {
      TensorType stacked = params[i];
      stacked.shape.insert(stacked.shape.begin(), kMembers);
      state.emplace_back(stacked);
    }
  std::vector<double> x;
  for (int64_t i = 0; i < kBatch * kIn; ++i)
    x.push_back(std::sin(0.7 * i) * 2);
  std::vector<int> labels;
  for (int64_t b = 0; b < kBatch; ++b)
    labels.push_back(static_cast<int>((b * 5) % kClasses));
  std::vector<ens::Tensor> args = state;
  args.emplace_back(TensorType{DType::F32, {kBatch, kIn}}, x);
  args.emplace_back(TensorType{DType::I32, {kBatch}},
                    std::vector<double>(labels.begin(), labels.end()));
  args.emplace_back(kScalar, std::vector<double>{1});
  ens::Executable exe = module.compile(step, ens::Target::Cpu);
  std::vector<ens::Tensor> out = exe.run(args);
  ASSERT_EQ(out.size(), 13u);

  // The loss of each member, from its initial parameters.
  for (int64_t m = 0; m < kMembers; ++m) {
    std::vector<std::vector<double>> p;
    for (size_t i = 0; i < 4; ++i)
      p.push_back(member(state[i], m));
    EXPECT_NEAR(out[0].at(m), referenceLoss(p, x, labels), 1e-5)
        << "member " << m;
  }

  // The gradients the step used, from the same compiler's value_and_grad.
  std::string gradEnsemble = module.vmap(
      "loss_value_and_grad", {0, 0, 0, 0, -1, -1}, {0, 0, 0, 0, 0}, kMembers);
  std::vector<ens::Tensor> lossArgs(state.begin(), state.begin() + 4);
  lossArgs.insert(lossArgs.end(), args.begin() + 12, args.begin() + 14);
  std::vector<ens::Tensor> grads =
      module.compile(gradEnsemble, ens::Target::Cpu).run(lossArgs);

  for (size_t i = 0; i < 4; ++i) {
    // At step 1 from m = v = 0 the bias-corrected moments are g and g^2:
    // p' = p - lr (g / (|g| + eps) + decay p), m' = (1 - b1) g,
    // v' = (1 - b2) g^2.
    std::vector<double> p = state[i].values(), g = grads[1 + i].values();
    std::vector<double> wantP, wantM, wantV;
    for (size_t k = 0; k < p.size(); ++k) {
      wantP.push_back(p[k] -
                      kLr * (g[k] / (std::abs(g[k]) + kEps) + kDecay * p[k]));
      wantM.push_back((1 - kBeta1) * g[k]);
      wantV.push_back((1 - kBeta2) * g[k] * g[k]);
    }
    expectNear(out[1 + i].values(), wantP, 1e-5);
    expectNear(out[5 + i].values(), wantM, 1e-5);
    expectNear(out[9 + i].values(), wantV, 1e-5);

    // The same update through IR text using the library.
    ens::Module text = context.parse(adamText(params[i]));
    std::string update =
        text.vmap("update", {0, 0, 0, 0, -1}, {0, 0, 0}, kMembers);
    std::vector<ens::Tensor> fromText =
        text.compile(update, ens::Target::Cpu)
            .run({state[i], grads[1 + i], state[4 + i], state[8 + i],
                  args.back()});
    for (size_t j = 0; j < 3; ++j)
      EXPECT_EQ(out[1 + i + 4 * j].values(), fromText[j].values())
          << "parameter " << i << ", result " << j;
  }
}

TEST(ApiStdlibTest, ChecksOperandsAndLeavesTheFunctionUnchanged) {
  ens::Context context;
  ens::Module module = context.createModule();
  TensorType t{DType::F32, {2, 3}};
  ens::FunctionBuilder f = module.function("f", {t,
                                                 {DType::F32, {3, 2}},
                                                 {DType::F64, {}},
                                                 {DType::I32, {2, 3}},
                                                 {DType::I32, {2}},
                                                 {DType::F32, {3}}});
  Value x = f.arg(0), xt = f.arg(1), d = f.arg(2), ints = f.arg(3),
        key = f.arg(4), vec = f.arg(5);
  ens::Module other = context.createModule();
  ens::FunctionBuilder g = other.function("g", {t});
  std::string before = module.str();

  auto unchanged = [&](auto fn, const std::string &message) {
    expectError(fn, message);
    EXPECT_EQ(module.str(), before) << "after: " << message;
  };
  unchanged([&] { f.add(x, d); }, "ens.add");
  unchanged([&] { f.mul(d, x); }, "ens.mul");
  unchanged([&] { f.add(x, xt); }, "ens never broadcasts implicitly");
  unchanged([&] { f.add(x, vec); }, "ens.add");
  unchanged([&] { f.mul(g.arg(0), 2.0); }, "is not a value of @f");
  unchanged([&] { f.select(x, x, d); }, "ens.select");
  unchanged([&] { f.mse(x, g.arg(0)); },
            "mse: an operand is not a value of @f");
  unchanged([&] { f.adam(x, x, x, g.arg(0), 1.0, 0.1); },
            "adam: an operand is not a value of @f");
  unchanged([&] { f.mse(x, xt); },
            "mse: targets must be tensor<2x3xf32> (the predictions' type), "
            "got tensor<3x2xf32>");
  unchanged([&] { f.mse(ints, ints); },
            "mse: predictions must be a float tensor, got tensor<2x3xi32>");
  unchanged([&] { f.softmaxCrossEntropy(vec, key); },
            "softmaxCrossEntropy: logits must be [batch, classes], got "
            "tensor<3xf32>");
  unchanged([&] { f.softmaxCrossEntropy(x, vec); },
            "softmaxCrossEntropy: labels must be tensor<2xi32> (one class "
            "index per example), got tensor<3xf32>");
  unchanged([&] { f.sgd(x, xt, 0.1); },
            "sgd: grad must be tensor<2x3xf32> (param's type), got "
            "tensor<3x2xf32>");
  unchanged([&] { f.sgdMomentum(x, x, xt, 0.1, 0.9); },
            "sgdMomentum: velocity must be tensor<2x3xf32>");
  // The step's constant is made before lr is found wrong: it goes too.
  unchanged([&] { f.adam(x, x, x, x, 1.0, d); },
            "adam: lr must be tensor<f32> (a number, or a rank-0 value of the "
            "parameter's element type), got tensor<f64>");
  unchanged([&] { f.adam(x, x, x, x, 1.0, 0.1, vec); },
            "adam: beta1 must be tensor<f32>");
  unchanged([&] { f.adam(x, x, x, xt, 1.0, 0.1); },
            "adam: v must be tensor<2x3xf32>");
  unchanged(
      [&] {
        f.xavierUniform(key, {DType::F32, {5}});
      },
      "xavierUniform: the weight must be a float tensor of rank 2 or "
      "more (its fans are all dimensions but the last, and the last), "
      "got tensor<5xf32>");
  unchanged(
      [&] {
        f.kaimingUniform(key, {DType::I32, {2, 2}});
      },
      "kaimingUniform: the weight must be a float tensor");
  unchanged([&] { f.xavierUniform(ints, t); },
            "xavierUniform: the key must be tensor<2xi32> (one key), got "
            "tensor<2x3xi32>");
  unchanged([&] { f.randomUniform(x, t); }, "ens.random_uniform");
  unchanged([&] { f.randomSplit(x, 2); }, "ens.random_split");
}

} // namespace
