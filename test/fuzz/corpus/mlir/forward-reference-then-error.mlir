func.func @f() -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @g() {
  %a = ens.neg %x : tensor<4xf32>
