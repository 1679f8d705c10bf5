func.func @loss(%x: tensor<4x2xf32>, %w: tensor<100000x100000xf32>, %t: tensor<4x1xf32>) -> tensor<f32> {
  %c = ens.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @forward(%x: tensor<4x2xf32>, %w: tensor<100000x100000xf32>) -> tensor<4x1xf32> {
  %c = ens.constant dense<0.0> : tensor<4x1xf32>
  return %c : tensor<4x1xf32>
}
