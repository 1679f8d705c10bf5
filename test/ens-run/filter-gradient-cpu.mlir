// Filter gradients with enough channels to vectorize along their output
// channels on the CPU (ens-cpu-split-reductions, 8+ input channels and a
// whole number of vectors of output channels) and their neighbours, against
// the interpreter: a stride-2 convolution's filter gradient (its window
// reads the output gradient dilated by 2, so no partial sums per tap and
// no output-channel vector: scalar tiles), and one with 32 input and 48
// output channels in one group on a 5x6 image.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in strided wide; do \
// RUN:   ens-run %s --entry=$f --random-inputs=13 --output-dir=%t/$f && \
// RUN:   ens-run %s --entry=$f --random-inputs=13 --backend=cpu --rtol=1e-5 --atol=1e-5 --expect=%t/$f/out0.npy \
// RUN:     || exit 1; done

func.func @strided(%x: tensor<6x9x9x11xf32>, %dy: tensor<3x32x4x5xf32>) -> tensor<32x9x3x3xf32> {
  %0 = ens.conv %x, %dy {feature_group_count = 2 : i64, lhs_dims = array<i64: 1, 0, 2, 3>,
                         out_dims = array<i64: 1, 0, 2, 3>, rhs_dilation = array<i64: 2, 2>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<6x9x9x11xf32>, tensor<3x32x4x5xf32> -> tensor<32x9x3x3xf32>
  return %0 : tensor<32x9x3x3xf32>
}

func.func @wide(%x: tensor<2x32x5x6xf32>, %dy: tensor<2x48x5x6xf32>) -> tensor<48x32x3x3xf32> {
  %0 = ens.conv %x, %dy {lhs_dims = array<i64: 1, 0, 2, 3>,
                         out_dims = array<i64: 1, 0, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<2x32x5x6xf32>, tensor<2x48x5x6xf32> -> tensor<48x32x3x3xf32>
  return %0 : tensor<48x32x3x3xf32>
}
