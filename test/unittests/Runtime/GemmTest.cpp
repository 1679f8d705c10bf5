//===- GemmTest.cpp - The host GEMM and checks of vendor GEMM steps -------===//
//
// The emulator runs a plan's vendor GEMM steps with runHostGemm, which must
// have exactly cublasSgemmStridedBatched's semantics. The oracle here is an
// independent statement of them: each matrix as a 2-D array read through
// an explicit (row, column) -> address function, op() applied by swapping
// the indices, and the product summed in double.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Plan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace ens::runtime;

namespace {

/// Element (row, col) of batch `i` of a column-major operand.
float at(const std::vector<float> &data, const GemmOperand &x, int64_t i,
         int64_t row, int64_t col) {
  return data[x.offset + i * x.stride + col * x.ld + row];
}

/// What the BLAS definition says C becomes, computed independently.
std::vector<float> referenceGemm(const GemmStep &g, const std::vector<float> &a,
                                 const std::vector<float> &b,
                                 std::vector<float> c) {
  for (int64_t i = 0; i < g.batch; ++i)
    for (int64_t row = 0; row < g.m; ++row)
      for (int64_t col = 0; col < g.n; ++col) {
        double sum = 0;
        for (int64_t p = 0; p < g.k; ++p) {
          // op(A) is m x k: A itself, or A^T read from a k x m matrix.
          double x = g.transA ? at(a, g.a, i, p, row) : at(a, g.a, i, row, p);
          double y = g.transB ? at(b, g.b, i, col, p) : at(b, g.b, i, p, col);
          sum += x * y;
        }
        float &out = c[g.c.offset + i * g.c.stride + col * g.c.ld + row];
        double old = g.beta == 0 ? 0.0 : double(out);
        out = static_cast<float>(g.alpha * sum + g.beta * old);
      }
  return c;
}

std::vector<float> randomFloats(size_t count, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> values(count);
  for (float &value : values)
    value = uniform(generator);
  return values;
}

/// The elements operand `x`, a `rows` x `cols` matrix per batch, reaches.
size_t span(const GemmOperand &x, int64_t rows, int64_t cols, int64_t batch) {
  return x.offset + (batch - 1) * x.stride + (cols - 1) * x.ld + rows;
}

void expectMatches(const GemmStep &g) {
  int64_t rowsA = g.transA ? g.k : g.m, colsA = g.transA ? g.m : g.k;
  int64_t rowsB = g.transB ? g.n : g.k, colsB = g.transB ? g.k : g.n;
  std::vector<float> a = randomFloats(span(g.a, rowsA, colsA, g.batch), 1);
  std::vector<float> b = randomFloats(span(g.b, rowsB, colsB, g.batch), 2);
  std::vector<float> c = randomFloats(span(g.c, g.m, g.n, g.batch), 3);
  std::vector<float> expected = referenceGemm(g, a, b, c);
  runHostGemm(g, a.data(), b.data(), c.data());
  ASSERT_EQ(c.size(), expected.size());
  for (size_t i = 0; i < c.size(); ++i)
    EXPECT_NEAR(c[i], expected[i], 1e-5)
        << "element " << i << " of C, " << printGemmStep(g);
}

GemmStep makeStep(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                  int64_t batch) {
  GemmStep g;
  g.transA = transA;
  g.transB = transB;
  g.m = m;
  g.n = n;
  g.k = k;
  g.batch = batch;
  // Leading dimensions larger than the rows, offsets and padded strides,
  // so that each parameter changes which elements are read.
  g.a = {0, 3, (transA ? k : m) + 2, 0};
  g.a.stride = g.a.ld * (transA ? m : k) + 5;
  g.b = {1, 1, (transB ? n : k) + 1, 0};
  g.b.stride = g.b.ld * (transB ? k : n) + 3;
  g.c = {2, 2, m + 3, 0};
  g.c.stride = g.c.ld * n + 1;
  return g;
}

TEST(HostGemmTest, EveryTransposeWithLeadingDimensionsAndStrides) {
  for (bool transA : {false, true})
    for (bool transB : {false, true}) {
      GemmStep g = makeStep(transA, transB, 5, 7, 3, 4);
      g.alpha = 0.5f;
      g.beta = 2;
      expectMatches(g);
    }
}

TEST(HostGemmTest, BoundarySizes) {
  // One row, one column, K = 1, one batch, odd sizes.
  for (auto [m, n, k, batch] : std::vector<std::array<int64_t, 4>>{
           {1, 9, 4, 3}, {6, 1, 4, 2}, {7, 5, 1, 3}, {13, 11, 9, 1}})
    for (bool transA : {false, true}) {
      GemmStep g = makeStep(transA, !transA, m, n, k, batch);
      g.beta = 1;
      expectMatches(g);
    }
}

TEST(HostGemmTest, SharedOperandAcrossBatches) {
  // Stride 0: every batch reads the same A (an input that all members
  // share).
  GemmStep g = makeStep(false, true, 4, 6, 5, 3);
  g.a.stride = 0;
  expectMatches(g);
}

TEST(HostGemmTest, BetaZeroIgnoresWhatCHolds) {
  GemmStep g = makeStep(false, false, 2, 2, 2, 1);
  g.a = {0, 0, 2, 0};
  g.b = {1, 0, 2, 0};
  g.c = {2, 0, 2, 0};
  // A = [[1, 2], [3, 4]] and B = I (column-major), C full of NaN.
  std::vector<float> a = {1, 3, 2, 4}, b = {1, 0, 0, 1};
  std::vector<float> c(4, NAN);
  g.alpha = 2;
  g.beta = 0;
  runHostGemm(g, a.data(), b.data(), c.data());
  EXPECT_EQ(c, (std::vector<float>{2, 6, 4, 8}));
}

/// A plan with one f32 temporary of `elements` per operand.
LaunchPlan makePlan(int64_t elements) {
  LaunchPlan plan;
  for (int i = 0; i < 3; ++i) {
    BufferInfo buffer{BufferKind::Temporary};
    buffer.dtype = DType::F32;
    buffer.shape = {elements};
    buffer.bytes = elements * 4;
    plan.buffers.push_back(buffer);
  }
  plan.arenaBytes = 3 * elements * 4;
  return plan;
}

/// A step of 2 batches of 4x5 A and 6x5 B (transposed) that fills
/// makePlan(60)'s buffers up to their ends (B's 2 x 30 elements).
GemmStep makeFittingStep() {
  GemmStep g = makeStep(false, true, 4, 6, 5, 2);
  g.a = {0, 0, 4, 20};
  g.b = {1, 0, 6, 30};
  g.c = {2, 0, 4, 24};
  return g;
}

TEST(GemmStepTest, VerifyAcceptsAStepInsideItsBuffers) {
  LaunchPlan plan = makePlan(60);
  plan.gemms.push_back(makeFittingStep());
  EXPECT_FALSE(verifyPlan(plan, {}));
}

TEST(GemmStepTest, VerifyNamesWhatIsWrong) {
  struct Case {
    void (*change)(GemmStep &, LaunchPlan &);
    const char *message;
  } cases[] = {
      {[](GemmStep &g, LaunchPlan &) { g.a.ld = 3; },
       "gemm step 0's A has leading dimension 3 for 4 rows"},
      {[](GemmStep &g, LaunchPlan &) { g.b.ld = 5; },
       "gemm step 0's B has leading dimension 5 for 6 rows"},
      {[](GemmStep &g, LaunchPlan &) { g.c.stride = 40; },
       "gemm step 0's C reaches past the end of buffer 2"},
      {[](GemmStep &g, LaunchPlan &) { g.b.buffer = 7; },
       "gemm step 0's B is unknown buffer 7"},
      {[](GemmStep &g, LaunchPlan &) { g.after = 1; },
       "gemm step 0 is out of order with the launches"},
      {[](GemmStep &, LaunchPlan &plan) {
         plan.buffers[2].kind = BufferKind::Constant;
         plan.buffers[2].init.resize(plan.buffers[2].bytes);
       },
       "gemm step 0 writes constant buffer 2"},
      {[](GemmStep &, LaunchPlan &plan) { plan.buffers[0].dtype = DType::I32; },
       "gemm step 0's A is not a buffer of f32"},
  };
  for (const Case &test : cases) {
    LaunchPlan plan = makePlan(60);
    GemmStep g = makeFittingStep();
    test.change(g, plan);
    plan.gemms.push_back(g);
    Error failure = verifyPlan(plan, {});
    ASSERT_TRUE(failure) << test.message;
    EXPECT_EQ(failure.getMessage(), test.message);
  }
}

TEST(GemmStepTest, StepsRunBetweenTheLaunchesTheySay) {
  LaunchPlan plan;
  plan.launches.resize(2);
  plan.launches[0].kernel = 0;
  plan.launches[1].kernel = 1;
  for (size_t after : {0, 1, 1, 2}) {
    GemmStep g;
    g.after = after;
    g.sourceOps = std::to_string(plan.gemms.size());
    plan.gemms.push_back(g);
  }
  std::string order;
  Error failure = runSteps(
      plan,
      [&](const KernelLaunch &launch) {
        order += "k" + std::to_string(launch.kernel) + " ";
        return Error::success();
      },
      [&](const GemmStep &gemm) {
        order += "g" + gemm.sourceOps + " ";
        return Error::success();
      });
  EXPECT_FALSE(failure);
  EXPECT_EQ(order, "g0 k0 g1 g2 k1 g3 ");
}

} // namespace
