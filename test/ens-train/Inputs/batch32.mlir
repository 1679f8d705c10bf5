// A small member model with a batch of 32 rows, 64 features and 8 outputs
// (the tests' data), for runs that need several batches of validation.
func.func @forward(%x: tensor<32x64xf32>, %w1: tensor<64x16xf32>, %b1: tensor<16xf32>,
                   %w2: tensor<16x8xf32>) -> tensor<32x8xf32> {
  %0 = ens.matmul %x, %w1 : tensor<32x64xf32>, tensor<64x16xf32> -> tensor<32x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<32x16xf32>
  %2 = ens.add %0, %1 : tensor<32x16xf32>
  %h = ens.tanh %2 : tensor<32x16xf32>
  %y = ens.matmul %h, %w2 : tensor<32x16xf32>, tensor<16x8xf32> -> tensor<32x8xf32>
  return %y : tensor<32x8xf32>
}

func.func @loss(%x: tensor<32x64xf32>, %w1: tensor<64x16xf32>, %b1: tensor<16xf32>,
                %w2: tensor<16x8xf32>, %t: tensor<32x8xf32>) -> tensor<f32> {
  %y = call @forward(%x, %w1, %b1, %w2) : (tensor<32x64xf32>, tensor<64x16xf32>, tensor<16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>
  %d = ens.sub %y, %t : tensor<32x8xf32>
  %s = ens.square %d : tensor<32x8xf32>
  %m = ens.reduce_mean %s {dims = array<i64: 0, 1>} : tensor<32x8xf32> -> tensor<f32>
  return %m : tensor<f32>
}
