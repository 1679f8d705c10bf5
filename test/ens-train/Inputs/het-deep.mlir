// 64 -> 16 (tanh) -> 16 (tanh) -> 2.
// A group of test/ens-train/heterogeneous.mlir: 64 features, 2 outputs, any
// batch size, no @loss (the standard library's mean squared error).
func.func @forward(%x: tensor<?x64xf32>,
    %w0: tensor<64x16xf32>,
    %b0: tensor<16xf32>,
    %w1: tensor<16x16xf32>,
    %b1: tensor<16xf32>,
    %w2: tensor<16x2xf32>,
    %b2: tensor<2xf32>) -> tensor<?x2xf32> {
  %z0 = ens.matmul %x, %w0 : tensor<?x64xf32>, tensor<64x16xf32> -> tensor<?x16xf32>
  %c0 = ens.broadcast_in_dim %b0 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<?x16xf32>
  %s0 = ens.add %z0, %c0 : tensor<?x16xf32>
  %a0 = ens.tanh %s0 : tensor<?x16xf32>
  %z1 = ens.matmul %a0, %w1 : tensor<?x16xf32>, tensor<16x16xf32> -> tensor<?x16xf32>
  %c1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<?x16xf32>
  %s1 = ens.add %z1, %c1 : tensor<?x16xf32>
  %a1 = ens.tanh %s1 : tensor<?x16xf32>
  %z2 = ens.matmul %a1, %w2 : tensor<?x16xf32>, tensor<16x2xf32> -> tensor<?x2xf32>
  %c2 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<2xf32> -> tensor<?x2xf32>
  %s2 = ens.add %z2, %c2 : tensor<?x2xf32>
  return %s2 : tensor<?x2xf32>
}
