// RUN: ens-opt %s --ens-stdlib -split-input-file -verify-diagnostics

// expected-error @+1 {{'func.func' op names 'nope', which is not in the standard library (adam, batch_norm, batch_norm_inference, dropout, kaiming_uniform, layer_norm, mse, sgd_momentum, softmax_cross_entropy, xavier_uniform)}}
func.func private @f(tensor<4xf32>) -> tensor<f32> attributes {ens.stdlib = "nope"}

// -----

// expected-error @+1 {{'func.func' op has type '(tensor<4xf32>) -> tensor<f32>', but 'mse' for !T = 'tensor<4xf32>' has type '(tensor<4xf32>, tensor<4xf32>) -> tensor<f32>'}}
func.func private @f(tensor<4xf32>) -> tensor<f32> attributes {ens.stdlib = "mse"}

// -----

// expected-error @+1 {{'func.func' op cannot instantiate 'mse' for !T = 'tensor<4xi32>':}}
func.func private @f(tensor<4xi32>, tensor<4xi32>) -> tensor<i32> attributes {ens.stdlib = "mse"}

// -----

// expected-error @+1 {{'func.func' op has a body, but ens.stdlib is for declarations}}
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> attributes {ens.stdlib = "mse"} {
  %c = ens.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// expected-error @+1 {{'func.func' op does not have the tensor the library function is generic in}}
func.func private @f() -> () attributes {ens.stdlib = "xavier_uniform"}

// -----

// A call's `?` sizes must be resolved (ens-specialize) before the library
// function can be instantiated.
func.func @f(%y: tensor<?x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'ens.stdlib_call' op calls 'mse' at '(tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<f32>', which has a `?` size; give the program concrete argument types first (ens-specialize)}}
  %l = ens.stdlib_call "mse"(%y, %y) : tensor<?x3xf32>
  return %l : tensor<f32>
}

// -----

// The library function does not instantiate at this !T: its body's ops
// refuse it, reported at the call as for a declaration.
func.func @f(%x: tensor<3xf32>, %l: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'func.func' op cannot instantiate 'softmax_cross_entropy' for !T = 'tensor<3xf32>':}}
  %y = ens.stdlib_call "softmax_cross_entropy"(%x, %l) : tensor<3xf32>
  return %y : tensor<f32>
}
