// examples/mlp.mlir with 16 hidden units instead of 32, for a checkpoint
// that does not match.

func.func @forward(%x: tensor<256x64xf32>, %w1: tensor<64x16xf32>,
                   %b1: tensor<16xf32>, %w2: tensor<16x8xf32>,
                   %b2: tensor<8xf32>) -> tensor<256x8xf32> {
  %0 = ens.einsum %x, %w1 {spec = "bi,ih->bh"}
      : tensor<256x64xf32>, tensor<64x16xf32> -> tensor<256x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>}
      : tensor<16xf32> -> tensor<256x16xf32>
  %2 = ens.add %0, %1 : tensor<256x16xf32>
  %h = ens.tanh %2 : tensor<256x16xf32>
  %3 = ens.matmul %h, %w2
      : tensor<256x16xf32>, tensor<16x8xf32> -> tensor<256x8xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<256x8xf32>
  %y = ens.add %3, %4 : tensor<256x8xf32>
  return %y : tensor<256x8xf32>
}

func.func @loss(%x: tensor<256x64xf32>, %w1: tensor<64x16xf32>,
                %b1: tensor<16xf32>, %w2: tensor<16x8xf32>,
                %b2: tensor<8xf32>, %targets: tensor<256x8xf32>)
    -> tensor<f32> {
  %y = call @forward(%x, %w1, %b1, %w2, %b2)
      : (tensor<256x64xf32>, tensor<64x16xf32>, tensor<16xf32>,
         tensor<16x8xf32>, tensor<8xf32>) -> tensor<256x8xf32>
  %error = ens.sub %y, %targets : tensor<256x8xf32>
  %squared = ens.square %error : tensor<256x8xf32>
  %mse = ens.reduce_mean %squared {dims = array<i64: 0, 1>}
      : tensor<256x8xf32> -> tensor<f32>
  return %mse : tensor<f32>
}
