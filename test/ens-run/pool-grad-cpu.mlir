// Max pooling's adjoint and elementwise ops along narrow innermost
// dimensions on the CPU backend against the interpreter. Where the windows
// tile the operand, the adjoint's last pass runs over the operand viewed as
// [rows, window rows, columns, window columns]: a window's 2 or 3 columns
// are narrower than a vector, so ens-cpu-tile-and-vectorize runs its
// vectors along the columns of windows too and ens-cpu-lower-vectors
// computes them as 1-D vectors. The cases: members with their own images
// as in cnn-wide (relu before the pooling, so that windows of zeros tie and
// the first zero gets the adjoint; NaNs, which no tap equals, so that no
// tap gets it), windows whose taps tie at values that relu's mask keeps
// (the first maximum, found beside the forward pooling, must get the
// adjoint), columns that no vector width divides (5 windows of 3),
// windows that do not tile (stride 2 under 3x3 windows; padding), and
// plain elementwise ops with a narrow innermost dimension, one reading an
// operand transposed (which keeps vectors of the narrow dimension alone).
// conv_block is cnn-wide's second block at odd sizes: each member's
// convolution, bias, relu (some NaNs, and ties of zeros), pooling, and a
// dense layer; relu's mask runs in the pooling adjoint's windows and its
// result feeds the filter, bias and image gradients through reshapes done
// after the loop over the batch.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in members odd_columns overlapping padded narrow_add narrow_transposed; do \
// RUN:   ens-run %s --entry=$f --random-inputs=11 --output-dir=%t/$f && \
// RUN:   ens-run %s --entry=$f --random-inputs=11 --backend=cpu --rtol=1e-6 --atol=1e-6 --expect=%t/$f/out0.npy \
// RUN:     || exit 1; done
// RUN: ens-run %s --entry=ties --random-inputs=11 | FileCheck %s --check-prefix=TIES
// RUN: ens-run %s --entry=ties --random-inputs=11 --backend=cpu | FileCheck %s --check-prefix=TIES
// RUN: ens-run %s --entry=ties --random-inputs=11 --output-dir=%t/ties
// RUN: ens-run %s --entry=ties --random-inputs=11 --backend=cpu --rtol=1e-6 --atol=1e-6 \
// RUN:   --expect=%t/ties/out0.npy --expect=%t/ties/out1.npy --expect=%t/ties/out2.npy
// RUN: ens-run %s --entry=conv_block --random-inputs=11 --output-dir=%t/conv_block
// RUN: ens-run %s --entry=conv_block --random-inputs=11 --backend=cpu --rtol=1e-5 --atol=1e-5 \
// RUN:   --expect=%t/conv_block/out0.npy --expect=%t/conv_block/out1.npy --expect=%t/conv_block/out2.npy

// relu, some NaNs (inputs above 0.9), 2x2 max pooling and a weighted sum.
func.func private @pool_loss(%x: tensor<3x2x6x10xf32>, %g: tensor<3x2x3x5xf32>) -> tensor<f32> {
  %nan = ens.constant dense<0x7FC00000> : tensor<3x2x6x10xf32>
  %big = ens.constant dense<0.9> : tensor<3x2x6x10xf32>
  %over = ens.cmp gt, %x, %big : tensor<3x2x6x10xf32>
  %some_nan = ens.select %over, %nan, %x : tensor<3x2x6x10xi1>, tensor<3x2x6x10xf32>
  %r = ens.relu %some_nan : tensor<3x2x6x10xf32>
  %p = ens.reduce_window max, %r {window_dimensions = array<i64: 1, 1, 2, 2>,
                                  window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<3x2x6x10xf32> -> tensor<3x2x3x5xf32>
  %m = ens.mul %p, %g : tensor<3x2x3x5xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0, 1, 2, 3>} : tensor<3x2x3x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @pool_grad(%x: tensor<3x2x6x10xf32>, %g: tensor<3x2x3x5xf32>) -> tensor<3x2x6x10xf32> {
  %l, %dx = ens.value_and_grad @pool_loss(%x, %g) {wrt = array<i64: 0>}
      : (tensor<3x2x6x10xf32>, tensor<3x2x3x5xf32>) -> (tensor<f32>, tensor<3x2x6x10xf32>)
  return %dx : tensor<3x2x6x10xf32>
}

// 4 members along a non-leading axis, as cnn-wide's images carry them.
func.func @members(%x: tensor<3x4x2x6x10xf32>, %g: tensor<3x4x2x3x5xf32>) -> tensor<3x4x2x6x10xf32> {
  %dx = ens.vmap @pool_grad(%x, %g) {in_axes = array<i64: 1, 1>, out_axes = array<i64: 1>, size = 4 : i64}
      : (tensor<3x4x2x6x10xf32>, tensor<3x4x2x3x5xf32>) -> tensor<3x4x2x6x10xf32>
  return %dx : tensor<3x4x2x6x10xf32>
}

// Each 2x2 window of a 14x18 image holds one value 4 times, raised at the
// taps where %e is above 0.5: about a third of the windows tie at all 4
// taps (the adjoint goes to tap 0), the others have a maximum of their own.
// The gradient is taken at the tied image itself, so that it shows which
// tap got each window's adjoint; the loss is returned too. The same image
// with a 19th column, which no window covers, takes the adjoint's other
// form (per tap, in the adjoint sweep): the two must agree exactly, an
// oracle for the rule that the interpreter runs as well.
func.func private @tie_loss(%t: tensor<3x14x18xf32>, %g: tensor<3x7x9xf32>) -> tensor<f32> {
  %p = ens.reduce_window max, %t {window_dimensions = array<i64: 1, 2, 2>,
                                  window_strides = array<i64: 1, 2, 2>}
      : tensor<3x14x18xf32> -> tensor<3x7x9xf32>
  %m = ens.mul %p, %g : tensor<3x7x9xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0, 1, 2>} : tensor<3x7x9xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @untiled_loss(%t: tensor<3x14x19xf32>, %g: tensor<3x7x9xf32>) -> tensor<f32> {
  %p = ens.reduce_window max, %t {window_dimensions = array<i64: 1, 2, 2>,
                                  window_strides = array<i64: 1, 2, 2>}
      : tensor<3x14x19xf32> -> tensor<3x7x9xf32>
  %m = ens.mul %p, %g : tensor<3x7x9xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0, 1, 2>} : tensor<3x7x9xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @tie_grad(%x: tensor<3x7x9xf32>, %e: tensor<3x14x18xf32>, %g: tensor<3x7x9xf32>)
    -> (tensor<f32>, tensor<3x14x18xf32>, tensor<f32>) {
  %b = ens.broadcast_in_dim %x {dims = array<i64: 0, 1, 3>} : tensor<3x7x9xf32> -> tensor<3x7x2x9x2xf32>
  %tied = ens.reshape %b : tensor<3x7x2x9x2xf32> -> tensor<3x14x18xf32>
  %half = ens.constant dense<0.5> : tensor<3x14x18xf32>
  %zero = ens.constant dense<0.0> : tensor<3x14x18xf32>
  %over = ens.cmp gt, %e, %half : tensor<3x14x18xf32>
  %raise = ens.select %over, %e, %zero : tensor<3x14x18xi1>, tensor<3x14x18xf32>
  %t = ens.add %tied, %raise : tensor<3x14x18xf32>
  %l, %dt = ens.value_and_grad @tie_loss(%t, %g) {wrt = array<i64: 0>}
      : (tensor<3x14x18xf32>, tensor<3x7x9xf32>) -> (tensor<f32>, tensor<3x14x18xf32>)
  %column = ens.constant dense<0.0> : tensor<3x14x1xf32>
  %u = ens.concat %t, %column {dim = 2 : i64} : tensor<3x14x18xf32>, tensor<3x14x1xf32> -> tensor<3x14x19xf32>
  %lu, %du = ens.value_and_grad @untiled_loss(%u, %g) {wrt = array<i64: 0>}
      : (tensor<3x14x19xf32>, tensor<3x7x9xf32>) -> (tensor<f32>, tensor<3x14x19xf32>)
  %dut = ens.slice %du {start = array<i64: 0, 0, 0>, limit = array<i64: 3, 14, 18>, stride = array<i64: 1, 1, 1>}
      : tensor<3x14x19xf32> -> tensor<3x14x18xf32>
  %diff = ens.sub %dt, %dut : tensor<3x14x18xf32>
  %abs = ens.abs %diff : tensor<3x14x18xf32>
  %worst = ens.reduce_max %abs {dims = array<i64: 0, 1, 2>} : tensor<3x14x18xf32> -> tensor<f32>
  return %l, %dt, %worst : tensor<f32>, tensor<3x14x18xf32>, tensor<f32>
}

// 4 members, their own images. Both forms of the adjoint agree exactly:
// TIES: out2 = tensor<4xf32> [0, 0, 0, 0]
func.func @ties(%x: tensor<4x3x7x9xf32>, %e: tensor<4x3x14x18xf32>, %g: tensor<4x3x7x9xf32>)
    -> (tensor<4x3x14x18xf32>, tensor<4xf32>, tensor<4xf32>) {
  %l, %dt, %worst = ens.vmap @tie_grad(%x, %e, %g) {in_axes = array<i64: 0, 0, 0>, out_axes = array<i64: 0, 0, 0>, size = 4 : i64}
      : (tensor<4x3x7x9xf32>, tensor<4x3x14x18xf32>, tensor<4x3x7x9xf32>)
      -> (tensor<4xf32>, tensor<4x3x14x18xf32>, tensor<4xf32>)
  return %dt, %l, %worst : tensor<4x3x14x18xf32>, tensor<4xf32>, tensor<4xf32>
}

func.func private @wide_loss(%x: tensor<3x4x15xf32>, %g: tensor<3x2x5xf32>) -> tensor<f32> {
  %r = ens.relu %x : tensor<3x4x15xf32>
  %p = ens.reduce_window max, %r {window_dimensions = array<i64: 1, 2, 3>,
                                  window_strides = array<i64: 1, 2, 3>}
      : tensor<3x4x15xf32> -> tensor<3x2x5xf32>
  %m = ens.mul %p, %g : tensor<3x2x5xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0, 1, 2>} : tensor<3x2x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @odd_columns(%x: tensor<3x4x15xf32>, %g: tensor<3x2x5xf32>) -> tensor<3x4x15xf32> {
  %l, %dx = ens.value_and_grad @wide_loss(%x, %g) {wrt = array<i64: 0>}
      : (tensor<3x4x15xf32>, tensor<3x2x5xf32>) -> (tensor<f32>, tensor<3x4x15xf32>)
  return %dx : tensor<3x4x15xf32>
}

func.func private @overlapping_loss(%x: tensor<2x7x9xf32>, %g: tensor<2x3x4xf32>) -> tensor<f32> {
  %r = ens.relu %x : tensor<2x7x9xf32>
  %p = ens.reduce_window max, %r {window_dimensions = array<i64: 1, 3, 3>,
                                  window_strides = array<i64: 1, 2, 2>}
      : tensor<2x7x9xf32> -> tensor<2x3x4xf32>
  %m = ens.mul %p, %g : tensor<2x3x4xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @overlapping(%x: tensor<2x7x9xf32>, %g: tensor<2x3x4xf32>) -> tensor<2x7x9xf32> {
  %l, %dx = ens.value_and_grad @overlapping_loss(%x, %g) {wrt = array<i64: 0>}
      : (tensor<2x7x9xf32>, tensor<2x3x4xf32>) -> (tensor<f32>, tensor<2x7x9xf32>)
  return %dx : tensor<2x7x9xf32>
}

func.func private @padded_loss(%x: tensor<2x5x7xf32>, %g: tensor<2x3x4xf32>) -> tensor<f32> {
  %p = ens.reduce_window max, %x {window_dimensions = array<i64: 1, 2, 2>,
                                  window_strides = array<i64: 1, 2, 2>,
                                  padding = array<i64: 0, 0, 1, 0, 0, 1>}
      : tensor<2x5x7xf32> -> tensor<2x3x4xf32>
  %m = ens.mul %p, %g : tensor<2x3x4xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @padded(%x: tensor<2x5x7xf32>, %g: tensor<2x3x4xf32>) -> tensor<2x5x7xf32> {
  %l, %dx = ens.value_and_grad @padded_loss(%x, %g) {wrt = array<i64: 0>}
      : (tensor<2x5x7xf32>, tensor<2x3x4xf32>) -> (tensor<f32>, tensor<2x5x7xf32>)
  return %dx : tensor<2x5x7xf32>
}

// out[i, j, k] = a[i, k] * b[j, k] + c[i, j, k], k of 2.
func.func @narrow_add(%a: tensor<3x2xf32>, %b: tensor<12x2xf32>, %c: tensor<3x12x2xf32>) -> tensor<3x12x2xf32> {
  %ab = ens.broadcast_in_dim %a {dims = array<i64: 0, 2>} : tensor<3x2xf32> -> tensor<3x12x2xf32>
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1, 2>} : tensor<12x2xf32> -> tensor<3x12x2xf32>
  %m = ens.mul %ab, %bb : tensor<3x12x2xf32>
  %s = ens.add %m, %c : tensor<3x12x2xf32>
  return %s : tensor<3x12x2xf32>
}

// out[i, j, k] = a[i, k, j] + c[i, j, k]: a is read along k at a stride.
func.func @narrow_transposed(%a: tensor<3x2x12xf32>, %c: tensor<3x12x2xf32>) -> tensor<3x12x2xf32> {
  %t = ens.transpose %a {permutation = array<i64: 0, 2, 1>} : tensor<3x2x12xf32> -> tensor<3x12x2xf32>
  %s = ens.add %t, %c : tensor<3x12x2xf32>
  return %s : tensor<3x12x2xf32>
}

func.func private @block_loss(%x: tensor<5x2x10x22xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>,
                              %w3: tensor<165x5xf32>, %g: tensor<5x5xf32>) -> tensor<f32> {
  %c = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<5x2x10x22xf32>, tensor<3x2x3x3xf32> -> tensor<5x3x10x22xf32>
  %bias = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<3xf32> -> tensor<5x3x10x22xf32>
  %a = ens.add %c, %bias : tensor<5x3x10x22xf32>
  %nan = ens.constant dense<0x7FC00000> : tensor<5x3x10x22xf32>
  %big = ens.constant dense<2.0> : tensor<5x3x10x22xf32>
  %over = ens.cmp gt, %a, %big : tensor<5x3x10x22xf32>
  %some_nan = ens.select %over, %nan, %a : tensor<5x3x10x22xi1>, tensor<5x3x10x22xf32>
  %r = ens.relu %some_nan : tensor<5x3x10x22xf32>
  %p = ens.reduce_window max, %r {window_dimensions = array<i64: 1, 1, 2, 2>,
                                  window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<5x3x10x22xf32> -> tensor<5x3x5x11xf32>
  %f = ens.reshape %p : tensor<5x3x5x11xf32> -> tensor<5x165xf32>
  %z = ens.matmul %f, %w3 : tensor<5x165xf32>, tensor<165x5xf32> -> tensor<5x5xf32>
  %m = ens.mul %z, %g : tensor<5x5xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0, 1>} : tensor<5x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @block_grad(%x: tensor<5x2x10x22xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>,
                              %w3: tensor<165x5xf32>, %g: tensor<5x5xf32>)
    -> (tensor<5x2x10x22xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) {
  %l, %dx, %dw, %db = ens.value_and_grad @block_loss(%x, %w, %b, %w3, %g) {wrt = array<i64: 0, 1, 2>}
      : (tensor<5x2x10x22xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>, tensor<165x5xf32>, tensor<5x5xf32>)
      -> (tensor<f32>, tensor<5x2x10x22xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>)
  return %dx, %dw, %db : tensor<5x2x10x22xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>
}

// 4 members with their own parameters and the images shared, as cnn-wide.
func.func @conv_block(%x: tensor<5x2x10x22xf32>, %w: tensor<4x3x2x3x3xf32>, %b: tensor<4x3xf32>,
                      %w3: tensor<4x165x5xf32>, %g: tensor<5x5xf32>)
    -> (tensor<4x5x2x10x22xf32>, tensor<4x3x2x3x3xf32>, tensor<4x3xf32>) {
  %dx, %dw, %db = ens.vmap @block_grad(%x, %w, %b, %w3, %g)
      {in_axes = array<i64: -1, 0, 0, 0, -1>, out_axes = array<i64: 0, 0, 0>, size = 4 : i64}
      : (tensor<5x2x10x22xf32>, tensor<4x3x2x3x3xf32>, tensor<4x3xf32>, tensor<4x165x5xf32>, tensor<5x5xf32>)
      -> (tensor<4x5x2x10x22xf32>, tensor<4x3x2x3x3xf32>, tensor<4x3xf32>)
  return %dx, %dw, %db : tensor<4x5x2x10x22xf32>, tensor<4x3x2x3x3xf32>, tensor<4x3xf32>
}
