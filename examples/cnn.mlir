// A small convolutional image classifier as an ensemble member, and one
// SGD training step for 8 members at once. The member is two blocks of a
// 3x3 convolution (padded to keep the size), a bias, relu and 2x2 max
// pooling, then a linear head over the flattened features:
//
//   x [8 x 1 x 12 x 12] -> conv 1->4, relu, pool -> [8 x 4 x 6 x 6]
//     -> conv 4->8, relu, pool -> [8 x 8 x 3 x 3] -> flatten [8 x 72]
//     -> linear 72->4 -> logits [8 x 4] -> softmax cross-entropy
//
// @train_step(w1, b1, w2, b2, w3, b3,  stacked parameters [8 x ...]
//             lr,                     learning rates [8]
//             x, labels)              a shared batch [8x1x12x12], [8] (i32)
//   -> (new w1, b1, w2, b2, w3, b3, losses [8])
//
// The vmap over members turns each member's convolutions with its own
// filters into one grouped convolution with a group per member
// (docs/batching.md). To see the batched, differentiated program:
//   ens-opt --ens-stdlib --ens-autodiff --ens-batch examples/cnn.mlir
// test/unittests/Training/CnnTest.cpp trains it.

func.func private @cross_entropy(tensor<8x4xf32>, tensor<8xi32>) -> tensor<f32>
    attributes {ens.stdlib = "softmax_cross_entropy"}

/// conv 3x3 (padded), bias, relu and 2x2 max pooling, in NCHW/OIHW.
func.func @block1(%x: tensor<8x1x12x12xf32>, %w: tensor<4x1x3x3xf32>,
                  %b: tensor<4xf32>) -> tensor<8x4x6x6xf32> {
  %c = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                        rhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>,
                        padding = array<i64: 1, 1, 1, 1>}
      : tensor<8x1x12x12xf32>, tensor<4x1x3x3xf32> -> tensor<8x4x12x12xf32>
  %bias = ens.broadcast_in_dim %b {dims = array<i64: 1>}
      : tensor<4xf32> -> tensor<8x4x12x12xf32>
  %a = ens.add %c, %bias : tensor<8x4x12x12xf32>
  %r = ens.relu %a : tensor<8x4x12x12xf32>
  %p = ens.reduce_window max, %r {window_dimensions = array<i64: 1, 1, 2, 2>,
                                  window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<8x4x12x12xf32> -> tensor<8x4x6x6xf32>
  return %p : tensor<8x4x6x6xf32>
}

func.func @block2(%x: tensor<8x4x6x6xf32>, %w: tensor<8x4x3x3xf32>,
                  %b: tensor<8xf32>) -> tensor<8x8x3x3xf32> {
  %c = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                        rhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>,
                        padding = array<i64: 1, 1, 1, 1>}
      : tensor<8x4x6x6xf32>, tensor<8x4x3x3xf32> -> tensor<8x8x6x6xf32>
  %bias = ens.broadcast_in_dim %b {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<8x8x6x6xf32>
  %a = ens.add %c, %bias : tensor<8x8x6x6xf32>
  %r = ens.relu %a : tensor<8x8x6x6xf32>
  %p = ens.reduce_window max, %r {window_dimensions = array<i64: 1, 1, 2, 2>,
                                  window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<8x8x6x6xf32> -> tensor<8x8x3x3xf32>
  return %p : tensor<8x8x3x3xf32>
}

func.func @forward(%x: tensor<8x1x12x12xf32>, %w1: tensor<4x1x3x3xf32>, %b1: tensor<4xf32>, %w2: tensor<8x4x3x3xf32>, %b2: tensor<8xf32>, %w3: tensor<72x4xf32>, %b3: tensor<4xf32>)
    -> tensor<8x4xf32> {
  %h1 = call @block1(%x, %w1, %b1)
      : (tensor<8x1x12x12xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>)
      -> tensor<8x4x6x6xf32>
  %h2 = call @block2(%h1, %w2, %b2)
      : (tensor<8x4x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>)
      -> tensor<8x8x3x3xf32>
  %flat = ens.reshape %h2 : tensor<8x8x3x3xf32> -> tensor<8x72xf32>
  %z = ens.matmul %flat, %w3
      : tensor<8x72xf32>, tensor<72x4xf32> -> tensor<8x4xf32>
  %bias = ens.broadcast_in_dim %b3 {dims = array<i64: 1>}
      : tensor<4xf32> -> tensor<8x4xf32>
  %logits = ens.add %z, %bias : tensor<8x4xf32>
  return %logits : tensor<8x4xf32>
}

func.func @loss(%x: tensor<8x1x12x12xf32>, %w1: tensor<4x1x3x3xf32>, %b1: tensor<4xf32>, %w2: tensor<8x4x3x3xf32>, %b2: tensor<8xf32>, %w3: tensor<72x4xf32>, %b3: tensor<4xf32>,
                %labels: tensor<8xi32>) -> tensor<f32> {
  %logits = call @forward(%x, %w1, %b1, %w2, %b2, %w3, %b3)
      : (tensor<8x1x12x12xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %l = call @cross_entropy(%logits, %labels)
      : (tensor<8x4xf32>, tensor<8xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

/// One member's SGD step: p - lr * dloss/dp for every parameter.
func.func @member_step(%w1: tensor<4x1x3x3xf32>, %b1: tensor<4xf32>, %w2: tensor<8x4x3x3xf32>, %b2: tensor<8xf32>, %w3: tensor<72x4xf32>, %b3: tensor<4xf32>, %lr: tensor<f32>,
                       %x: tensor<8x1x12x12xf32>, %labels: tensor<8xi32>)
    -> (tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>, tensor<f32>) {
  %loss, %g_w1, %g_b1, %g_w2, %g_b2, %g_w3, %g_b3 = ens.value_and_grad @loss(%x, %w1, %b1, %w2, %b2, %w3, %b3, %labels)
      {wrt = array<i64: 1, 2, 3, 4, 5, 6>}
      : (tensor<8x1x12x12xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>, tensor<8xi32>)
      -> (tensor<f32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>)
  %lr_w1 = ens.broadcast_in_dim %lr {dims = array<i64>} : tensor<f32> -> tensor<4x1x3x3xf32>
  %step_w1 = ens.mul %g_w1, %lr_w1 : tensor<4x1x3x3xf32>
  %new_w1 = ens.sub %w1, %step_w1 : tensor<4x1x3x3xf32>
  %lr_b1 = ens.broadcast_in_dim %lr {dims = array<i64>} : tensor<f32> -> tensor<4xf32>
  %step_b1 = ens.mul %g_b1, %lr_b1 : tensor<4xf32>
  %new_b1 = ens.sub %b1, %step_b1 : tensor<4xf32>
  %lr_w2 = ens.broadcast_in_dim %lr {dims = array<i64>} : tensor<f32> -> tensor<8x4x3x3xf32>
  %step_w2 = ens.mul %g_w2, %lr_w2 : tensor<8x4x3x3xf32>
  %new_w2 = ens.sub %w2, %step_w2 : tensor<8x4x3x3xf32>
  %lr_b2 = ens.broadcast_in_dim %lr {dims = array<i64>} : tensor<f32> -> tensor<8xf32>
  %step_b2 = ens.mul %g_b2, %lr_b2 : tensor<8xf32>
  %new_b2 = ens.sub %b2, %step_b2 : tensor<8xf32>
  %lr_w3 = ens.broadcast_in_dim %lr {dims = array<i64>} : tensor<f32> -> tensor<72x4xf32>
  %step_w3 = ens.mul %g_w3, %lr_w3 : tensor<72x4xf32>
  %new_w3 = ens.sub %w3, %step_w3 : tensor<72x4xf32>
  %lr_b3 = ens.broadcast_in_dim %lr {dims = array<i64>} : tensor<f32> -> tensor<4xf32>
  %step_b3 = ens.mul %g_b3, %lr_b3 : tensor<4xf32>
  %new_b3 = ens.sub %b3, %step_b3 : tensor<4xf32>
  return %new_w1, %new_b1, %new_w2, %new_b2, %new_w3, %new_b3, %loss : tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>, tensor<f32>
}

func.func @train_step(%w1: tensor<8x4x1x3x3xf32>, %b1: tensor<8x4xf32>, %w2: tensor<8x8x4x3x3xf32>, %b2: tensor<8x8xf32>, %w3: tensor<8x72x4xf32>, %b3: tensor<8x4xf32>, %lr: tensor<8xf32>,
                      %x: tensor<8x1x12x12xf32>, %labels: tensor<8xi32>)
    -> (tensor<8x4x1x3x3xf32>, tensor<8x4xf32>, tensor<8x8x4x3x3xf32>, tensor<8x8xf32>, tensor<8x72x4xf32>, tensor<8x4xf32>, tensor<8xf32>) {
  %r:7 = ens.vmap @member_step(%w1, %b1, %w2, %b2, %w3, %b3, %lr, %x, %labels)
      {in_axes = array<i64: 0, 0, 0, 0, 0, 0, 0, -1, -1>,
       out_axes = array<i64: 0, 0, 0, 0, 0, 0, 0>, size = 8 : i64}
      : (tensor<8x4x1x3x3xf32>, tensor<8x4xf32>, tensor<8x8x4x3x3xf32>, tensor<8x8xf32>, tensor<8x72x4xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<8x1x12x12xf32>, tensor<8xi32>)
      -> (tensor<8x4x1x3x3xf32>, tensor<8x4xf32>, tensor<8x8x4x3x3xf32>, tensor<8x8xf32>, tensor<8x72x4xf32>, tensor<8x4xf32>, tensor<8xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : tensor<8x4x1x3x3xf32>, tensor<8x4xf32>, tensor<8x8x4x3x3xf32>, tensor<8x8xf32>, tensor<8x72x4xf32>, tensor<8x4xf32>, tensor<8xf32>
}
