// The CPU backend's convolution tiles (ens-cpu-tile-and-vectorize) and
// its partial sums for wide windows (ens-cpu-split-window-reductions)
// against the interpreter's direct loops, at sizes that tiles do not
// divide: a grouped forward convolution, its input gradient (reversed
// filter, output and input features swapped) and its filter gradient (a
// window of the output gradient's size; with few input channels partial
// sums per tap, with 9 a vector along the output channels), forward
// convolutions vectorized along their output channels (images narrower than
// a vector: 8, 7 and 6 columns; 2 groups of 16 channels, 32 channels, 16
// with a bias and relu after), input gradients over flattened image rows
// (8 channels of 8x8 images, 5 of 8x4), a forward convolution and an
// input gradient whose tiles span several image rows (10 and 12 rows, 18
// columns), a strided and a dilated one, a
// 1-D one and one in NHWC; and pooling whose windows tile the operand (a
// strided slice per tap; max with NaNs, which must propagate, and sum) or
// overlap (the general form). The interpreter computes each output element
// by its own sum; compiled code sums in another order, hence the tolerance.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in grouped channels channels_odd channels_relu rows_flattened rows_flattened_narrow input_gradient filter_gradient filter_gradient_channels image_rows image_rows_gradient strided dilated one_d nhwc max_pool sum_pool overlapping_pool; do \
// RUN:   ens-run %s --entry=$f --random-inputs=7 --output-dir=%t/$f && \
// RUN:   ens-run %s --entry=$f --random-inputs=7 --backend=cpu --rtol=1e-5 --atol=1e-5 --expect=%t/$f/out0.npy \
// RUN:     || exit 1; done

func.func @grouped(%x: tensor<3x6x7x9xf32>, %w: tensor<10x3x3x3xf32>) -> tensor<3x10x7x9xf32> {
  %0 = ens.conv %x, %w {feature_group_count = 2 : i64, lhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                        rhs_dims = array<i64: 0, 1, 2, 3>}
      : tensor<3x6x7x9xf32>, tensor<10x3x3x3xf32> -> tensor<3x10x7x9xf32>
  return %0 : tensor<3x10x7x9xf32>
}

func.func @channels(%x: tensor<2x16x8x8xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<2x32x8x8xf32> {
  %0 = ens.conv %x, %w {feature_group_count = 2 : i64, lhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                        rhs_dims = array<i64: 0, 1, 2, 3>}
      : tensor<2x16x8x8xf32>, tensor<32x8x3x3xf32> -> tensor<2x32x8x8xf32>
  return %0 : tensor<2x32x8x8xf32>
}

func.func @channels_odd(%x: tensor<3x3x9x7xf32>, %w: tensor<32x3x3x3xf32>) -> tensor<3x32x9x7xf32> {
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                        rhs_dims = array<i64: 0, 1, 2, 3>}
      : tensor<3x3x9x7xf32>, tensor<32x3x3x3xf32> -> tensor<3x32x9x7xf32>
  return %0 : tensor<3x32x9x7xf32>
}

func.func @channels_relu(%x: tensor<5x8x8x6xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<5x16x8x6xf32> {
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                        rhs_dims = array<i64: 0, 1, 2, 3>}
      : tensor<5x8x8x6xf32>, tensor<16x8x3x3xf32> -> tensor<5x16x8x6xf32>
  %1 = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<16xf32> -> tensor<5x16x8x6xf32>
  %2 = ens.add %0, %1 : tensor<5x16x8x6xf32>
  %3 = ens.relu %2 : tensor<5x16x8x6xf32>
  return %3 : tensor<5x16x8x6xf32>
}

func.func @rows_flattened(%dy: tensor<3x16x8x8xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<3x8x8x8xf32> {
  %0 = ens.conv %dy, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                         out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<3x16x8x8xf32>, tensor<16x8x3x3xf32> -> tensor<3x8x8x8xf32>
  return %0 : tensor<3x8x8x8xf32>
}

func.func @rows_flattened_narrow(%dy: tensor<2x6x8x4xf32>, %w: tensor<6x5x3x3xf32>) -> tensor<2x5x8x4xf32> {
  %0 = ens.conv %dy, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                         out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<2x6x8x4xf32>, tensor<6x5x3x3xf32> -> tensor<2x5x8x4xf32>
  return %0 : tensor<2x5x8x4xf32>
}

func.func @input_gradient(%dy: tensor<3x10x7x9xf32>, %w: tensor<5x6x3x3xf32>) -> tensor<3x6x7x9xf32> {
  %0 = ens.conv %dy, %w {feature_group_count = 2 : i64, lhs_dims = array<i64: 0, 1, 2, 3>,
                         out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<3x10x7x9xf32>, tensor<5x6x3x3xf32> -> tensor<3x6x7x9xf32>
  return %0 : tensor<3x6x7x9xf32>
}

func.func @image_rows(%x: tensor<2x6x10x18xf32>, %w: tensor<12x3x3x3xf32>) -> tensor<2x12x10x18xf32> {
  %0 = ens.conv %x, %w {feature_group_count = 2 : i64, lhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                        rhs_dims = array<i64: 0, 1, 2, 3>}
      : tensor<2x6x10x18xf32>, tensor<12x3x3x3xf32> -> tensor<2x12x10x18xf32>
  return %0 : tensor<2x12x10x18xf32>
}

func.func @image_rows_gradient(%dy: tensor<2x7x12x18xf32>, %w: tensor<7x5x3x3xf32>) -> tensor<2x5x12x18xf32> {
  %0 = ens.conv %dy, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                         out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<2x7x12x18xf32>, tensor<7x5x3x3xf32> -> tensor<2x5x12x18xf32>
  return %0 : tensor<2x5x12x18xf32>
}

func.func @filter_gradient(%x: tensor<6x3x7x9xf32>, %dy: tensor<3x10x7x9xf32>) -> tensor<10x3x3x3xf32> {
  %0 = ens.conv %x, %dy {feature_group_count = 2 : i64, lhs_dims = array<i64: 1, 0, 2, 3>,
                         out_dims = array<i64: 1, 0, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<6x3x7x9xf32>, tensor<3x10x7x9xf32> -> tensor<10x3x3x3xf32>
  return %0 : tensor<10x3x3x3xf32>
}

// A filter gradient with 9 input channels and 16 output channels a group:
// vectorized along the output channels (a transposed output gradient), 3
// input channels a tile.
func.func @filter_gradient_channels(%x: tensor<6x9x7x9xf32>, %dy: tensor<3x32x7x9xf32>) -> tensor<32x9x3x3xf32> {
  %0 = ens.conv %x, %dy {feature_group_count = 2 : i64, lhs_dims = array<i64: 1, 0, 2, 3>,
                         out_dims = array<i64: 1, 0, 2, 3>, padding = array<i64: 1, 1, 1, 1>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<6x9x7x9xf32>, tensor<3x32x7x9xf32> -> tensor<32x9x3x3xf32>
  return %0 : tensor<32x9x3x3xf32>
}

func.func @strided(%x: tensor<2x3x9x11xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x4x5xf32> {
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>, out_dims = array<i64: 0, 1, 2, 3>,
                        rhs_dims = array<i64: 0, 1, 2, 3>, window_strides = array<i64: 2, 2>}
      : tensor<2x3x9x11xf32>, tensor<4x3x3x3xf32> -> tensor<2x4x4x5xf32>
  return %0 : tensor<2x4x4x5xf32>
}

func.func @dilated(%x: tensor<2x3x9x11xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<2x4x5x9xf32> {
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>, out_dims = array<i64: 0, 1, 2, 3>,
                        rhs_dims = array<i64: 0, 1, 2, 3>, rhs_dilation = array<i64: 2, 2>}
      : tensor<2x3x9x11xf32>, tensor<4x3x3x2xf32> -> tensor<2x4x5x9xf32>
  return %0 : tensor<2x4x5x9xf32>
}

func.func @one_d(%x: tensor<5x3x21xf32>, %w: tensor<9x3x4xf32>) -> tensor<5x9x21xf32> {
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>,
                        padding = array<i64: 1, 2>, rhs_dims = array<i64: 0, 1, 2>}
      : tensor<5x3x21xf32>, tensor<9x3x4xf32> -> tensor<5x9x21xf32>
  return %0 : tensor<5x9x21xf32>
}

func.func @nhwc(%x: tensor<2x7x9x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<2x7x9x5xf32> {
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 3, 1, 2>, out_dims = array<i64: 0, 3, 1, 2>,
                        padding = array<i64: 1, 1, 1, 1>, rhs_dims = array<i64: 3, 2, 0, 1>}
      : tensor<2x7x9x3xf32>, tensor<3x3x3x5xf32> -> tensor<2x7x9x5xf32>
  return %0 : tensor<2x7x9x5xf32>
}

func.func @max_pool(%x: tensor<3x5x8x12xf32>) -> tensor<3x5x4x4xf32> {
  %nan = ens.constant dense<0x7FC00000> : tensor<3x5x8x12xf32>
  %zero = ens.constant dense<0.0> : tensor<3x5x8x12xf32>
  %big = ens.constant dense<0.9> : tensor<3x5x8x12xf32>
  %over = ens.cmp gt, %x, %big : tensor<3x5x8x12xf32>
  %some_nan = ens.select %over, %nan, %x : tensor<3x5x8x12xi1>, tensor<3x5x8x12xf32>
  %p = ens.reduce_window max, %some_nan {window_dimensions = array<i64: 1, 1, 2, 3>,
                                         window_strides = array<i64: 1, 1, 2, 3>}
      : tensor<3x5x8x12xf32> -> tensor<3x5x4x4xf32>
  return %p : tensor<3x5x4x4xf32>
}

func.func @sum_pool(%x: tensor<3x5x8x12xf32>) -> tensor<3x5x4x6xf32> {
  %p = ens.reduce_window add, %x {window_dimensions = array<i64: 1, 1, 2, 2>,
                                  window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<3x5x8x12xf32> -> tensor<3x5x4x6xf32>
  return %p : tensor<3x5x4x6xf32>
}

func.func @overlapping_pool(%x: tensor<3x5x8x12xf32>) -> tensor<3x5x3x5xf32> {
  %p = ens.reduce_window max, %x {window_dimensions = array<i64: 1, 1, 3, 3>,
                                  window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<3x5x8x12xf32> -> tensor<3x5x3x5xf32>
  return %p : tensor<3x5x3x5xf32>
}
