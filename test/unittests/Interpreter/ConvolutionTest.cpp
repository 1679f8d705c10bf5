//===- ConvolutionTest.cpp - Interpreter tests of the window ops ----------===//
//
// ens.conv against a naive implementation written independently of the
// kernel: the operands are first permuted into NCHW and OIHW order, the
// input is scattered into an explicit zero tensor with its dilation and
// padding, and the window sums are plain loops over that tensor. Random
// dimension numbers, strides, padding (negative included), dilations and
// feature groups, in 1, 2 and 3 spatial dimensions. ens.reduce_window is
// checked the same way: an explicitly padded operand, then a loop per
// window.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::ens;
using namespace mlir::ens::test;
using Shape = mlir::ens::test::Shape;

namespace {

/// `x` with its dimensions reordered so that dimension k of the result is
/// dimension `roles[k]` of `x`.
std::vector<double> toCanonical(const HostTensor &x, const Shape &roles,
                                Shape &canonicalShape) {
  canonicalShape.clear();
  for (int64_t role : roles)
    canonicalShape.push_back(x.shape[role]);
  std::vector<double> values(numElements(canonicalShape));
  for (int64_t linear = 0; linear < numElements(canonicalShape); ++linear) {
    Shape canonical = unravel(linear, canonicalShape);
    Shape index(x.shape.size());
    for (size_t k = 0; k < roles.size(); ++k)
      index[roles[k]] = canonical[k];
    values[linear] = x.values[ravel(index, x.shape)];
  }
  return values;
}

/// The naive convolution of `lhs` and `rhs` as `conv` describes it, in the
/// layout of `conv.outShape`.
std::vector<double> naiveConv(const RandomConv &conv, const HostTensor &lhs,
                              const HostTensor &rhs) {
  Shape inShape, filterShape;
  std::vector<double> in = toCanonical(lhs, conv.lhsDims, inShape);
  std::vector<double> filter = toCanonical(rhs, conv.rhsDims, filterShape);
  int64_t spatial = inShape.size() - 2;

  // Scatter every input element to its place in the dilated, padded input;
  // negative padding crops the elements that land outside.
  Shape paddedShape = {inShape[0], inShape[1]};
  for (int64_t i = 0; i < spatial; ++i)
    paddedShape.push_back((inShape[2 + i] - 1) * conv.lhsDilation[i] + 1 +
                          conv.padding[2 * i] + conv.padding[2 * i + 1]);
  std::vector<double> padded(numElements(paddedShape), 0.0);
  for (int64_t linear = 0; linear < numElements(inShape); ++linear) {
    Shape index = unravel(linear, inShape);
    bool inside = true;
    for (int64_t i = 0; i < spatial; ++i) {
      index[2 + i] = index[2 + i] * conv.lhsDilation[i] + conv.padding[2 * i];
      inside &= index[2 + i] >= 0 && index[2 + i] < paddedShape[2 + i];
    }
    if (inside)
      padded[ravel(index, paddedShape)] = in[linear];
  }

  // Window sums in NCHW, one feature group at a time.
  int64_t groupFeatures = filterShape[1];
  int64_t groupOutputs = filterShape[0] / conv.groups;
  Shape resultShape = {inShape[0], filterShape[0]};
  for (int64_t i = 0; i < spatial; ++i)
    resultShape.push_back(conv.outShape[conv.outDims[2 + i]]);
  Shape taps(filterShape.begin() + 2, filterShape.end());
  std::vector<double> result(numElements(resultShape), 0.0);
  for (int64_t linear = 0; linear < numElements(resultShape); ++linear) {
    Shape out = unravel(linear, resultShape);
    int64_t group = out[1] / groupOutputs;
    double sum = 0;
    for (int64_t c = 0; c < groupFeatures; ++c)
      for (int64_t t = 0; t < numElements(taps); ++t) {
        Shape tap = unravel(t, taps);
        Shape source = {out[0], group * groupFeatures + c};
        Shape weight = {out[1], c};
        for (int64_t i = 0; i < spatial; ++i) {
          source.push_back(out[2 + i] * conv.strides[i] +
                           tap[i] * conv.rhsDilation[i]);
          weight.push_back(tap[i]);
        }
        sum += padded[ravel(source, paddedShape)] *
               filter[ravel(weight, filterShape)];
      }
    result[linear] = sum;
  }

  // Back to the result's layout.
  std::vector<double> laidOut(result.size());
  for (int64_t linear = 0; linear < numElements(resultShape); ++linear) {
    Shape canonical = unravel(linear, resultShape);
    Shape index(resultShape.size());
    for (size_t k = 0; k < canonical.size(); ++k)
      index[conv.outDims[k]] = canonical[k];
    laidOut[ravel(index, conv.outShape)] = result[linear];
  }
  return laidOut;
}

class ConvPropertyTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(ConvPropertyTest, MatchesNaiveLoops) {
  int64_t spatialRank = GetParam();
  for (unsigned seed = 0; seed < 40; ++seed) {
    Random random(seed * 31 + spatialRank);
    RandomConv conv = randomConv(random, spatialRank);
    for (DType dtype : {DType::F64, DType::F32}) {
      HostTensor lhs = random.tensor(dtype, conv.lhsShape);
      HostTensor rhs = random.tensor(dtype, conv.rhsShape);
      std::string op =
          llvm::formatv("ens.conv %a0, %a1 {{{0}} : {1}, {2} -> {3}",
                        conv.attributes(), tensorType(conv.lhsShape, dtype),
                        tensorType(conv.rhsShape, dtype),
                        tensorType(conv.outShape, dtype))
              .str();
      SCOPED_TRACE(op);
      HostTensor actual =
          runOp(op, tensorType(conv.outShape, dtype), {lhs, rhs});
      expectTensor(actual, dtype, conv.outShape, naiveConv(conv, lhs, rhs));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SpatialRanks, ConvPropertyTest,
                         ::testing::Values(1, 2, 3));

// A case small enough to check by hand: [1, 2, 3, 4] padded with one zero
// on the left, filter [1, 10], stride 2: [0*1 + 1*10, 2*1 + 3*10].
TEST(ConvTest, HandWorked1D) {
  HostTensor x(DType::F32, {1, 1, 4}, {1, 2, 3, 4});
  HostTensor w(DType::F32, {1, 1, 2}, {1, 10});
  HostTensor y =
      runOp("ens.conv %a0, %a1 {lhs_dims = array<i64: 0, 1, 2>, "
            "rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, "
            "window_strides = array<i64: 2>, padding = array<i64: 1, 0>} "
            ": tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x2xf32>",
            "tensor<1x1x2xf32>", {x, w});
  expectTensor(y, DType::F32, {1, 1, 2}, {10, 32}, Match::Exact);
}

/// The naive reduce_window: the operand copied into an explicit tensor of
/// padding values, then each window reduced in a plain loop.
std::vector<double> naiveReduceWindow(bool isMax, const HostTensor &x,
                                      const Shape &window, const Shape &strides,
                                      const Shape &padding,
                                      const Shape &resultShape) {
  double fill = isMax ? -kInf : 0;
  Shape paddedShape;
  for (size_t d = 0; d < x.shape.size(); ++d)
    paddedShape.push_back(x.shape[d] + padding[2 * d] + padding[2 * d + 1]);
  std::vector<double> padded(numElements(paddedShape), fill);
  for (int64_t linear = 0; linear < x.getNumElements(); ++linear) {
    Shape index = unravel(linear, x.shape);
    for (size_t d = 0; d < index.size(); ++d)
      index[d] += padding[2 * d];
    padded[ravel(index, paddedShape)] = x.values[linear];
  }
  std::vector<double> result;
  for (int64_t linear = 0; linear < numElements(resultShape); ++linear) {
    Shape out = unravel(linear, resultShape);
    double value = fill;
    for (int64_t t = 0; t < numElements(window); ++t) {
      Shape tap = unravel(t, window);
      for (size_t d = 0; d < tap.size(); ++d)
        tap[d] += out[d] * strides[d];
      double element = padded[ravel(tap, paddedShape)];
      value = isMax ? std::max(value, element) : value + element;
    }
    result.push_back(value);
  }
  return result;
}

TEST(ReduceWindowTest, MatchesNaiveLoops) {
  for (unsigned seed = 0; seed < 60; ++seed) {
    Random random(seed);
    int64_t rank = random.integer(1, 4);
    Shape shape = random.shape(rank, 1, 6), window, strides, padding, result;
    for (int64_t d = 0; d < rank; ++d) {
      window.push_back(random.integer(1, std::min<int64_t>(3, shape[d])));
      strides.push_back(random.integer(1, 3));
      padding.push_back(random.integer(0, window[d] - 1));
      padding.push_back(random.integer(0, window[d] - 1));
      result.push_back(
          (shape[d] + padding[2 * d] + padding[2 * d + 1] - window[d]) /
              strides[d] +
          1);
    }
    for (bool isMax : {true, false}) {
      HostTensor x = random.tensor(DType::F64, shape);
      std::string op =
          llvm::formatv("ens.reduce_window {0}, %a0 {{window_dimensions = "
                        "{1}, window_strides = {2}, padding = {3}} : {4} -> "
                        "{5}",
                        isMax ? "max" : "add", i64Array(window),
                        i64Array(strides), i64Array(padding), tensorType(shape),
                        tensorType(result))
              .str();
      SCOPED_TRACE(op);
      expectTensor(
          runOp(op, tensorType(result), {x}), DType::F64, result,
          naiveReduceWindow(isMax, x, window, strides, padding, result));
    }
  }
}

// A NaN in a max window gives NaN, as reduce_max does.
TEST(ReduceWindowTest, MaxPropagatesNaN) {
  HostTensor x(DType::F32, {4}, {1, kNaN, 3, 2});
  HostTensor y = runOp("ens.reduce_window max, %a0 {window_dimensions = "
                       "array<i64: 2>, window_strides = array<i64: 2>} "
                       ": tensor<4xf32> -> tensor<2xf32>",
                       "tensor<2xf32>", {x});
  expectTensor(y, DType::F32, {2}, {kNaN, 3}, Match::Exact);
}

} // namespace
