// RUN: ens-opt %s --ens-autodiff --split-input-file | FileCheck %s

// Both adjoints of a strided, padded, dilated convolution are convolutions.
// The input adjoint runs the reversed filters (a take of constant indices),
// their feature roles swapped, over the output adjoint dilated by the
// strides; the filter adjoint runs the output adjoint over the input with
// the batch and feature roles swapped, so that the batch is summed.
func.func @loss(%x: tensor<2x3x9xf32>, %w: tensor<4x3x3xf32>) -> tensor<f32> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, window_strides = array<i64: 2>, padding = array<i64: 1, 0>, rhs_dilation = array<i64: 2>} : tensor<2x3x9xf32>, tensor<4x3x3xf32> -> tensor<2x4x3xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1, 2>} : tensor<2x4x3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<2x3x9xf32>, %w: tensor<4x3x3xf32>) -> (tensor<f32>, tensor<2x3x9xf32>, tensor<4x3x3xf32>) {
  %l, %gx, %gw = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<2x3x9xf32>, tensor<4x3x3xf32>) -> (tensor<f32>, tensor<2x3x9xf32>, tensor<4x3x3xf32>)
  return %l, %gx, %gw : tensor<f32>, tensor<2x3x9xf32>, tensor<4x3x3xf32>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3x9xf32>, %[[W:[^:]*]]: tensor<4x3x3xf32>)
// CHECK:         %[[DY:.*]] = ens.broadcast_in_dim {{.*}} -> tensor<2x4x3xf32>
// CHECK-DAG:     %[[REV:.*]] = ens.constant dense<[2, 1, 0]> : tensor<3xi32>
// CHECK-DAG:     %[[WR:.*]] = ens.take %[[W]], %[[REV]] {axis = 2 : i64}
// CHECK-DAG:     %[[DX:.*]] = ens.conv %[[DY]], %[[WR]] {lhs_dilation = array<i64: 2>, lhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, padding = array<i64: 3, 5>, rhs_dilation = array<i64: 2>, rhs_dims = array<i64: 1, 0, 2>} : tensor<2x4x3xf32>, tensor<4x3x3xf32> -> tensor<2x3x9xf32>
// CHECK-DAG:     %[[DW:.*]] = ens.conv %[[X]], %[[DY]] {lhs_dims = array<i64: 1, 0, 2>, out_dims = array<i64: 1, 0, 2>, padding = array<i64: 1, -1>, rhs_dilation = array<i64: 2>, rhs_dims = array<i64: 1, 0, 2>, window_strides = array<i64: 2>} : tensor<2x3x9xf32>, tensor<2x4x3xf32> -> tensor<4x3x3xf32>

// -----

// With feature groups, the filters' group count moves into their
// input-feature dim for the input adjoint, and the input's into its batch
// dim for the filter adjoint: both adjoints stay grouped convolutions.
func.func @loss(%x: tensor<2x4x5xf64>, %w: tensor<6x2x2xf64>) -> tensor<f64> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, feature_group_count = 2 : i64} : tensor<2x4x5xf64>, tensor<6x2x2xf64> -> tensor<2x6x4xf64>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1, 2>} : tensor<2x6x4xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @grads(%x: tensor<2x4x5xf64>, %w: tensor<6x2x2xf64>) -> (tensor<f64>, tensor<2x4x5xf64>, tensor<6x2x2xf64>) {
  %l, %gx, %gw = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 0, 1>} : (tensor<2x4x5xf64>, tensor<6x2x2xf64>) -> (tensor<f64>, tensor<2x4x5xf64>, tensor<6x2x2xf64>)
  return %l, %gx, %gw : tensor<f64>, tensor<2x4x5xf64>, tensor<6x2x2xf64>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x4x5xf64>, %[[W:[^:]*]]: tensor<6x2x2xf64>)
// CHECK-DAG:     %[[WS:.*]] = ens.reshape %[[W]] : tensor<6x2x2xf64> -> tensor<2x3x2x2xf64>
// CHECK-DAG:     %[[WT:.*]] = ens.transpose %[[WS]] {permutation = array<i64: 1, 0, 2, 3>} : tensor<2x3x2x2xf64> -> tensor<3x2x2x2xf64>
// CHECK-DAG:     %[[WG:.*]] = ens.reshape %[[WT]] : tensor<3x2x2x2xf64> -> tensor<3x4x2xf64>
// CHECK-DAG:     %[[DX:.*]] = ens.conv %{{.*}}, %{{.*}} {feature_group_count = 2 : i64, {{.*}}} : tensor<2x6x4xf64>, tensor<3x4x2xf64> -> tensor<2x4x5xf64>
// CHECK-DAG:     %[[XS:.*]] = ens.reshape %[[X]] : tensor<2x4x5xf64> -> tensor<2x2x2x5xf64>
// CHECK-DAG:     %[[XT:.*]] = ens.transpose %[[XS]] {permutation = array<i64: 1, 0, 2, 3>} : tensor<2x2x2x5xf64> -> tensor<2x2x2x5xf64>
// CHECK-DAG:     %[[XG:.*]] = ens.reshape %[[XT]] : tensor<2x2x2x5xf64> -> tensor<4x2x5xf64>
// CHECK-DAG:     %[[DW:.*]] = ens.conv %[[XG]], %{{.*}} {feature_group_count = 2 : i64, {{.*}}} : tensor<4x2x5xf64>, tensor<2x6x4xf64> -> tensor<6x2x2xf64>

// -----

// Max pooling routes each window's adjoint to its first maximum. Where the
// windows do not tile the operand (here the last element is in none): per
// tap in row-major order, the windows whose maximum is there and not at an
// earlier tap (`remaining`) pass their adjoint, spread back by a pad, all
// in the adjoint sweep: the forward pass runs the pooling alone.
func.func @loss(%x: tensor<5xf64>) -> tensor<f64> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : tensor<5xf64> -> tensor<2xf64>
  %s = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @grads(%x: tensor<5xf64>) -> (tensor<f64>, tensor<5xf64>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<5xf64>) -> (tensor<f64>, tensor<5xf64>)
  return %l, %g : tensor<f64>, tensor<5xf64>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<5xf64>)
// CHECK:         %[[Y:.*]] = ens.reduce_window max, %[[X]]
// CHECK-NEXT:    ens.reduce_sum %[[Y]]
// CHECK:         %[[DY:.*]] = ens.broadcast_in_dim
// CHECK:         %[[ALL:.*]] = ens.constant dense<1.000000e+00> : tensor<2xf64>
// CHECK:         %[[X0:.*]] = ens.slice %[[X]] {limit = array<i64: 3>, start = array<i64: 0>, stride = array<i64: 2>}
// CHECK:         %[[EQ0:.*]] = ens.cmp eq, %[[X0]], %[[Y]]
// CHECK:         %[[M0:.*]] = ens.convert %[[EQ0]]
// CHECK:         %[[R0:.*]] = ens.mul %[[M0]], %[[ALL]]
// CHECK:         %[[LEFT:.*]] = ens.sub %[[ALL]], %[[R0]]
// CHECK:         %[[G0:.*]] = ens.mul %[[DY]], %[[R0]]
// CHECK:         %[[P0:.*]] = ens.pad %[[G0]] {high = array<i64: 2>, interior = array<i64: 1>, low = array<i64: 0>}
// CHECK:         %[[X1:.*]] = ens.slice %[[X]] {limit = array<i64: 4>, start = array<i64: 1>, stride = array<i64: 2>}
// CHECK:         %[[EQ1:.*]] = ens.cmp eq, %[[X1]], %[[Y]]
// CHECK:         %[[M1:.*]] = ens.convert %[[EQ1]]
// CHECK:         %[[R1:.*]] = ens.mul %[[M1]], %[[LEFT]]
// CHECK:         %[[G1:.*]] = ens.mul %[[DY]], %[[R1]]
// CHECK:         %[[P1:.*]] = ens.pad %[[G1]] {high = array<i64: 1>, interior = array<i64: 1>, low = array<i64: 1>}
// CHECK:         %[[DX:.*]] = ens.add %[[P0]], %[[P1]]
// CHECK:         return %{{.*}}, %[[DX]]

// -----

// Where the windows tile the operand (2x2 windows 2 apart on a 4x4 image),
// each window's adjoint goes to the least tap position holding its maximum:
// the positions are 0 1 / 2 3 in each window. That position is found at
// the result's shape, from one strided slice of the operand per tap, the
// taps in reverse so that the least one wins (4 where none holds it), in
// the forward pass right after the pooling, which reads the same taps. In
// the adjoint sweep, the operand is viewed as [2, 2, 2, 2] (row of
// windows, row in the window, column of windows, column in the window),
// and the adjoint goes to the tap at that position, in one pass.
func.func @loss(%x: tensor<4x4xf32>) -> tensor<f32> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : tensor<4x4xf32> -> tensor<2x2xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1>} : tensor<2x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<4x4xf32>) -> (tensor<f32>, tensor<4x4xf32>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<4x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  return %l, %g : tensor<f32>, tensor<4x4xf32>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<4x4xf32>)
// CHECK:         %[[Y:.*]] = ens.reduce_window max, %[[X]]
// CHECK-NEXT:    %[[NONE:.*]] = ens.constant dense<4.000000e+00> : tensor<2x2xf32>
// CHECK:         %[[X3:.*]] = ens.slice %[[X]] {limit = array<i64: 4, 4>, start = array<i64: 1, 1>, stride = array<i64: 2, 2>}
// CHECK:         %[[EQ3:.*]] = ens.cmp eq, %[[X3]], %[[Y]]
// CHECK:         %[[T3:.*]] = ens.constant dense<3.000000e+00> : tensor<2x2xf32>
// CHECK:         %[[F3:.*]] = ens.select %[[EQ3]], %[[T3]], %[[NONE]]
// CHECK:         %[[X2:.*]] = ens.slice %[[X]] {limit = array<i64: 4, 3>, start = array<i64: 1, 0>, stride = array<i64: 2, 2>}
// CHECK:         %[[EQ2:.*]] = ens.cmp eq, %[[X2]], %[[Y]]
// CHECK:         %[[F2:.*]] = ens.select %[[EQ2]], %{{.*}}, %[[F3]]
// CHECK:         %[[X1:.*]] = ens.slice %[[X]] {limit = array<i64: 3, 4>, start = array<i64: 0, 1>, stride = array<i64: 2, 2>}
// CHECK:         %[[EQ1:.*]] = ens.cmp eq, %[[X1]], %[[Y]]
// CHECK:         %[[F1:.*]] = ens.select %[[EQ1]], %{{.*}}, %[[F2]]
// CHECK:         %[[X0:.*]] = ens.slice %[[X]] {limit = array<i64: 3, 3>, start = array<i64: 0, 0>, stride = array<i64: 2, 2>}
// CHECK:         %[[EQ0:.*]] = ens.cmp eq, %[[X0]], %[[Y]]
// CHECK:         %[[T0:.*]] = ens.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK:         %[[FIRST:.*]] = ens.select %[[EQ0]], %[[T0]], %[[F1]]
// CHECK-NEXT:    ens.reduce_sum %[[Y]]
// CHECK:         %[[DY:.*]] = ens.broadcast_in_dim
// CHECK:         %[[TAPS:.*]] = ens.constant dense<{{\[}}[0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>
// CHECK:         %[[POS:.*]] = ens.broadcast_in_dim %[[TAPS]] {dims = array<i64: 1, 3>} : tensor<2x2xf32> -> tensor<2x2x2x2xf32>
// CHECK-NOT:     ens.reduce_max
// CHECK:         %[[FT:.*]] = ens.broadcast_in_dim %[[FIRST]] {dims = array<i64: 0, 2>}
// CHECK:         %[[AT:.*]] = ens.cmp eq, %[[POS]], %[[FT]]
// CHECK:         %[[GT:.*]] = ens.broadcast_in_dim %[[DY]] {dims = array<i64: 0, 2>}
// CHECK:         %[[ROUTED:.*]] = ens.select %[[AT]], %[[GT]], %{{.*}}
// CHECK:         %[[DX:.*]] = ens.reshape %[[ROUTED]] : tensor<2x2x2x2xf32> -> tensor<4x4xf32>
// CHECK:         return %{{.*}}, %[[DX]]

// -----

// Sum pooling: the adjoint spread `stride` apart, then summed over
// windows of stride 1 with `window - 1` zeros before.
func.func @loss(%x: tensor<5xf64>) -> tensor<f64> {
  %y = ens.reduce_window add, %x {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>} : tensor<5xf64> -> tensor<2xf64>
  %s = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @grads(%x: tensor<5xf64>) -> (tensor<f64>, tensor<5xf64>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<5xf64>) -> (tensor<f64>, tensor<5xf64>)
  return %l, %g : tensor<f64>, tensor<5xf64>
}
// CHECK-LABEL: func.func private @loss_grad(
// CHECK:         %[[DY:.*]] = ens.broadcast_in_dim {{.*}} -> tensor<2xf64>
// CHECK:         %[[S:.*]] = ens.pad %[[DY]] {high = array<i64: 2>, interior = array<i64: 1>, low = array<i64: 0>} : tensor<2xf64> -> tensor<5xf64>
// CHECK:         %[[DX:.*]] = ens.reduce_window add, %[[S]] {padding = array<i64: 2, 0>, window_dimensions = array<i64: 3>} : tensor<5xf64> -> tensor<5xf64>
// CHECK:         return %{{.*}}, %[[DX]]
