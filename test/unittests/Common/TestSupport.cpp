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
