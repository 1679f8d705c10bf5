// RUN: ens-opt %s --ens-batch -split-input-file -verify-diagnostics

// Recursion through a vmap: batching @f over members needs @g batched,
// which vmaps @f again.
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'func.call' op transforms @g recursively, which ens cannot do}}
  %y = call @g(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = ens.vmap @f(%x) {in_axes = array<i64: -1>, out_axes = array<i64: 0>, size = 1 : i64} : (tensor<3xf32>) -> tensor<1x3xf32>
  %z = ens.reshape %y : tensor<1x3xf32> -> tensor<3xf32>
  return %z : tensor<3xf32>
}
func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// Recursion through a call.
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'func.call' op transforms @f recursively, which ens cannot do}}
  %y = call @f(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func private @external(%x: tensor<3xf32>) -> tensor<3xf32>
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op cannot transform @external, which has no body}}
  %y = ens.vmap @external(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
