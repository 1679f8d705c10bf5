// 64 -> 32 (tanh) -> 2.
// A group of test/ens-train/heterogeneous.mlir: 64 features, 2 outputs, any
// batch size, no @loss (the standard library's mean squared error).
func.func @forward(%x: tensor<?x64xf32>,
    %w0: tensor<64x32xf32>,
    %b0: tensor<32xf32>,
    %w1: tensor<32x2xf32>,
    %b1: tensor<2xf32>) -> tensor<?x2xf32> {
  %z0 = ens.matmul %x, %w0 : tensor<?x64xf32>, tensor<64x32xf32> -> tensor<?x32xf32>
  %c0 = ens.broadcast_in_dim %b0 {dims = array<i64: 1>} : tensor<32xf32> -> tensor<?x32xf32>
  %s0 = ens.add %z0, %c0 : tensor<?x32xf32>
  %a0 = ens.tanh %s0 : tensor<?x32xf32>
  %z1 = ens.matmul %a0, %w1 : tensor<?x32xf32>, tensor<32x2xf32> -> tensor<?x2xf32>
  %c1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<2xf32> -> tensor<?x2xf32>
  %s1 = ens.add %z1, %c1 : tensor<?x2xf32>
  return %s1 : tensor<?x2xf32>
}
