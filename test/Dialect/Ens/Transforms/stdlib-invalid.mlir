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
