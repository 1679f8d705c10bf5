// 64 features, ONE output: its targets do not fit a heterogeneous ensemble
// of test/ens-train/Inputs/het-narrow.mlir (two outputs).
func.func @forward(%x: tensor<?x64xf32>, %w: tensor<64x1xf32>) -> tensor<?x1xf32> {
  %y = ens.matmul %x, %w : tensor<?x64xf32>, tensor<64x1xf32> -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}
