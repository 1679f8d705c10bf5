// RUN: ens-opt %s --ens-autodiff --split-input-file | FileCheck %s

// The adjoint of an einsum is an einsum per operand: the output adjoint
// contracted with the other operand, no transposes.
func.func @loss(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<f32> {
  %y = ens.einsum %x, %w {spec = "bi,io->bo"} : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1>} : tensor<4x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>) {
  %l, %gx, %gw = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<4x3xf32>, tensor<3x2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>)
  return %l, %gx, %gw : tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<4x3xf32>, %[[W:[^:]*]]: tensor<3x2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>)
// CHECK:         %[[Y:.*]] = ens.einsum %[[X]], %[[W]] {spec = "bi,io->bo"}
// CHECK:         %[[L:.*]] = ens.reduce_sum %[[Y]]
// CHECK:         %[[ONE:.*]] = ens.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[DY:.*]] = ens.broadcast_in_dim %[[ONE]] {dims = array<i64>} : tensor<f32> -> tensor<4x2xf32>
// CHECK-DAG:     %[[DX:.*]] = ens.einsum %[[DY]], %[[W]] {spec = "bo,io->bi"} : tensor<4x2xf32>, tensor<3x2xf32> -> tensor<4x3xf32>
// CHECK-DAG:     %[[DW:.*]] = ens.einsum %[[X]], %[[DY]] {spec = "bi,bo->io"} : tensor<4x3xf32>, tensor<4x2xf32> -> tensor<3x2xf32>
// CHECK:         return %[[L]], %[[DX]], %[[DW]]
// CHECK-NOT:     ens.transpose
// CHECK-LABEL: func.func @grads
// CHECK-NEXT:    call @loss_grad(%arg0, %arg1)

// -----

// A label summed in one operand only: its adjoint is contracted without
// that label and broadcast back over it.
func.func @loss(%x: tensor<4x3xf32>, %w: tensor<5xf32>) -> tensor<f32> {
  %y = ens.einsum %x, %w {spec = "ij,k->k"} : tensor<4x3xf32>, tensor<5xf32> -> tensor<5xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<5xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<4x3xf32>, %w: tensor<5xf32>) -> (tensor<f32>, tensor<4x3xf32>) {
  %l, %gx = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 0>} : (tensor<4x3xf32>, tensor<5xf32>) -> (tensor<f32>, tensor<4x3xf32>)
  return %l, %gx : tensor<f32>, tensor<4x3xf32>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK:         %[[C:.*]] = ens.einsum %{{.*}}, %arg1 {spec = "k,k->"} : tensor<5xf32>, tensor<5xf32> -> tensor<f32>
// CHECK:         ens.broadcast_in_dim %[[C]] {dims = array<i64>} : tensor<f32> -> tensor<4x3xf32>

// -----

// tensordot's adjoints are einsums in its einsum form.
func.func @predict(%x: tensor<3x2xf32>, %w: tensor<3x2x1xf32>) -> tensor<f32> {
  %y = ens.tensordot %x, %w {lhs_dims = array<i64: 0, 1>, rhs_dims = array<i64: 0, 1>} : tensor<3x2xf32>, tensor<3x2x1xf32> -> tensor<1xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<1xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<3x2xf32>, %w: tensor<3x2x1xf32>) -> (tensor<f32>, tensor<3x2xf32>, tensor<3x2x1xf32>) {
  %l, %gx, %gw = ens.value_and_grad @predict(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<3x2xf32>, tensor<3x2x1xf32>) -> (tensor<f32>, tensor<3x2xf32>, tensor<3x2x1xf32>)
  return %l, %gx, %gw : tensor<f32>, tensor<3x2xf32>, tensor<3x2x1xf32>
}
// CHECK-LABEL: func.func private @predict_grad(
// CHECK:         ens.tensordot %arg0, %arg1
// CHECK:         %[[DY:.*]] = ens.broadcast_in_dim %{{.*}} : tensor<f32> -> tensor<1xf32>
// CHECK-DAG:     %[[DX:.*]] = ens.einsum %[[DY]], %arg1 {spec = "e,abe->ab"} : tensor<1xf32>, tensor<3x2x1xf32> -> tensor<3x2xf32>
// CHECK-DAG:     %[[DW:.*]] = ens.einsum %arg0, %[[DY]] {spec = "ab,e->abe"} : tensor<3x2xf32>, tensor<1xf32> -> tensor<3x2x1xf32>
// CHECK:         return %{{.*}}, %[[DX]], %[[DW]]

// -----

// A value used twice: the adjoints of its uses are summed.
func.func @loss(%x: tensor<3xf32>) -> tensor<f32> {
  %y = ens.mul %x, %x : tensor<3xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
  return %l, %g : tensor<f32>, tensor<3xf32>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK:         %[[DY:.*]] = ens.broadcast_in_dim %{{.*}} : tensor<f32> -> tensor<3xf32>
// CHECK:         %[[A:.*]] = ens.mul %[[DY]], %arg0 : tensor<3xf32>
// CHECK:         %[[B:.*]] = ens.mul %[[DY]], %arg0 : tensor<3xf32>
// CHECK:         %[[SUM:.*]] = ens.add %[[A]], %[[B]] : tensor<3xf32>
// CHECK:         return %{{.*}}, %[[SUM]]
