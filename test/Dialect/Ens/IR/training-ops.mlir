// RUN: ens-opt %s | ens-opt | FileCheck %s
// RUN: ens-opt %s --mlir-print-op-generic | ens-opt | FileCheck %s

// CHECK-LABEL: func.func @adjoint_ops
func.func @adjoint_ops(%x: tensor<3x4xf32>, %u: tensor<2x4xf32>, %i: tensor<2xi32>) -> (tensor<6x9xf32>, tensor<5x4xf32>) {
  // CHECK: ens.pad %{{.*}} {high = array<i64: 0, 1>, interior = array<i64: 1, 1>, low = array<i64: 1, 1>} : tensor<3x4xf32> -> tensor<6x9xf32>
  %p = ens.pad %x {low = array<i64: 1, 1>, high = array<i64: 0, 1>, interior = array<i64: 1, 1>} : tensor<3x4xf32> -> tensor<6x9xf32>
  // CHECK: ens.scatter_add %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<2x4xf32>, tensor<2xi32> -> tensor<5x4xf32>
  %s = ens.scatter_add %u, %i {axis = 0 : i64} : tensor<2x4xf32>, tensor<2xi32> -> tensor<5x4xf32>
  return %p, %s : tensor<6x9xf32>, tensor<5x4xf32>
}

// CHECK-LABEL: func.func @random_ops
func.func @random_ops(%key: tensor<2xi32>, %keys: tensor<3x2xi32>, %n: tensor<3xi32>) {
  // CHECK: ens.random_uniform %{{.*}} : tensor<2xi32> -> tensor<4x5xf32>
  %u = ens.random_uniform %key : tensor<2xi32> -> tensor<4x5xf32>
  // CHECK: ens.random_normal %{{.*}} : tensor<3x2xi32> -> tensor<3x7xf64>
  %z = ens.random_normal %keys : tensor<3x2xi32> -> tensor<3x7xf64>
  // CHECK: ens.random_split %{{.*}} : tensor<2xi32> -> tensor<4x2xi32>
  %k = ens.random_split %key : tensor<2xi32> -> tensor<4x2xi32>
  // CHECK: ens.random_fold_in %{{.*}}, %{{.*}} : tensor<3x2xi32>, tensor<3xi32> -> tensor<3x2xi32>
  %f = ens.random_fold_in %keys, %n : tensor<3x2xi32>, tensor<3xi32> -> tensor<3x2xi32>
  return
}

func.func @loss(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<f64> {
  %c = ens.constant dense<1.0> : tensor<f64>
  return %c : tensor<f64>
}
// CHECK-LABEL: func.func @grad
func.func @grad(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<f64>, tensor<4xf32>) {
  // CHECK: ens.value_and_grad @loss(%{{.*}}, %{{.*}}) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f64>, tensor<4xf32>)
  %l, %g = ens.value_and_grad @loss(%x, %i) {wrt = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>) -> (tensor<f64>, tensor<4xf32>)
  return %l, %g : tensor<f64>, tensor<4xf32>
}
