// RUN: ens-opt %s --ens-batch --split-input-file | FileCheck %s

// A call chain: each callee is batched once for its argument axes, and the
// generated functions call each other.
func.func @leaf(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = ens.tanh %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @middle(%x: tensor<3xf32>, %s: tensor<3xf32>) -> tensor<3xf32> {
  %y = call @leaf(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %z = ens.mul %y, %s : tensor<3xf32>
  return %z : tensor<3xf32>
}
func.func @chain(%x: tensor<4x3xf32>, %s: tensor<3xf32>) -> tensor<4x3xf32> {
  %y = ens.vmap @middle(%x, %s) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
// CHECK-LABEL: func.func private @leaf_vmap(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    ens.tanh %arg0 : tensor<4x3xf32>
// CHECK-LABEL: func.func private @middle_vmap(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>)
// CHECK-NEXT:    %[[Y:.*]] = call @leaf_vmap(%arg0)
// The shared scale meets a batched value in an elementwise op: broadcast.
// CHECK-NEXT:    %[[S:.*]] = ens.broadcast_in_dim %arg1 {dims = array<i64: 1>} : tensor<3xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    ens.mul %[[Y]], %[[S]] : tensor<4x3xf32>
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    call @middle_vmap(%arg0, %arg1)

// -----

// Two vmaps with the same callee, axes and size share one function; a
// different out_axes only changes the code at the vmap.
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = ens.exp %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @twice(%x: tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3x5xf32>) {
  %a = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 5 : i64} : (tensor<5x3xf32>) -> tensor<5x3xf32>
  %b = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 1>, size = 5 : i64} : (tensor<5x3xf32>) -> tensor<3x5xf32>
  return %a, %b : tensor<5x3xf32>, tensor<3x5xf32>
}
// CHECK-LABEL: func.func private @f_vmap(
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @twice
// CHECK-NEXT:    %[[A:.*]] = call @f_vmap(%arg0)
// CHECK-NEXT:    %[[B:.*]] = call @f_vmap(%arg0)
// CHECK-NEXT:    %[[T:.*]] = ens.transpose %[[B]] {permutation = array<i64: 1, 0>}
// CHECK-NEXT:    return %[[A]], %[[T]]

// -----

// A result that no member changes is broadcast at the vmap.
func.func @constant_result(%x: tensor<3xf32>) -> tensor<2xf32> {
  %c = ens.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
func.func @shared_result(%x: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %y = ens.vmap @constant_result(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 1>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
// CHECK-LABEL: func.func private @constant_result_vmap(%arg0: tensor<4x3xf32>) -> tensor<2xf32>
// CHECK-LABEL: func.func @shared_result
// CHECK-NEXT:    %[[C:.*]] = call @constant_result_vmap(%arg0)
// CHECK-NEXT:    ens.broadcast_in_dim %[[C]] {dims = array<i64: 0>} : tensor<2xf32> -> tensor<2x4xf32>

// -----

// Nested vmap, members outside and examples inside: the inner vmap is
// lowered first, then its batched function is batched again over members.
func.func @example(%x: tensor<3xf32>, %w: tensor<3x2xf32>) -> tensor<2xf32> {
  %y = ens.matmul %x, %w : tensor<3xf32>, tensor<3x2xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @member(%xs: tensor<5x3xf32>, %w: tensor<3x2xf32>) -> tensor<5x2xf32> {
  %y = ens.vmap @example(%xs, %w) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 5 : i64} : (tensor<5x3xf32>, tensor<3x2xf32>) -> tensor<5x2xf32>
  return %y : tensor<5x2xf32>
}
func.func @ensemble(%xs: tensor<5x3xf32>, %ws: tensor<8x3x2xf32>) -> tensor<8x5x2xf32> {
  %y = ens.vmap @member(%xs, %ws) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64} : (tensor<5x3xf32>, tensor<8x3x2xf32>) -> tensor<8x5x2xf32>
  return %y : tensor<8x5x2xf32>
}
// CHECK-LABEL: func.func private @example_vmap(%arg0: tensor<5x3xf32>, %arg1: tensor<3x2xf32>) -> tensor<5x2xf32>
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "ab,bc->ac"}
// CHECK-LABEL: func.func private @example_vmap_vmap(%arg0: tensor<5x3xf32>, %arg1: tensor<8x3x2xf32>) -> tensor<8x5x2xf32>
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "ab,dbc->dac"}
// CHECK-LABEL: func.func @member
// CHECK-NEXT:    call @example_vmap(%arg0, %arg1)
// CHECK-LABEL: func.func private @member_vmap
// CHECK-NEXT:    call @example_vmap_vmap(%arg0, %arg1)
// CHECK-LABEL: func.func @ensemble
// CHECK-NEXT:    call @member_vmap(%arg0, %arg1)
// CHECK-NOT:   ens.vmap

// -----

// Nested the other way: examples outside, members inside.
func.func @example(%x: tensor<3xf32>, %w: tensor<3x2xf32>) -> tensor<2xf32> {
  %y = ens.matmul %x, %w : tensor<3xf32>, tensor<3x2xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @all_members(%x: tensor<3xf32>, %ws: tensor<8x3x2xf32>) -> tensor<8x2xf32> {
  %y = ens.vmap @example(%x, %ws) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64} : (tensor<3xf32>, tensor<8x3x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}
func.func @batch(%xs: tensor<5x3xf32>, %ws: tensor<8x3x2xf32>) -> tensor<8x5x2xf32> {
  %y = ens.vmap @all_members(%xs, %ws) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 1>, size = 5 : i64} : (tensor<5x3xf32>, tensor<8x3x2xf32>) -> tensor<8x5x2xf32>
  return %y : tensor<8x5x2xf32>
}
// CHECK-LABEL: func.func private @example_vmap_vmap(%arg0: tensor<5x3xf32>, %arg1: tensor<8x3x2xf32>) -> tensor<5x8x2xf32>
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "db,abc->dac"}
// CHECK-LABEL: func.func @batch
// CHECK-NEXT:    %[[Y:.*]] = call @all_members_vmap(%arg0, %arg1)
// CHECK-NEXT:    ens.transpose %[[Y]] {permutation = array<i64: 1, 0, 2>} : tensor<5x8x2xf32> -> tensor<8x5x2xf32>
// CHECK-NOT:   ens.vmap
