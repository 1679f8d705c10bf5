//===- MlpGradientTest.cpp - MLP gradients against hand-written backprop --===//
//
// Differentiates @loss of examples/mlp.mlir (f32) with respect to all its
// parameters and compares with backpropagation written out by hand in
// double precision on the example data.
//
//===----------------------------------------------------------------------===//

#include "AutodiffTestUtils.h"

#include "ens/Support/Npy.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

constexpr const char *kGrads = R"mlir(
func.func @grads(%x: tensor<256x64xf32>, %w1: tensor<64x32xf32>,
                 %b1: tensor<32xf32>, %w2: tensor<32x8xf32>,
                 %b2: tensor<8xf32>, %targets: tensor<256x8xf32>)
    -> (tensor<f32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>,
        tensor<8xf32>) {
  %l, %g1, %gb1, %g2, %gb2 = ens.value_and_grad @loss(%x, %w1, %b1, %w2, %b2,
                                                      %targets)
      {wrt = array<i64: 1, 2, 3, 4>}
      : (tensor<256x64xf32>, tensor<64x32xf32>, tensor<32xf32>,
         tensor<32x8xf32>, tensor<8xf32>, tensor<256x8xf32>)
      -> (tensor<f32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>,
          tensor<8xf32>)
  return %l, %g1, %gb1, %g2, %gb2 : tensor<f32>, tensor<64x32xf32>,
      tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>
}
)mlir";

/// The loss and its gradients w.r.t. w1, b1, w2, b2 by plain backprop.
std::vector<HostTensor> backprop(const HostTensor &x, const HostTensor &w1,
                                 const HostTensor &b1, const HostTensor &w2,
                                 const HostTensor &b2, const HostTensor &t) {
  const int64_t batch = 256, in = 64, hidden = 32, out = 8;
  std::vector<double> h(batch * hidden), dy(batch * out);
  double loss = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t j = 0; j < hidden; ++j) {
      double z = b1.values[j];
      for (int64_t i = 0; i < in; ++i)
        z += x.values[b * in + i] * w1.values[i * hidden + j];
      h[b * hidden + j] = std::tanh(z);
    }
    for (int64_t o = 0; o < out; ++o) {
      double y = b2.values[o];
      for (int64_t j = 0; j < hidden; ++j)
        y += h[b * hidden + j] * w2.values[j * out + o];
      double error = y - t.values[b * out + o];
      loss += error * error / (batch * out);
      dy[b * out + o] = 2 * error / (batch * out);
    }
  }
  HostTensor gw1(DType::F64, {in, hidden}), gb1(DType::F64, {hidden}),
      gw2(DType::F64, {hidden, out}), gb2(DType::F64, {out});
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < out; ++o) {
      gb2.values[o] += dy[b * out + o];
      for (int64_t j = 0; j < hidden; ++j)
        gw2.values[j * out + o] += h[b * hidden + j] * dy[b * out + o];
    }
    for (int64_t j = 0; j < hidden; ++j) {
      double dh = 0;
      for (int64_t o = 0; o < out; ++o)
        dh += dy[b * out + o] * w2.values[j * out + o];
      double hj = h[b * hidden + j], dz = dh * (1 - hj * hj);
      gb1.values[j] += dz;
      for (int64_t i = 0; i < in; ++i)
        gw1.values[i * hidden + j] += x.values[b * in + i] * dz;
    }
  }
  return {HostTensor(DType::F64, {}, {loss}), gw1, gb1, gw2, gb2};
}

TEST(MlpGradientTest, MatchesHandWrittenBackprop) {
  std::string dir = ENS_SOURCE_DIR "/examples/";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> source =
      llvm::MemoryBuffer::getFile(dir + "mlp.mlir");
  ASSERT_TRUE(static_cast<bool>(source)) << "cannot read mlp.mlir";
  std::vector<HostTensor> inputs;
  for (const char *name : {"x", "w1", "b1", "w2", "b2", "targets"}) {
    llvm::Expected<HostTensor> tensor = readNpy(dir + "data/" + name + ".npy");
    ASSERT_TRUE(static_cast<bool>(tensor))
        << llvm::toString(tensor.takeError());
    inputs.push_back(std::move(*tensor));
  }

  Program program((*source)->getBuffer().str() + kGrads);
  ASSERT_TRUE(program.isValid());
  ASSERT_TRUE(program.apply({PassKind::Autodiff}));
  std::vector<HostTensor> results = run(program.getModule(), "grads", inputs);
  ASSERT_EQ(results.size(), 5u);
  std::vector<HostTensor> expected = backprop(inputs[0], inputs[1], inputs[2],
                                              inputs[3], inputs[4], inputs[5]);
  const char *names[] = {"loss", "w1", "b1", "w2", "b2"};
  for (int k = 0; k < 5; ++k) {
    // The gradients come back in f32: compare them in double, to a
    // relative 1e-4 of each element plus a tiny fraction of the largest,
    // for elements that cancel to almost zero.
    EXPECT_EQ(results[k].dtype, DType::F32) << names[k];
    double largest = 0;
    for (double value : expected[k].values)
      largest = std::max(largest, std::fabs(value));
    results[k].dtype = DType::F64;
    expectClose(results[k], expected[k], 1e-4, 1e-6 * largest, names[k]);
  }
}

} // namespace
