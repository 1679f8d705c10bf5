// A valid program whose @loss takes no targets.
func.func @forward(%x: tensor<4x2xf32>, %w: tensor<2x1xf32>)
    -> tensor<4x1xf32> {
  %y = ens.matmul %x, %w : tensor<4x2xf32>, tensor<2x1xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

func.func @loss(%x: tensor<4x2xf32>, %w: tensor<2x1xf32>) -> tensor<f32> {
  %y = call @forward(%x, %w)
      : (tensor<4x2xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1>}
      : tensor<4x1xf32> -> tensor<f32>
  return %s : tensor<f32>
}
