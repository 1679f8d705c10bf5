// RUN: ens-opt %s -split-input-file -verify-diagnostics
//
// Each way an ens.stdlib_call can be wrong, in the generic form (which the
// verifier checks) and in the custom form (which the parser checks first,
// as it takes the operand types from the library's signature).

func.func @f(%y: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'ens.stdlib_call' op names 'msq', which is not in the standard library (adam, batch_norm, batch_norm_inference, dropout, kaiming_uniform, layer_norm, mse, sgd_momentum, softmax_cross_entropy, xavier_uniform)}}
  %l = "ens.stdlib_call"(%y, %y) {function = "msq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @f(%y: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{names 'msq', which is not in the standard library}}
  %l = ens.stdlib_call "msq"(%y, %y) : tensor<4xf32>
  return %l : tensor<f32>
}

// -----

// Arity.
func.func @f(%y: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'ens.stdlib_call' op calls 'mse' with 1 operands and 1 results, but it takes 2 operands and gives 1 results}}
  %l = "ens.stdlib_call"(%y) {function = "mse"} : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @f(%y: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mse' takes 2 operands, but 3 are given}}
  %l = ens.stdlib_call "mse"(%y, %y, %y) : tensor<4xf32>
  return %l : tensor<f32>
}

// -----

func.func @f(%p: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ens.stdlib_call' op calls 'adam' with 10 operands and 1 results, but it takes 10 operands and gives 3 results}}
  %r = "ens.stdlib_call"(%p, %p, %p, %p, %s, %s, %s, %s, %s, %s) {function = "adam"} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Element types: a hyperparameter of another precision.
func.func @f(%p: tensor<4xf32>, %s: tensor<f32>, %lr: tensor<f64>) -> tensor<4xf32> {
  // expected-error @+1 {{'ens.stdlib_call' op operand 5 has type 'tensor<f64>', but 'adam' at this call's !T takes 'tensor<f32>'}}
  %r:3 = "ens.stdlib_call"(%p, %p, %p, %p, %s, %lr, %s, %s, %s, %s) {function = "adam"} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f64>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}

// -----

func.func @f(%p: tensor<4xf32>, %s: tensor<f32>, %lr: tensor<f64>) -> tensor<4xf32> {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%lr' expects different type than prior uses: 'tensor<f32>' vs 'tensor<f64>'}}
  %r:3 = ens.stdlib_call "adam"(%p, %p, %p, %p, %s, %lr, %s, %s, %s, %s) : tensor<4xf32>
  return %r#0 : tensor<4xf32>
}

// -----

// The library is generic in float tensors.
func.func @f(%y: tensor<4xi32>) -> tensor<i32> {
  // expected-error @+1 {{'ens.stdlib_call' op 'mse' is generic in a float tensor, but !T would be 'tensor<4xi32>'}}
  %l = "ens.stdlib_call"(%y, %y) {function = "mse"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<i32>
  return %l : tensor<i32>
}

// -----

// Shapes: the gradient of another parameter.
func.func @f(%p: tensor<4x3xf32>, %g: tensor<3x4xf32>, %s: tensor<f32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ens.stdlib_call' op operand 1 has type 'tensor<3x4xf32>', but 'adam' at this call's !T takes 'tensor<4x3xf32>'}}
  %r:3 = "ens.stdlib_call"(%p, %g, %p, %p, %s, %s, %s, %s, %s, %s) {function = "adam"} : (tensor<4x3xf32>, tensor<3x4xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
  return %r#0 : tensor<4x3xf32>
}

// -----

func.func @f(%p: tensor<4x3xf32>, %g: tensor<3x4xf32>, %s: tensor<f32>) -> tensor<4x3xf32> {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%g' expects different type than prior uses: 'tensor<4x3xf32>' vs 'tensor<3x4xf32>'}}
  %r:3 = ens.stdlib_call "adam"(%p, %g, %p, %p, %s, %s, %s, %s, %s, %s) : tensor<4x3xf32>
  return %r#0 : tensor<4x3xf32>
}

// -----

// A result of the wrong type.
func.func @f(%y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ens.stdlib_call' op result 0 has type 'tensor<4xf32>', but 'mse' at this call's !T gives 'tensor<f32>'}}
  %l = "ens.stdlib_call"(%y, %y) {function = "mse"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %l : tensor<4xf32>
}

// -----

// A function over the last dimension needs !T of rank 1 or more.
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'layer_norm' uses !V, which is defined only for !T of rank 1 or more, but !T is 'tensor<f32>'}}
  %y = ens.stdlib_call "layer_norm"(%x, %x, %x, %x) : tensor<f32>
  return %y : tensor<f32>
}
