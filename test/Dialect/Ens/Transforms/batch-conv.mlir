// RUN: ens-opt %s --ens-batch --split-input-file | FileCheck %s

// A batched input with shared filters: the members join the batch,
// member-major, and the filters are read as they are.
func.func @member(%x: tensor<2x3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x6xf32> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>} : tensor<2x3x8xf32>, tensor<4x3x3xf32> -> tensor<2x4x6xf32>
  return %y : tensor<2x4x6xf32>
}
func.func @input_batched(%x: tensor<5x2x3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<5x2x4x6xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 5 : i64} : (tensor<5x2x3x8xf32>, tensor<4x3x3xf32>) -> tensor<5x2x4x6xf32>
  return %y : tensor<5x2x4x6xf32>
}
// CHECK-LABEL: func.func private @member_vmap
// CHECK-SAME:    (%[[X:.*]]: tensor<5x2x3x8xf32>, %[[W:.*]]: tensor<4x3x3xf32>)
// CHECK-NEXT:    %[[XB:.*]] = ens.reshape %[[X]] : tensor<5x2x3x8xf32> -> tensor<10x3x8xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.conv %[[XB]], %[[W]] {{.*}} : tensor<10x3x8xf32>, tensor<4x3x3xf32> -> tensor<10x4x6xf32>
// CHECK-NEXT:    %[[R:.*]] = ens.reshape %[[Y]] : tensor<10x4x6xf32> -> tensor<5x2x4x6xf32>
// CHECK-NEXT:    return %[[R]]

// -----

// Each member its own input and filters: one convolution with a feature
// group per member and group (the grouped-convolution trick), member-major.
func.func @member(%x: tensor<2x4x8xf32>, %w: tensor<6x2x3xf32>) -> tensor<2x6x6xf32> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, feature_group_count = 2 : i64} : tensor<2x4x8xf32>, tensor<6x2x3xf32> -> tensor<2x6x6xf32>
  return %y : tensor<2x6x6xf32>
}
func.func @both_batched(%x: tensor<5x2x4x8xf32>, %w: tensor<5x6x2x3xf32>) -> tensor<5x2x6x6xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>, size = 5 : i64} : (tensor<5x2x4x8xf32>, tensor<5x6x2x3xf32>) -> tensor<5x2x6x6xf32>
  return %y : tensor<5x2x6x6xf32>
}
// CHECK-LABEL: func.func private @member_vmap
// CHECK-SAME:    (%[[X:.*]]: tensor<5x2x4x8xf32>, %[[W:.*]]: tensor<5x6x2x3xf32>)
// CHECK-NEXT:    %[[XT:.*]] = ens.transpose %[[X]] {permutation = array<i64: 1, 0, 2, 3>} : tensor<5x2x4x8xf32> -> tensor<2x5x4x8xf32>
// CHECK-NEXT:    %[[XG:.*]] = ens.reshape %[[XT]] : tensor<2x5x4x8xf32> -> tensor<2x20x8xf32>
// CHECK-NEXT:    %[[WG:.*]] = ens.reshape %[[W]] : tensor<5x6x2x3xf32> -> tensor<30x2x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.conv %[[XG]], %[[WG]] {feature_group_count = 10 : i64, {{.*}}} : tensor<2x20x8xf32>, tensor<30x2x3xf32> -> tensor<2x30x6xf32>
// CHECK-NEXT:    %[[YS:.*]] = ens.reshape %[[Y]] : tensor<2x30x6xf32> -> tensor<2x5x6x6xf32>
// CHECK-NEXT:    return %[[YS]]

// -----

// A shared input with each member's filters: the members' filters join the
// output features of each group, so the input is read once and never
// broadcast.
func.func @member(%x: tensor<2x4x8xf32>, %w: tensor<6x2x3xf32>) -> tensor<2x6x6xf32> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, feature_group_count = 2 : i64} : tensor<2x4x8xf32>, tensor<6x2x3xf32> -> tensor<2x6x6xf32>
  return %y : tensor<2x6x6xf32>
}
func.func @filters_batched(%x: tensor<2x4x8xf32>, %w: tensor<5x6x2x3xf32>) -> tensor<5x2x6x6xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 5 : i64} : (tensor<2x4x8xf32>, tensor<5x6x2x3xf32>) -> tensor<5x2x6x6xf32>
  return %y : tensor<5x2x6x6xf32>
}
// CHECK-LABEL: func.func private @member_vmap
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4x8xf32>, %[[W:.*]]: tensor<5x6x2x3xf32>)
// CHECK-NOT:     ens.broadcast_in_dim
// CHECK:         %[[Y:.*]] = ens.conv %[[X]], %{{.*}} {feature_group_count = 2 : i64, {{.*}}} : tensor<2x4x8xf32>, tensor<30x2x3xf32> -> tensor<2x30x6xf32>
// CHECK-NOT:     ens.broadcast_in_dim
// CHECK:         return

// -----

// Pooling: the member axis gets a window of one, where it is; no reshape
// or transpose.
func.func @member(%x: tensor<3x8x8xf32>) -> tensor<3x4x4xf32> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 1, 2, 2>, window_strides = array<i64: 1, 2, 2>} : tensor<3x8x8xf32> -> tensor<3x4x4xf32>
  return %y : tensor<3x4x4xf32>
}
func.func @pool_batched(%x: tensor<3x5x8x8xf32>) -> tensor<3x5x4x4xf32> {
  %y = ens.vmap @member(%x) {in_axes = array<i64: 1>, out_axes = array<i64: 1>, size = 5 : i64} : (tensor<3x5x8x8xf32>) -> tensor<3x5x4x4xf32>
  return %y : tensor<3x5x4x4xf32>
}
// CHECK-LABEL: func.func private @member_vmap
// CHECK-SAME:    (%[[X:.*]]: tensor<3x5x8x8xf32>)
// CHECK-NEXT:    %[[Y:.*]] = ens.reduce_window max, %[[X]] {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<3x5x8x8xf32> -> tensor<3x5x4x4xf32>
// CHECK-NEXT:    return %[[Y]]
