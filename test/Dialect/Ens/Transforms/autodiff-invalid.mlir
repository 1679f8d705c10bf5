// RUN: ens-opt %s --ens-autodiff -verify-diagnostics

// Calls are inlined into the forward pass, so this call tree, which doubles
// at every level, would put 2^21 ens.exp ops on the tape.
// expected-error @+1 {{'func.func' op has more than 1048576 ops once its calls are inlined, too many to differentiate}}
func.func @f0(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f1(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f1(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f1(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f2(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f2(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f2(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f3(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f3(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f3(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f4(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f4(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f4(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f5(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f5(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f5(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f6(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f6(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f6(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f7(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f7(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f7(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f8(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f8(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f8(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f9(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f9(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f9(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f10(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f10(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f10(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f11(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f11(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f11(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f12(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f12(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f12(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f13(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f13(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f13(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f14(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f14(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f14(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f15(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f15(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f15(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f16(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f16(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f16(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f17(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f17(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f17(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f18(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f18(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f18(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f19(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f19(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f19(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f20(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f20(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f20(%x: tensor<f32>) -> tensor<f32> {
  %a = call @f21(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @f21(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @f21(%x: tensor<f32>) -> tensor<f32> {
  %y = ens.exp %x : tensor<f32>
  return %y : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %l, %g = ens.value_and_grad @f0(%x) {wrt = array<i64: 0>} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %l, %g : tensor<f32>, tensor<f32>
}
