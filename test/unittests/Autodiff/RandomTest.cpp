//===- RandomTest.cpp - Random numbers, under vmap and autodiff -----------===//
//
// Threefry-2x32 against the Random123 known-answer vectors, reproducibility
// and moments of the draws, independent streams per vmap member, agreement
// bit for bit of ens-batch with the interpreter's loop definition of vmap
// (so the member index is folded into keys the same way), and gradients
// that do not flow through draws.
//
//===----------------------------------------------------------------------===//

#include "AutodiffTestUtils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Interpreter/Kernels.h"

#include "llvm/Support/FormatVariadic.h"

#include <climits>
#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;
using llvm::formatv;

namespace {

HostTensor key(int32_t a, int32_t b) {
  return HostTensor(DType::I32, {2}, {double(a), double(b)});
}

double mean(llvm::ArrayRef<double> values) {
  double sum = 0;
  for (double v : values)
    sum += v;
  return sum / values.size();
}

double variance(llvm::ArrayRef<double> values) {
  double m = mean(values), sum = 0;
  for (double v : values)
    sum += (v - m) * (v - m);
  return sum / values.size();
}

double correlation(llvm::ArrayRef<double> x, llvm::ArrayRef<double> y) {
  double mx = mean(x), my = mean(y), sxy = 0;
  for (size_t i = 0; i < x.size(); ++i)
    sxy += (x[i] - mx) * (y[i] - my);
  return sxy / x.size() / std::sqrt(variance(x) * variance(y));
}

/// Row `m` of a [members x n] tensor.
llvm::ArrayRef<double> row(const HostTensor &x, int64_t m) {
  int64_t n = x.shape.back();
  return llvm::ArrayRef<double>(x.values).slice(m * n, n);
}

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

TEST(RandomTest, ThreefryKnownAnswers) {
  // Random123's kat_vectors for threefry2x32_20.
  struct Vector {
    std::array<uint32_t, 2> key, counter, expected;
  } vectors[] = {
      {{0, 0}, {0, 0}, {0x6b200159, 0x99ba4efe}},
      {{0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x1cb996fc, 0xbb002be7}},
      {{0x13198a2e, 0x03707344},
       {0x243f6a88, 0x85a308d3},
       {0xc4923a9c, 0x483df7a0}},
  };
  for (const Vector &v : vectors) {
    std::array<uint32_t, 2> result = ref::threefry2x32(v.key, v.counter);
    EXPECT_EQ(result[0], v.expected[0]) << std::hex << v.key[0];
    EXPECT_EQ(result[1], v.expected[1]) << std::hex << v.key[0];
  }
}

constexpr const char *kDraws = R"mlir(
func.func @draws(%key: tensor<2xi32>)
    -> (tensor<1000xf64>, tensor<1000xf64>, tensor<1000xf32>) {
  %u = ens.random_uniform %key : tensor<2xi32> -> tensor<1000xf64>
  %n = ens.random_normal %key : tensor<2xi32> -> tensor<1000xf64>
  %f = ens.random_uniform %key : tensor<2xi32> -> tensor<1000xf32>
  return %u, %n, %f : tensor<1000xf64>, tensor<1000xf64>, tensor<1000xf32>
}
)mlir";

TEST(RandomTest, SameKeySameDraws) {
  // Two programs, two interpreters: the draws depend on the key alone.
  Program first(kDraws), second(kDraws);
  ASSERT_TRUE(first.isValid() && second.isValid());
  std::vector<HostTensor> a = run(first.getModule(), "draws", key(1, 2));
  std::vector<HostTensor> b = run(second.getModule(), "draws", key(1, 2));
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  for (int i = 0; i < 3; ++i)
    expectIdentical(a[i], b[i], formatv("draw {0}", i).str());

  for (HostTensor other : {key(1, 3), key(2, 2), key(-1, 2)}) {
    std::vector<HostTensor> c = run(first.getModule(), "draws", other);
    ASSERT_EQ(c.size(), 3u);
    for (int i = 0; i < 3; ++i) {
      int equal = 0;
      for (int64_t e = 0; e < 1000; ++e)
        equal += a[i].values[e] == c[i].values[e];
      // f32 uniforms have 2^23 values: an equal pair is possible but rare.
      EXPECT_LE(equal, i == 2 ? 2 : 0) << "draw " << i;
    }
  }
}

TEST(RandomTest, Moments) {
  Program program(R"mlir(
func.func @draws(%key: tensor<2xi32>)
    -> (tensor<100000xf64>, tensor<100000xf32>, tensor<100000xf64>,
        tensor<100000xf32>) {
  %u = ens.random_uniform %key : tensor<2xi32> -> tensor<100000xf64>
  %f = ens.random_uniform %key : tensor<2xi32> -> tensor<100000xf32>
  %n = ens.random_normal %key : tensor<2xi32> -> tensor<100000xf64>
  %m = ens.random_normal %key : tensor<2xi32> -> tensor<100000xf32>
  return %u, %f, %n, %m : tensor<100000xf64>, tensor<100000xf32>,
      tensor<100000xf64>, tensor<100000xf32>
}
)mlir");
  ASSERT_TRUE(program.isValid());
  for (HostTensor k : {key(0, 0), key(42, -7)}) {
    std::vector<HostTensor> draws = run(program.getModule(), "draws", k);
    ASSERT_EQ(draws.size(), 4u);
    for (int i = 0; i < 2; ++i) {
      SCOPED_TRACE(formatv("uniform {0}", i).str());
      for (double v : draws[i].values)
        ASSERT_TRUE(v >= 0 && v < 1) << v;
      EXPECT_NEAR(mean(draws[i].values), 0.5, 0.01);
      EXPECT_NEAR(variance(draws[i].values), 1.0 / 12, 0.005);
    }
    for (int i = 2; i < 4; ++i) {
      SCOPED_TRACE(formatv("normal {0}", i).str());
      for (double v : draws[i].values)
        ASSERT_TRUE(std::isfinite(v)) << v;
      EXPECT_NEAR(mean(draws[i].values), 0, 0.01);
      EXPECT_NEAR(variance(draws[i].values), 1, 0.02);
    }
  }
}

//===----------------------------------------------------------------------===//
// Under vmap
//===----------------------------------------------------------------------===//

TEST(RandomTest, VmapMembersDrawIndependently) {
  Program program(R"mlir(
func.func @member(%key: tensor<2xi32>) -> tensor<10000xf64> {
  %n = ens.random_normal %key : tensor<2xi32> -> tensor<10000xf64>
  return %n : tensor<10000xf64>
}
func.func @different(%key: tensor<2xi32>) -> tensor<4x10000xf64> {
  %n = ens.vmap @member(%key) {in_axes = array<i64: -1>,
      out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<2xi32>) -> tensor<4x10000xf64>
  return %n : tensor<4x10000xf64>
}
func.func @same(%key: tensor<2xi32>) -> tensor<4x10000xf64> {
  %n = ens.vmap @member(%key) {in_axes = array<i64: -1>,
      out_axes = array<i64: 0>, size = 4 : i64, randomness = "same"}
      : (tensor<2xi32>) -> tensor<4x10000xf64>
  return %n : tensor<4x10000xf64>
}
)mlir");
  ASSERT_TRUE(program.isValid());
  HostTensor k = key(3, 5);
  HostTensor single = run(program.getModule(), "member", k).front();
  for (bool batched : {false, true}) {
    SCOPED_TRACE(batched ? "ens-batch" : "loop");
    OwningOpRef<ModuleOp> module = program.cloneModule();
    if (batched) {
      ASSERT_TRUE(program.apply({PassKind::Batch}, *module));
    }
    std::vector<HostTensor> different = run(*module, "different", k);
    std::vector<HostTensor> same = run(*module, "same", k);
    ASSERT_EQ(different.size(), 1u);
    ASSERT_EQ(same.size(), 1u);
    for (int64_t m = 0; m < 4; ++m) {
      for (int64_t o = 0; o < m; ++o) {
        EXPECT_NE(row(different[0], m), row(different[0], o));
        EXPECT_LT(
            std::fabs(correlation(row(different[0], m), row(different[0], o))),
            0.05)
            << "members " << o << " and " << m;
      }
      EXPECT_EQ(row(same[0], m), llvm::ArrayRef<double>(single.values))
          << "member " << m;
    }
  }
}

/// A member drawing in every way: from its key, from a batch of split keys,
/// and from a key with data folded in; f32 and f64.
constexpr const char *kDrawingMember = R"mlir(
func.func @member(%key: tensor<2xi32>, %scale: tensor<3xf64>)
    -> (tensor<3xf64>, tensor<2x3xf32>, tensor<4xf64>) {
  %u = ens.random_uniform %key : tensor<2xi32> -> tensor<3xf64>
  %s = ens.mul %u, %scale : tensor<3xf64>
  %keys = ens.random_split %key : tensor<2xi32> -> tensor<2x2xi32>
  %n = ens.random_normal %keys : tensor<2x2xi32> -> tensor<2x3xf32>
  %d = ens.constant dense<7> : tensor<i32>
  %k = ens.random_fold_in %key, %d : tensor<2xi32>, tensor<i32> -> tensor<2xi32>
  %v = ens.random_normal %k : tensor<2xi32> -> tensor<4xf64>
  return %s, %n, %v : tensor<3xf64>, tensor<2x3xf32>, tensor<4xf64>
}
)mlir";

/// `@<name>` mapping `callee`, which takes a key of `memberKey` and scales
/// of `memberScale` and returns three results, over 3 members: the key
/// along `keyAxis` (or shared) and the scales along axis 0.
std::string vmapFunction(llvm::StringRef name, llvm::StringRef callee,
                         llvm::StringRef randomness, int64_t keyAxis,
                         llvm::ArrayRef<Shape> memberResults,
                         llvm::ArrayRef<DType> dtypes, Shape memberScale,
                         Shape memberKey) {
  Shape keyShape = memberKey;
  if (keyAxis >= 0)
    keyShape.insert(keyShape.begin() + keyAxis, 3);
  Shape scale = memberScale;
  scale.insert(scale.begin(), 3);
  std::string results, outAxes;
  for (auto [i, shape] : llvm::enumerate(memberResults)) {
    Shape stacked = shape;
    stacked.insert(stacked.begin(), 3);
    results += (i ? ", " : "") + tensorType(stacked, dtypes[i]);
    outAxes += i ? ", 0" : "0";
  }
  return formatv(R"mlir(
func.func @{0}(%key: {1}, %scale: {2}) -> ({3}) {{
  %r:3 = ens.vmap @{4}(%key, %scale) {{in_axes = array<i64: {5}, 0>,
      out_axes = array<i64: {6}>, size = 3 : i64, randomness = "{7}"}
      : ({1}, {2}) -> ({3})
  return %r#0, %r#1, %r#2 : {3}
}
)mlir",
                 name, tensorType(keyShape, DType::I32), tensorType(scale),
                 results, callee, keyAxis, outAxes, randomness)
      .str();
}

TEST(RandomTest, BatchMatchesLoopsBitForBit) {
  // Single vmaps with a shared or batched key, in both modes, and nested
  // vmaps in every combination of modes.
  std::string source = kDrawingMember;
  struct Entry {
    std::string name;
    int64_t keyAxis, innerKeyAxis;
    bool nested;
    /// How many members draw distinct numbers, or 0 to not check.
    int64_t distinct;
  };
  std::vector<Entry> entries;
  Shape member[] = {{3}, {2, 3}, {4}};
  DType dtypes[] = {DType::F64, DType::F32, DType::F64};
  Shape outer[] = {{3, 3}, {3, 2, 3}, {3, 4}};
  for (const char *mode : {"different", "same"}) {
    for (int64_t axis : {-1, 0, 1}) {
      std::string name = formatv("single_{0}_{1}", mode, axis + 1);
      source +=
          vmapFunction(name, "member", mode, axis, member, dtypes, {3}, {2});
      bool shared = std::string(mode) == "same" && axis < 0;
      entries.push_back({name, axis, -1, false, shared ? 1 : 3});
    }
    for (const char *innerMode : {"different", "same"}) {
      for (int64_t innerAxis : {-1, 0}) {
        std::string inner =
            formatv("inner_{0}_{1}_{2}", mode, innerMode, innerAxis + 1);
        source += vmapFunction(inner, "member", innerMode, innerAxis, member,
                               dtypes, {3}, {2});
        Shape innerKey = innerAxis < 0 ? Shape{2} : Shape{3, 2};
        for (int64_t axis : {-1, 0}) {
          std::string name = formatv("nested_{0}_{1}", inner, axis + 1);
          source += vmapFunction(name, inner, mode, axis, outer, dtypes, {3, 3},
                                 innerKey);
          bool same =
              std::string(mode) == "same" && std::string(innerMode) == "same";
          bool different = std::string(mode) == "different" &&
                           std::string(innerMode) == "different";
          int64_t distinct =
              different ? 9 : (same && axis < 0 && innerAxis < 0 ? 1 : 0);
          entries.push_back({name, axis, innerAxis, true, distinct});
        }
      }
    }
  }
  Program program(source);
  ASSERT_TRUE(program.isValid());
  OwningOpRef<ModuleOp> batched = program.cloneModule();
  ASSERT_TRUE(program.apply({PassKind::Batch}, *batched));
  EXPECT_FALSE((*batched)
                   ->walk([](VmapOp) { return WalkResult::interrupt(); })
                   .wasInterrupted());
  Random random(5);
  for (const Entry &entry : entries) {
    SCOPED_TRACE(entry.name);
    Shape keyShape = entry.innerKeyAxis < 0 ? Shape{2} : Shape{3, 2};
    if (entry.keyAxis >= 0)
      keyShape.insert(keyShape.begin() + entry.keyAxis, 3);
    HostTensor keys = random.indices(keyShape, INT32_MIN, INT32_MAX);
    HostTensor scale =
        random.uniform(entry.nested ? Shape{3, 3, 3} : Shape{3, 3});
    std::vector<HostTensor> loops =
        run(program.getModule(), entry.name, {keys, scale});
    std::vector<HostTensor> lowered = run(*batched, entry.name, {keys, scale});
    ASSERT_EQ(loops.size(), 3u);
    ASSERT_EQ(lowered.size(), 3u);
    for (int i = 0; i < 3; ++i)
      expectIdentical(lowered[i], loops[i], formatv("result {0}", i).str());
    if (entry.distinct) {
      std::set<std::vector<double>> rows;
      for (int64_t m = 0, e = loops[2].getNumElements() / 4; m < e; ++m)
        rows.insert(row(loops[2], m).vec());
      EXPECT_EQ(static_cast<int64_t>(rows.size()), entry.distinct);
    }
  }
}

//===----------------------------------------------------------------------===//
// Under autodiff
//===----------------------------------------------------------------------===//

TEST(RandomTest, NoGradientThroughDraws) {
  Program program(R"mlir(
func.func @draw(%key: tensor<2xi32>) -> tensor<8xf64> {
  %k = ens.random_split %key : tensor<2xi32> -> tensor<2x2xi32>
  %n = ens.random_normal %k : tensor<2x2xi32> -> tensor<2x4xf64>
  %r = ens.reshape %n : tensor<2x4xf64> -> tensor<8xf64>
  return %r : tensor<8xf64>
}
func.func @loss(%w: tensor<8xf64>, %key: tensor<2xi32>) -> tensor<f64> {
  %n = call @draw(%key) : (tensor<2xi32>) -> tensor<8xf64>
  %p = ens.mul %n, %w : tensor<8xf64>
  %l = ens.reduce_sum %p {dims = array<i64: 0>} : tensor<8xf64> -> tensor<f64>
  return %l : tensor<f64>
}
func.func @grad(%w: tensor<8xf64>, %key: tensor<2xi32>)
    -> (tensor<f64>, tensor<8xf64>) {
  %l, %g = ens.value_and_grad @loss(%w, %key) {wrt = array<i64: 0>}
      : (tensor<8xf64>, tensor<2xi32>) -> (tensor<f64>, tensor<8xf64>)
  return %l, %g : tensor<f64>, tensor<8xf64>
}
func.func @member_grads(%w: tensor<3x8xf64>, %key: tensor<2xi32>)
    -> (tensor<3xf64>, tensor<3x8xf64>) {
  %l, %g = ens.vmap @grad(%w, %key) {in_axes = array<i64: 0, -1>,
      out_axes = array<i64: 0, 0>, size = 3 : i64}
      : (tensor<3x8xf64>, tensor<2xi32>) -> (tensor<3xf64>, tensor<3x8xf64>)
  return %l, %g : tensor<3xf64>, tensor<3x8xf64>
}
func.func @member_draws(%key: tensor<2xi32>) -> tensor<3x8xf64> {
  %n = ens.vmap @draw(%key) {in_axes = array<i64: -1>,
      out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<2xi32>) -> tensor<3x8xf64>
  return %n : tensor<3x8xf64>
}
)mlir");
  ASSERT_TRUE(program.isValid());
  ASSERT_TRUE(program.apply({PassKind::Autodiff}));
  Random random(9);
  HostTensor k = key(17, 99), w = random.uniform({8});
  HostTensor draws = run(program.getModule(), "draw", k).front();
  std::vector<HostTensor> grad = run(program.getModule(), "grad", {w, k});
  ASSERT_EQ(grad.size(), 2u);
  expectIdentical(grad[1], draws, "gradient");

  // Per member, with members drawing different numbers: by loops and
  // batched.
  HostTensor ws = random.uniform({3, 8});
  HostTensor memberDraws = run(program.getModule(), "member_draws", k).front();
  OwningOpRef<ModuleOp> batched = program.cloneModule();
  ASSERT_TRUE(program.apply({PassKind::Batch}, *batched));
  for (ModuleOp module : {program.getModule(), *batched}) {
    std::vector<HostTensor> grads = run(module, "member_grads", {ws, k});
    ASSERT_EQ(grads.size(), 2u);
    expectIdentical(grads[1], memberDraws, "member gradients");
  }
  EXPECT_NE(row(memberDraws, 0), row(memberDraws, 1));
}

} // namespace
