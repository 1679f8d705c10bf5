// ens.stdlib_call round-trips in its custom form, which writes only the
// type the library function is generic in (!T), and in the generic form,
// which lists every type; both print back as the custom form.
//
// RUN: ens-opt %s | ens-opt | FileCheck %s
// RUN: ens-opt %s --mlir-print-op-generic | ens-opt | FileCheck %s
// RUN: ens-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @losses
func.func @losses(%y: tensor<4x3xf32>, %t: tensor<4x3xf32>,
                  %labels: tensor<4xi32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK: ens.stdlib_call "mse"(%{{.*}}, %{{.*}}) : tensor<4x3xf32>
  // GENERIC: "ens.stdlib_call"(%{{.*}}, %{{.*}}) <{function = "mse"}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  %mse = ens.stdlib_call "mse"(%y, %t) : tensor<4x3xf32>
  // CHECK: ens.stdlib_call "softmax_cross_entropy"(%{{.*}}, %{{.*}}) : tensor<4x3xf32>
  %ce = ens.stdlib_call "softmax_cross_entropy"(%y, %labels) : tensor<4x3xf32>
  return %mse, %ce : tensor<f32>, tensor<f32>
}

// One function at two shapes, with no declaration.
// CHECK-LABEL: func.func @adam_twice
func.func @adam_twice(%w: tensor<6x16xf64>, %b: tensor<16xf64>,
                      %s: tensor<f64>) -> (tensor<6x16xf64>, tensor<16xf64>) {
  // CHECK: %{{.*}}:3 = ens.stdlib_call "adam"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : tensor<6x16xf64>
  %w1:3 = ens.stdlib_call "adam"(%w, %w, %w, %w, %s, %s, %s, %s, %s, %s)
      : tensor<6x16xf64>
  // CHECK: ens.stdlib_call "adam"({{.*}}) : tensor<16xf64>
  %b1:3 = ens.stdlib_call "adam"(%b, %b, %b, %b, %s, %s, %s, %s, %s, %s)
      : tensor<16xf64>
  return %w1#0, %b1#0 : tensor<6x16xf64>, tensor<16xf64>
}

// An initialiser is generic in its result; a normalisation's vectors and
// the running statistics follow from !T.
// CHECK-LABEL: func.func @init_and_norm
func.func @init_and_norm(%key: tensor<2xi32>, %fan: tensor<f32>,
                         %x: tensor<8x5xf32>, %g: tensor<5xf32>)
    -> (tensor<5x3xf32>, tensor<8x5xf32>, tensor<5xf32>) {
  // CHECK: %{{.*}} = ens.stdlib_call "xavier_uniform"(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<5x3xf32>
  %w = ens.stdlib_call "xavier_uniform"(%key, %fan, %fan) : tensor<5x3xf32>
  // CHECK: ens.stdlib_call "batch_norm"({{.*}}) : tensor<8x5xf32>
  %y:3 = ens.stdlib_call "batch_norm"(%x, %g, %g, %g, %g, %fan, %fan)
      : tensor<8x5xf32>
  return %w, %y#0, %y#1 : tensor<5x3xf32>, tensor<8x5xf32>, tensor<5xf32>
}

// A `?` size is allowed until ens-specialize resolves it.
// CHECK-LABEL: func.func @unknown_batch
func.func @unknown_batch(%y: tensor<?x3xf32>, %t: tensor<?x3xf32>)
    -> tensor<f32> {
  // CHECK: ens.stdlib_call "mse"(%{{.*}}, %{{.*}}) : tensor<?x3xf32>
  %mse = ens.stdlib_call "mse"(%y, %t) : tensor<?x3xf32>
  return %mse : tensor<f32>
}
