// A regression member of 64 features and 2 outputs, any batch size,
// without @loss: ens-train trains it on the standard library's mean
// squared error. Four ensembles of it cover the 8 targets of make_data.py.
func.func @forward(%x: tensor<?x64xf32>, %w1: tensor<64x8xf32>, %b1: tensor<8xf32>,
                   %w2: tensor<8x2xf32>) -> tensor<?x2xf32> {
  %0 = ens.matmul %x, %w1 : tensor<?x64xf32>, tensor<64x8xf32> -> tensor<?x8xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<8xf32> -> tensor<?x8xf32>
  %2 = ens.add %0, %1 : tensor<?x8xf32>
  %h = ens.tanh %2 : tensor<?x8xf32>
  %y = ens.matmul %h, %w2 : tensor<?x8xf32>, tensor<8x2xf32> -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
