//===- ExamplesTest.cpp - The interpreter on the example programs ---------===//
//
// Runs examples/mlp.mlir and examples/tensordot.mlir on their committed
// inputs (examples/data/*.npy) and compares with a naive double-precision
// evaluation written here, and with the values NumPy printed.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "ens/Support/Npy.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <memory>
#include <string>

using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

std::string examplePath(llvm::StringRef relative) {
  return std::string(ENS_SOURCE_DIR) + "/examples/" + relative.str();
}

/// The text of examples/<name>; an empty string (and a failure) if it
/// cannot be read.
std::string readExample(llvm::StringRef name) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(examplePath(name));
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << examplePath(name) << ": "
                  << buffer.getError().message();
    return "";
  }
  return (*buffer)->getBuffer().str();
}

/// examples/data/<name>.npy; an empty tensor (and a failure) if it cannot
/// be read.
HostTensor readInput(llvm::StringRef name) {
  llvm::Expected<HostTensor> tensor =
      readNpy(examplePath(("data/" + name + ".npy").str()));
  if (!tensor) {
    ADD_FAILURE() << llvm::toString(tensor.takeError());
    return HostTensor();
  }
  return std::move(*tensor);
}

/// |actual - expected| <= 1e-5 * (|expected| + 1): f32 results of several
/// rounded ops against a computation that rounds nothing.
void expectAllNear(const HostTensor &actual,
                   const std::vector<double> &expected) {
  ASSERT_EQ(actual.values.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    ASSERT_NEAR(actual.values[i], expected[i],
                1e-5 * (std::fabs(expected[i]) + 1))
        << "element " << i;
}

TEST(ExamplesTest, Mlp) {
  Program program(readExample("mlp.mlir"));
  ASSERT_TRUE(program.isValid());
  HostTensor x = readInput("x"), w1 = readInput("w1"), b1 = readInput("b1"),
             w2 = readInput("w2"), b2 = readInput("b2"),
             targets = readInput("targets");
  ASSERT_FALSE(testing::Test::HasFailure());

  // y = tanh(x @ w1 + b1) @ w2 + b2 in double, from the f32 inputs.
  constexpr int64_t kBatch = 256, kIn = 64, kHidden = 32, kOut = 8;
  std::vector<double> y;
  for (int64_t b = 0; b < kBatch; ++b) {
    double h[kHidden];
    for (int64_t j = 0; j < kHidden; ++j) {
      double sum = b1.values[j];
      for (int64_t i = 0; i < kIn; ++i)
        sum += x.values[b * kIn + i] * w1.values[i * kHidden + j];
      h[j] = std::tanh(sum);
    }
    for (int64_t o = 0; o < kOut; ++o) {
      double sum = b2.values[o];
      for (int64_t j = 0; j < kHidden; ++j)
        sum += h[j] * w2.values[j * kOut + o];
      y.push_back(sum);
    }
  }
  double mse = 0;
  for (int64_t i = 0; i < kBatch * kOut; ++i)
    mse += (y[i] - targets.values[i]) * (y[i] - targets.values[i]);
  mse /= kBatch * kOut;

  llvm::Expected<std::vector<HostTensor>> forward =
      program.run("forward", {x, w1, b1, w2, b2});
  ASSERT_TRUE(static_cast<bool>(forward))
      << llvm::toString(forward.takeError());
  ASSERT_EQ(forward->size(), 1u);
  EXPECT_EQ(forward->front().getTypeString(), "tensor<256x8xf32>");
  expectAllNear(forward->front(), y);

  llvm::Expected<std::vector<HostTensor>> loss =
      program.run("loss", {x, w1, b1, w2, b2, targets});
  ASSERT_TRUE(static_cast<bool>(loss)) << llvm::toString(loss.takeError());
  ASSERT_EQ(loss->size(), 1u);
  EXPECT_EQ(loss->front().getTypeString(), "tensor<f32>");
  double value = loss->front().values[0];
  EXPECT_NEAR(value, mse, 1e-5 * mse);
  // Printed by NumPy, in float64 from the same float32 inputs, by
  // examples/data/make_inputs.py.
  constexpr double kNumPyLoss = 1.0702164357313237;
  EXPECT_NEAR(value, kNumPyLoss, 1e-5 * kNumPyLoss);
}

TEST(ExamplesTest, Tensordot) {
  Program program(readExample("tensordot.mlir"));
  ASSERT_TRUE(program.isValid());
  HostTensor x = readInput("td_x"), w = readInput("td_w"),
             b = readInput("td_b");
  ASSERT_FALSE(testing::Test::HasFailure());
  ASSERT_EQ(x.getTypeString(), "tensor<3x2xf32>");
  ASSERT_EQ(w.getTypeString(), "tensor<3x2x1xf32>");

  // y = sum_{i,j} x[i][j] * w[i][j][0] + b[0].
  double expected = b.values[0];
  for (int64_t i = 0; i < 6; ++i)
    expected += x.values[i] * w.values[i];

  llvm::Expected<std::vector<HostTensor>> result =
      program.run("predict", {x, w, b});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ(result->front().getTypeString(), "tensor<1xf32>");
  expectAllNear(result->front(), {expected});
  // NumPy prints [2.25] for the same inputs (examples/data/make_inputs.py).
  EXPECT_NEAR(result->front().values[0], 2.25, 1e-5 * 2.25);
}

} // namespace
