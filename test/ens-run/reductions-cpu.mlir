// Reductions over several dims whose innermost reduced dim gets a partial
// result per element on the CPU (ens-cpu-split-reductions), against the
// interpreter, which sums each output element in order: a bias gradient
// (the batch and the image's rows and columns, 9 columns: not a whole
// vector), a max over rows and columns (partial maxima from -inf, NaNs
// propagating), a sum whose innermost dim (70) is too long to split, and
// a sum of every element (partial sums, then a sum to a scalar).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in bias_gradient max_rows_columns long_rows total max_with_nan; do \
// RUN:   ens-run %s --entry=$f --random-inputs=11 --output-dir=%t/$f && \
// RUN:   ens-run %s --entry=$f --random-inputs=11 --backend=cpu --rtol=1e-5 --atol=1e-5 --expect=%t/$f/out0.npy \
// RUN:     || exit 1; done
// RUN: ens-run %s --entry=max_with_nan --backend=cpu | FileCheck %s
// CHECK: out0 = tensor<2xf32> [nan, 7]

func.func @bias_gradient(%dy: tensor<3x5x7x9xf32>) -> tensor<5xf32> {
  %0 = ens.reduce_sum %dy {dims = array<i64: 0, 2, 3>} : tensor<3x5x7x9xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

func.func @max_rows_columns(%x: tensor<4x6x10xf32>) -> tensor<4xf32> {
  %0 = ens.reduce_max %x {dims = array<i64: 1, 2>} : tensor<4x6x10xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @long_rows(%x: tensor<3x4x70xf32>) -> tensor<4xf32> {
  %0 = ens.reduce_sum %x {dims = array<i64: 0, 2>} : tensor<3x4x70xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @max_with_nan() -> tensor<2xf32> {
  %x = ens.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 0x7FC00000, 6.0, 0.0], [1.0, 1.0, 1.0, 1.0]],
                           [[1.0, 2.0, 3.0, 4.0], [5.0, 7.0, 6.0, 0.0], [1.0, 1.0, 1.0, 1.0]]]> : tensor<2x3x4xf32>
  %0 = ens.reduce_max %x {dims = array<i64: 1, 2>} : tensor<2x3x4xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

func.func @total(%x: tensor<6x10xf32>) -> tensor<f32> {
  %0 = ens.reduce_sum %x {dims = array<i64: 0, 1>} : tensor<6x10xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
