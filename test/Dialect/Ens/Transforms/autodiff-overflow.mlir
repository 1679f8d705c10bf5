// RUN: ens-opt %s --ens-autodiff | FileCheck %s
// RUN: printf 'func.func @f(%%%%x: tensor<4294967296x4294967296xf32>) -> tensor<f32> {\n %%%%m = ens.reduce_mean %%%%x {dims = array<i64: 0, 1>} : tensor<4294967296x4294967296xf32> -> tensor<f32>\n return %%%%m : tensor<f32>\n}\n' | not ens-opt --ens-autodiff 2>&1 | FileCheck %s --check-prefix=OVERFLOW

// The adjoint of reduce_mean scales by 1 / count, computed in double: at
// 2^60 elements, the largest f32 tensor whose byte size fits in 64 bits
// with a power-of-two count, it is 2^-60 exactly.
func.func @loss(%x: tensor<1073741824x1073741824xf32>) -> tensor<f32> {
  %m = ens.reduce_mean %x {dims = array<i64: 0, 1>} : tensor<1073741824x1073741824xf32> -> tensor<f32>
  return %m : tensor<f32>
}
func.func @grads(%x: tensor<1073741824x1073741824xf32>) -> (tensor<f32>, tensor<1073741824x1073741824xf32>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<1073741824x1073741824xf32>) -> (tensor<f32>, tensor<1073741824x1073741824xf32>)
  return %l, %g : tensor<f32>, tensor<1073741824x1073741824xf32>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK:         ens.constant dense<8.67361737E-19> : tensor<f32>
// CHECK-NOT:     0x7F800000

// A count of 2^64 elements, which once overflowed int64 to 0 (giving inf),
// is no longer a valid type: its size is refused when it is read.
// OVERFLOW: error: 'ens.reduce_mean' op operand 0: tensor<4294967296x4294967296xf32> has shape 4294967296x4294967296, whose element count overflows 64 bits
