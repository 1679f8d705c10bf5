// The model of the checkpoint fuzz target and of its seed checkpoints
// (test/fuzz/make_seeds.py): a linear layer small enough that a whole
// checkpoint is a few kilobytes.

func.func @forward(%x: tensor<4x2xf32>, %w: tensor<2x1xf32>,
                   %b: tensor<1xf32>) -> tensor<4x1xf32> {
  %0 = ens.matmul %x, %w
      : tensor<4x2xf32>, tensor<2x1xf32> -> tensor<4x1xf32>
  %1 = ens.broadcast_in_dim %b {dims = array<i64: 1>}
      : tensor<1xf32> -> tensor<4x1xf32>
  %y = ens.add %0, %1 : tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

func.func @loss(%x: tensor<4x2xf32>, %w: tensor<2x1xf32>, %b: tensor<1xf32>,
                %targets: tensor<4x1xf32>) -> tensor<f32> {
  %y = call @forward(%x, %w, %b)
      : (tensor<4x2xf32>, tensor<2x1xf32>, tensor<1xf32>) -> tensor<4x1xf32>
  %error = ens.sub %y, %targets : tensor<4x1xf32>
  %squared = ens.square %error : tensor<4x1xf32>
  %mse = ens.reduce_mean %squared {dims = array<i64: 0, 1>}
      : tensor<4x1xf32> -> tensor<f32>
  return %mse : tensor<f32>
}
