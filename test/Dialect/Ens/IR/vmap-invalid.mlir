// RUN: ens-opt %s -split-input-file -verify-diagnostics

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op has 2 in_axes for 1 arguments}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op has 0 out_axes for 1 results}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op in_axes[0] = 2 is out of range for argument 0 of rank 2 (use -1 for a shared argument)}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 2>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op in_axes[0] = -2 is out of range for argument 0 of rank 2}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: -2>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>, %y: tensor<3x5xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op argument 1 has size 5 along its batch axis 1 but size is 4}}
  %r = ens.vmap @f(%x, %y) {in_axes = array<i64: 0, 1>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'ens.vmap' op out_axes[0] = 2 is out of range for result 0 of rank 2}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 2>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'ens.vmap' op result 0 has size 5 along its batch axis 0 but size is 4}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3xf32>) -> tensor<0x3xf32> {
  // expected-error @+1 {{'ens.vmap' op size must be at least 1, got 0}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: -1>, out_axes = array<i64: 0>, size = 0 : i64} : (tensor<3xf32>) -> tensor<0x3xf32>
  return %y : tensor<0x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<0xf32> {
  %y = ens.slice %x {start = array<i64: 0>, limit = array<i64: 0>, stride = array<i64: 1>} : tensor<3xf32> -> tensor<0xf32>
  return %y : tensor<0xf32>
}
func.func @g(%x: tensor<3xf32>) -> tensor<4294967297x0xf32> {
  // expected-error @+1 {{'ens.vmap' op size must be at most 2147483647 (member indices are i32), got 4294967297}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: -1>, out_axes = array<i64: 0>, size = 4294967297 : i64} : (tensor<3xf32>) -> tensor<4294967297x0xf32>
  return %y : tensor<4294967297x0xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op randomness must be "different" or "same", got "other"}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64, randomness = "other"} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op callee @missing is not a function in this module}}
  %y = ens.vmap @missing(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op passes 1 arguments to @f, which takes 2}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  return %x, %x : tensor<3xf32>, tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.vmap' op has 1 results but @f returns 2}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<3x4xf32>) -> tensor<4x3xf32> {
  // A shared argument must match the callee exactly.
  // expected-error @+1 {{'ens.vmap' op argument 0 gives each member 'tensor<3x4xf32>' but @f takes 'tensor<3xf32>'}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: -1>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @g(%x: tensor<4x3xf32>) -> tensor<4x3xf64> {
  // expected-error @+1 {{'ens.vmap' op result 0 holds 'tensor<3xf64>' per member but @f returns 'tensor<3xf32>'}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf64>
  return %y : tensor<4x3xf64>
}
