// RUN: ens-opt %s --ens-batch --split-input-file | FileCheck %s

// A broadcast keeps the batch where it is: it goes right after the result
// dim that the operand's dim before it maps to, so a value batched in its
// second dim is broadcast without a transpose.
func.func @spread(%x: tensor<3xf32>) -> tensor<3x2xf32> {
  %y = ens.broadcast_in_dim %x {dims = array<i64: 0>} : tensor<3xf32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}
func.func @broadcast_inner(%x: tensor<3x4xf32>) -> tensor<3x4x2xf32> {
  %y = ens.vmap @spread(%x) {in_axes = array<i64: 1>, out_axes = array<i64: 1>, size = 4 : i64} : (tensor<3x4xf32>) -> tensor<3x4x2xf32>
  return %y : tensor<3x4x2xf32>
}
// CHECK-LABEL: func.func private @spread_vmap(%arg0: tensor<3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.broadcast_in_dim %arg0 {dims = array<i64: 0, 1>} : tensor<3x4xf32> -> tensor<3x4x2xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @broadcast_inner
// CHECK-NOT:     ens.transpose

// -----

// A broadcast that inserts dims before and after the operand's: the batch
// follows the operand's dim before it (result dim 1, so it lands at 2).
func.func @around(%x: tensor<3xf32>) -> tensor<2x3x5xf32> {
  %y = ens.broadcast_in_dim %x {dims = array<i64: 1>} : tensor<3xf32> -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}
func.func @broadcast_around(%x: tensor<3x4xf32>) -> tensor<2x3x4x5xf32> {
  %y = ens.vmap @around(%x) {in_axes = array<i64: 1>, out_axes = array<i64: 2>, size = 4 : i64} : (tensor<3x4xf32>) -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}
// CHECK-LABEL: func.func private @around_vmap(%arg0: tensor<3x4xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.broadcast_in_dim %arg0 {dims = array<i64: 1, 2>} : tensor<3x4xf32> -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @broadcast_around
// CHECK-NOT:     ens.transpose

// -----

// A reshape keeps the batch where it is when the member's dims before it
// (2) hold as many elements as some leading result dims (2): it merges the
// dims after the batch only.
func.func @flatten(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %y = ens.reshape %x : tensor<2x3x4xf32> -> tensor<2x12xf32>
  return %y : tensor<2x12xf32>
}
func.func @reshape_keeps(%x: tensor<2x5x3x4xf32>) -> tensor<2x5x12xf32> {
  %y = ens.vmap @flatten(%x) {in_axes = array<i64: 1>, out_axes = array<i64: 1>, size = 5 : i64} : (tensor<2x5x3x4xf32>) -> tensor<2x5x12xf32>
  return %y : tensor<2x5x12xf32>
}
// CHECK-LABEL: func.func private @flatten_vmap(%arg0: tensor<2x5x3x4xf32>) -> tensor<2x5x12xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.reshape %arg0 : tensor<2x5x3x4xf32> -> tensor<2x5x12xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @reshape_keeps
// CHECK-NOT:     ens.transpose

// -----

// A reshape that would mix dims across the batch (2 elements before it,
// but the result's first dim holds 3) moves the batch to the front first.
func.func @regroup(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %y = ens.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}
func.func @reshape_moves(%x: tensor<2x5x3xf32>) -> tensor<5x3x2xf32> {
  %y = ens.vmap @regroup(%x) {in_axes = array<i64: 1>, out_axes = array<i64: 0>, size = 5 : i64} : (tensor<2x5x3xf32>) -> tensor<5x3x2xf32>
  return %y : tensor<5x3x2xf32>
}
// CHECK-LABEL: func.func private @regroup_vmap(%arg0: tensor<2x5x3xf32>) -> tensor<5x3x2xf32>
// CHECK-NEXT:    %[[T:.*]] = ens.transpose %arg0 {permutation = array<i64: 1, 0, 2>} : tensor<2x5x3xf32> -> tensor<5x2x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.reshape %[[T]] : tensor<5x2x3xf32> -> tensor<5x3x2xf32>
// CHECK-NEXT:    return %[[Y]]

// -----

// A broadcast whose batch must move to meet another operand's (a bias,
// batched first, added to a convolution's result, batched second) is
// broadcast again in the new order rather than transposed: a transpose
// would write every broadcast element. The batch moves from result dim 0
// to 1, so the operand's dims (batch, 4, 3) map to 1, 0 and 2.
func.func @bias(%x: tensor<4x3x2xf32>, %p: tensor<4x3xf32>) -> tensor<4x3x2xf32> {
  %b = ens.broadcast_in_dim %p {dims = array<i64: 0, 1>} : tensor<4x3xf32> -> tensor<4x3x2xf32>
  %y = ens.add %x, %b : tensor<4x3x2xf32>
  return %y : tensor<4x3x2xf32>
}
func.func @bias_moves(%x: tensor<4x5x3x2xf32>, %p: tensor<5x4x3xf32>) -> tensor<4x5x3x2xf32> {
  %y = ens.vmap @bias(%x, %p) {in_axes = array<i64: 1, 0>, out_axes = array<i64: 1>, size = 5 : i64} : (tensor<4x5x3x2xf32>, tensor<5x4x3xf32>) -> tensor<4x5x3x2xf32>
  return %y : tensor<4x5x3x2xf32>
}
// CHECK-LABEL: func.func private @bias_vmap(%arg0: tensor<4x5x3x2xf32>, %arg1: tensor<5x4x3xf32>) -> tensor<4x5x3x2xf32>
// CHECK:         %[[B:.*]] = ens.broadcast_in_dim %arg1 {dims = array<i64: 1, 0, 2>} : tensor<5x4x3xf32> -> tensor<4x5x3x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.add %arg0, %[[B]] : tensor<4x5x3x2xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-NOT:     ens.transpose
