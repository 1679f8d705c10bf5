// Filter gradients with enough channels to vectorize along their output
// channels on the CPU (ens-cpu-split-reductions, 8+ input channels and a
// whole number of vectors of output channels) and their neighbours, against
// the interpreter: a stride-2 convolution's filter gradient (its window
// reads the output gradient dilated by 2, so no partial sums per tap and
// no output-channel vector: scalar tiles), one with 32 input and 48
// output channels in one group on a 5x6 image, and filter gradients of
// one input channel (partial results per column tap, tiled over the row
// taps): 12 output channels of a 7x13 image and 20 of a 5x20 image, whose
// tiles of 6 and 5 channels by 13 and 10 lanes divide neither evenly into
// vectors.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in strided wide one_channel one_channel_20; do \
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

func.func @one_channel(%x: tensor<3x1x7x13xf32>, %dy: tensor<3x12x7x13xf32>) -> tensor<12x1x3x3xf32> {
  %0 = ens.conv %x, %dy {lhs_dims = array<i64: 1, 0, 2, 3>,
                         out_dims = array<i64: 1, 0, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<3x1x7x13xf32>, tensor<3x12x7x13xf32> -> tensor<12x1x3x3xf32>
  return %0 : tensor<12x1x3x3xf32>
}

func.func @one_channel_20(%x: tensor<2x1x5x20xf32>, %dy: tensor<2x20x5x20xf32>) -> tensor<20x1x3x3xf32> {
  %0 = ens.conv %x, %dy {lhs_dims = array<i64: 1, 0, 2, 3>,
                         out_dims = array<i64: 1, 0, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<2x1x5x20xf32>, tensor<2x20x5x20xf32> -> tensor<20x1x3x3xf32>
  return %0 : tensor<20x1x3x3xf32>
}
