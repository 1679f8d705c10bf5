// RUN: ens-opt %s -split-input-file -verify-diagnostics

func.func @pad_negative(%x: tensor<3xf32>) {
  // expected-error @+2 {{padding of dimension 0 must be non-negative, got low -1, high 0, interior 0}}
  // expected-error @+1 {{'ens.pad' op failed to infer returned types}}
  %p = ens.pad %x {low = array<i64: -1>, high = array<i64: 0>, interior = array<i64: 0>} : tensor<3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @pad_lengths(%x: tensor<3xf32>) {
  // expected-error @+2 {{low, high and interior must have one entry per operand dimension (rank 1), got 2, 1 and 1}}
  // expected-error @+1 {{'ens.pad' op failed to infer returned types}}
  %p = ens.pad %x {low = array<i64: 0, 0>, high = array<i64: 0>, interior = array<i64: 0>} : tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// The size wraps around to 2 in 64-bit arithmetic; it must not verify.
func.func @pad_overflow(%x: tensor<3xf32>) {
  // expected-error @+2 {{padding dimension 0 of size 3 with low 0, high 9223372036854775807, interior 4611686018427387904 overflows a 64-bit size}}
  // expected-error @+1 {{'ens.pad' op failed to infer returned types}}
  %p = ens.pad %x {low = array<i64: 0>, high = array<i64: 9223372036854775807>, interior = array<i64: 4611686018427387904>} : tensor<3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @scatter_shape(%u: tensor<3x4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'ens.scatter_add' op updates have shape 3x4 but taking these indices from the result would give 2x4}}
  %s = ens.scatter_add %u, %i {axis = 0 : i64} : tensor<3x4xf32>, tensor<2xi32> -> tensor<5x4xf32>
  return
}

// -----

func.func @scatter_axis(%u: tensor<2x4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{axis 2 is out of range for a tensor of rank 2}}
  %s = ens.scatter_add %u, %i {axis = 2 : i64} : tensor<2x4xf32>, tensor<2xi32> -> tensor<5x4xf32>
  return
}

// -----

func.func @key_shape(%k: tensor<3xi32>) {
  // expected-error @+1 {{'ens.random_uniform' op key must have a last dimension of 2 (two 32-bit words), got shape 3}}
  %u = ens.random_uniform %k : tensor<3xi32> -> tensor<4xf32>
  return
}

// -----

func.func @draw_batch(%k: tensor<3x2xi32>) {
  // expected-error @+1 {{'ens.random_normal' op result shape 4x5 must start with the key batch shape 3}}
  %u = ens.random_normal %k : tensor<3x2xi32> -> tensor<4x5xf32>
  return
}

// -----

func.func @draw_integer(%k: tensor<2xi32>) {
  // expected-error @+1 {{'ens.random_uniform' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'tensor<4xi32>'}}
  %u = ens.random_uniform %k : tensor<2xi32> -> tensor<4xi32>
  return
}

// -----

func.func @split_shape(%k: tensor<2xi32>) {
  // expected-error @+1 {{'ens.random_split' op result shape 4x3 must be the key batch shape, the number of keys, then 2}}
  %s = ens.random_split %k : tensor<2xi32> -> tensor<4x3xi32>
  return
}

// -----

func.func @fold_in_data(%k: tensor<3x2xi32>, %d: tensor<4xi32>) {
  // expected-error @+1 {{'ens.random_fold_in' op data shape 4 must equal the key batch shape 3}}
  %f = ens.random_fold_in %k, %d : tensor<3x2xi32>, tensor<4xi32> -> tensor<3x2xi32>
  return
}

// -----

func.func @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %c = ens.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @wrt_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.value_and_grad' op wrt[0] = 1 is not an argument index (there are 1 arguments)}}
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 1>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

func.func @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %c = ens.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @wrt_twice(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.value_and_grad' op wrt names argument 0 twice}}
  %l, %g, %h = ens.value_and_grad @loss(%x) {wrt = array<i64: 0, 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @loss(%x: tensor<4xi32>) -> tensor<f32> {
  %c = ens.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @wrt_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ens.value_and_grad' op cannot differentiate with respect to argument 0 of integer or boolean type 'tensor<4xi32>'}}
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<4xi32>) -> (tensor<f32>, tensor<4xi32>)
  return
}

// -----

func.func @loss(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @not_scalar(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.value_and_grad' op first result must be the loss, a rank-0 f32 or f64 tensor}}
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @loss(%x: tensor<4xf32>) -> tensor<f64> {
  %c = ens.constant dense<1.0> : tensor<f64>
  return %c : tensor<f64>
}
func.func @loss_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.value_and_grad' op @loss must return the loss 'tensor<f32>' first}}
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}

// -----

func.func @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %c = ens.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @grad_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.value_and_grad' op gradient 0 has type 'tensor<4xf64>' but argument 0 has type 'tensor<4xf32>'}}
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf64>)
  return
}

// -----

func.func @grad_missing_callee(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.value_and_grad' op callee @nope is not a function in this module}}
  %l, %g = ens.value_and_grad @nope(%x) {wrt = array<i64: 0>} : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return
}
