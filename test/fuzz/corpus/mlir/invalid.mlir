func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %b = ens.transpose %a {permutation = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}
