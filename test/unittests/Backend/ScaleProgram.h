//===- ScaleProgram.h - The small program the backend suites run -*- C++
//-*-===//
//
// One function with a broadcast, a product and a row sum, and its results
// worked out by hand: what the executable and code-cache suites compile.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_UNITTESTS_BACKEND_SCALEPROGRAM_H
#define ENS_TEST_UNITTESTS_BACKEND_SCALEPROGRAM_H

#include <vector>

namespace mlir::ens::test {

/// @scale: y = x * w (w broadcast over rows) and s = the sum of each row
/// of y.
inline constexpr const char *kScaleProgram = R"(
func.func @scale(%x: tensor<2x3xf32>, %w: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<2xf32>) {
  %b = ens.broadcast_in_dim %w {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<2x3xf32>
  %y = ens.mul %x, %b : tensor<2x3xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 1>}
      : tensor<2x3xf32> -> tensor<2xf32>
  return %y, %s : tensor<2x3xf32>, tensor<2xf32>
}
)";

/// The arguments of @scale, and its results worked out by hand.
inline const std::vector<double> kScaleX = {1, 2, 3, 4, 5, 6};
inline const std::vector<double> kScaleW = {1, -2, 0.5};
inline const std::vector<double> kScaleY = {1, -4, 1.5, 4, -10, 3};
inline const std::vector<double> kScaleS = {-1.5, -3};

} // namespace mlir::ens::test

#endif // ENS_TEST_UNITTESTS_BACKEND_SCALEPROGRAM_H
