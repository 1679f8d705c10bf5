// A "classifier" with one logit, which softmax makes always certain.
func.func @forward(%x: tensor<?x4xf32>, %w: tensor<4x1xf32>) -> tensor<?x1xf32> {
  %y = ens.matmul %x, %w : tensor<?x4xf32>, tensor<4x1xf32> -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}
