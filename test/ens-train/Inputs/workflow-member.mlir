// The seed-002 workflow's member: 16 features, 32 tanh units, one output,
// any batch size; without @loss it trains on the mean squared error.
func.func @forward(%x: tensor<?x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
                   %w2: tensor<32x1xf32>, %b2: tensor<1xf32>) -> tensor<?x1xf32> {
  %0 = ens.matmul %x, %w1 : tensor<?x16xf32>, tensor<16x32xf32> -> tensor<?x32xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<32xf32> -> tensor<?x32xf32>
  %2 = ens.add %0, %1 : tensor<?x32xf32>
  %h = ens.tanh %2 : tensor<?x32xf32>
  %3 = ens.matmul %h, %w2 : tensor<?x32xf32>, tensor<32x1xf32> -> tensor<?x1xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<1xf32> -> tensor<?x1xf32>
  %y = ens.add %3, %4 : tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}
