//===- TestSupport.h - Helpers shared by the GoogleTest suites --*- C++ -*-===//
//
// Random shapes and numbers, and the spelling of types and attributes in
// generated MLIR text: what the interpreter, autodiff and other suites all
// build their programs and inputs from.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_UNITTESTS_COMMON_TESTSUPPORT_H
#define ENS_TEST_UNITTESTS_COMMON_TESTSUPPORT_H

#include "ens/Support/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace mlir::ens::test {

using Shape = std::vector<int64_t>;

/// "tensor<2x3xf32>".
std::string tensorType(llvm::ArrayRef<int64_t> shape, DType dtype = DType::F64);
std::string tensorType(const HostTensor &tensor);
/// "array<i64: 1, 2>" ("array<i64>" when empty).
std::string i64Array(llvm::ArrayRef<int64_t> values);

/// A deterministic source of random numbers and shapes; each suite derives
/// its own Random with the tensors it needs.
class RandomSource {
public:
  explicit RandomSource(unsigned seed) : engine(seed) {}

  int64_t integer(int64_t lo, int64_t hi); // in [lo, hi]
  double real(double lo, double hi);       // in [lo, hi)
  bool coin(double probability = 0.5);
  /// A shape of `rank` dimensions with sizes in [lo, hi].
  Shape shape(int64_t rank, int64_t lo = 1, int64_t hi = 4);
  /// A random permutation of 0 .. n-1.
  Shape permutation(int64_t n);

  std::mt19937 &getEngine() { return engine; }

private:
  std::mt19937 engine;
};

/// A random `ens.conv` in a random layout: every role of the dimension
/// numbers at a random position, with random strides, padding (negative
/// included), dilations and feature groups, and operand sizes that leave
/// each spatial dimension of the result at least one position.
struct RandomConv {
  /// Positions of (batch, feature, spatial...), (output feature, input
  /// feature, spatial...) and the result's (batch, feature, spatial...).
  Shape lhsDims, rhsDims, outDims;
  Shape strides, padding, lhsDilation, rhsDilation;
  int64_t groups = 1;
  Shape lhsShape, rhsShape, outShape;

  /// The entries of the op's attribute dictionary, every attribute
  /// spelled out, without the braces.
  std::string attributes() const;
};

/// Draws a convolution with `spatialRank` spatial dimensions; the sizes of
/// its result are computed here from the definition, independently of the
/// compiler's shape rule.
RandomConv randomConv(RandomSource &random, int64_t spatialRank);

} // namespace mlir::ens::test

#endif // ENS_TEST_UNITTESTS_COMMON_TESTSUPPORT_H
