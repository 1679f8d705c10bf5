//===- TestSupport.cpp - Helpers shared by the GoogleTest suites ----------===//

#include "TestSupport.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir::ens;
using namespace mlir::ens::test;

std::string test::tensorType(llvm::ArrayRef<int64_t> shape, DType dtype) {
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += std::to_string(size) + "x";
  return text + getDTypeName(dtype).str() + ">";
}

std::string test::tensorType(const HostTensor &tensor) {
  return tensorType(tensor.shape, tensor.dtype);
}

std::string test::i64Array(llvm::ArrayRef<int64_t> values) {
  std::string text = "array<i64";
  for (auto [i, value] : llvm::enumerate(values))
    text += (i ? ", " : ": ") + std::to_string(value);
  return text + ">";
}

int64_t RandomSource::integer(int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(engine);
}

double RandomSource::real(double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(engine);
}

bool RandomSource::coin(double probability) {
  return std::bernoulli_distribution(probability)(engine);
}

Shape RandomSource::shape(int64_t rank, int64_t lo, int64_t hi) {
  Shape result;
  for (int64_t d = 0; d < rank; ++d)
    result.push_back(integer(lo, hi));
  return result;
}

Shape RandomSource::permutation(int64_t n) {
  Shape result;
  for (int64_t i = 0; i < n; ++i)
    result.push_back(i);
  std::shuffle(result.begin(), result.end(), engine);
  return result;
}

std::string RandomConv::attributes() const {
  return "lhs_dims = " + i64Array(lhsDims) +
         ", rhs_dims = " + i64Array(rhsDims) +
         ", out_dims = " + i64Array(outDims) +
         ", window_strides = " + i64Array(strides) +
         ", padding = " + i64Array(padding) +
         ", lhs_dilation = " + i64Array(lhsDilation) +
         ", rhs_dilation = " + i64Array(rhsDilation) +
         ", feature_group_count = " + std::to_string(groups) + " : i64";
}

RandomConv test::randomConv(RandomSource &random, int64_t spatialRank) {
  RandomConv conv;
  int64_t rank = spatialRank + 2;
  conv.lhsDims = random.permutation(rank);
  conv.rhsDims = random.permutation(rank);
  conv.outDims = random.permutation(rank);
  conv.groups = random.integer(1, 3);
  int64_t batch = random.integer(1, 2);
  int64_t groupFeatures = random.integer(1, 2);
  int64_t groupOutputs = random.integer(1, 2);
  conv.lhsShape.assign(rank, 0);
  conv.rhsShape.assign(rank, 0);
  conv.outShape.assign(rank, 0);
  conv.lhsShape[conv.lhsDims[0]] = batch;
  conv.lhsShape[conv.lhsDims[1]] = conv.groups * groupFeatures;
  conv.rhsShape[conv.rhsDims[0]] = conv.groups * groupOutputs;
  conv.rhsShape[conv.rhsDims[1]] = groupFeatures;
  conv.outShape[conv.outDims[0]] = batch;
  conv.outShape[conv.outDims[1]] = conv.groups * groupOutputs;
  for (int64_t i = 0; i < spatialRank; ++i) {
    int64_t stride = random.integer(1, 3);
    int64_t lhsDilation = random.integer(1, 2);
    int64_t rhsDilation = random.integer(1, 2);
    int64_t taps = random.integer(1, 3);
    int64_t lo = random.integer(-1, 2), hi = random.integer(-1, 2);
    // Enough input for the window to fit once, plus up to three positions.
    int64_t window = (taps - 1) * rhsDilation + 1;
    int64_t in = 1;
    while ((in - 1) * lhsDilation + 1 + lo + hi < window)
      ++in;
    in += random.integer(0, 3);
    int64_t padded = (in - 1) * lhsDilation + 1 + lo + hi;
    conv.strides.push_back(stride);
    conv.lhsDilation.push_back(lhsDilation);
    conv.rhsDilation.push_back(rhsDilation);
    conv.padding.push_back(lo);
    conv.padding.push_back(hi);
    conv.lhsShape[conv.lhsDims[2 + i]] = in;
    conv.rhsShape[conv.rhsDims[2 + i]] = taps;
    conv.outShape[conv.outDims[2 + i]] = (padded - window) / stride + 1;
  }
  return conv;
}
