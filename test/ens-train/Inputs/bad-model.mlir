// Not a valid program: an unknown op.
func.func @loss(%x: tensor<4x2xf32>, %w: tensor<2x1xf32>,
                %targets: tensor<4x1xf32>) -> tensor<f32> {
  %0 = ens.bogus %x : tensor<4x2xf32>
  return %0 : tensor<f32>
}
