// out = a * b + c over 2x3 f32 tensors: the program examples/runtime-embed
// runs from its artifact.
func.func @fma(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<2x3xf32>)
    -> tensor<2x3xf32> {
  %p = ens.mul %a, %b : tensor<2x3xf32>
  %s = ens.add %p, %c : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
