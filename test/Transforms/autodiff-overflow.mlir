// RUN: ens-opt %s --ens-autodiff | FileCheck %s

// The adjoint of reduce_mean scales by 1 / count; a count of 2^64 elements
// overflows int64 (to 0, giving inf) but not double.
func.func @loss(%x: tensor<4294967296x4294967296xf32>) -> tensor<f32> {
  %m = ens.reduce_mean %x {dims = array<i64: 0, 1>} : tensor<4294967296x4294967296xf32> -> tensor<f32>
  return %m : tensor<f32>
}
func.func @grads(%x: tensor<4294967296x4294967296xf32>) -> (tensor<f32>, tensor<4294967296x4294967296xf32>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<4294967296x4294967296xf32>) -> (tensor<f32>, tensor<4294967296x4294967296xf32>)
  return %l, %g : tensor<f32>, tensor<4294967296x4294967296xf32>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK:         ens.constant dense<5.42101086E-20> : tensor<f32>
// CHECK-NOT:     0x7F800000
