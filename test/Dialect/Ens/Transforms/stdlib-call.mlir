// ens-stdlib turns each ens.stdlib_call into a call of a private function
// holding the library's body at the call's types: one function per library
// function and signature, however many calls share it, named after the
// function and !T (renamed if a user's symbol has the name). Hand-written
// declarations are defined as before, beside them.
//
// RUN: ens-opt %s --ens-stdlib | FileCheck %s --implicit-check-not=ens.stdlib

func.func private @mse_4xf32(tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
    attributes {ens.stdlib = "mse"}

// CHECK-LABEL: func.func private @mse_4xf32(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>) -> tensor<f32> {
// CHECK:         ens.reduce_mean

// CHECK-LABEL: func.func @step
func.func @step(%w: tensor<4xf32>, %b: tensor<3xf32>, %b2: tensor<3xf32>,
                %s: tensor<f32>, %y: tensor<4xf32>, %u: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>,
        tensor<f32>) {
  // CHECK: %[[W:.*]]:3 = call @adam_4xf32(%{{.*}}) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  %nw:3 = ens.stdlib_call "adam"(%w, %w, %w, %w, %s, %s, %s, %s, %s, %s)
      : tensor<4xf32>
  // CHECK: call @adam_3xf32(
  %nb:3 = ens.stdlib_call "adam"(%b, %b, %b, %b, %s, %s, %s, %s, %s, %s)
      : tensor<3xf32>
  // CHECK: call @adam_3xf32(
  %nb2:3 = ens.stdlib_call "adam"(%b2, %b2, %b2, %b2, %s, %s, %s, %s, %s, %s)
      : tensor<3xf32>
  // The name @mse_4xf32 is taken by the declaration above.
  // CHECK: %[[L:.*]] = call @[[MSE:mse_4xf32_[0-9]+]](%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %l = ens.stdlib_call "mse"(%y, %y) : tensor<4xf32>
  // CHECK: call @mse_4xf32(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  %l2 = call @mse_4xf32(%u, %u) : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  // CHECK: return %[[W]]#0
  return %nw#0, %nb#0, %nb2#0, %l, %l2
      : tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func private @adam_4xf32(%{{.*}}: tensor<4xf32>, {{.*}}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK:         ens.pow
// CHECK-LABEL: func.func private @adam_3xf32(
// CHECK:       func.func private @[[MSE]](%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>) -> tensor<f32> {
// CHECK:         ens.reduce_mean
