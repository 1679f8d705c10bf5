// The member model of batch32.mlir with its batch left open (`?`): it
// trains and evaluates batches of any size.
func.func @forward(%x: tensor<?x64xf32>, %w1: tensor<64x16xf32>, %b1: tensor<16xf32>,
                   %w2: tensor<16x8xf32>) -> tensor<?x8xf32> {
  %0 = ens.matmul %x, %w1 : tensor<?x64xf32>, tensor<64x16xf32> -> tensor<?x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<?x16xf32>
  %2 = ens.add %0, %1 : tensor<?x16xf32>
  %h = ens.tanh %2 : tensor<?x16xf32>
  %y = ens.matmul %h, %w2 : tensor<?x16xf32>, tensor<16x8xf32> -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

func.func @loss(%x: tensor<?x64xf32>, %w1: tensor<64x16xf32>, %b1: tensor<16xf32>,
                %w2: tensor<16x8xf32>, %t: tensor<?x8xf32>) -> tensor<f32> {
  %y = call @forward(%x, %w1, %b1, %w2) : (tensor<?x64xf32>, tensor<64x16xf32>, tensor<16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
  %d = ens.sub %y, %t : tensor<?x8xf32>
  %s = ens.square %d : tensor<?x8xf32>
  %m = ens.reduce_mean %s {dims = array<i64: 0, 1>} : tensor<?x8xf32> -> tensor<f32>
  return %m : tensor<f32>
}
