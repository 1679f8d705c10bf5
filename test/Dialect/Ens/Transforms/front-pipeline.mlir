// ens-front is ens-stdlib, ens-autodiff and ens-batch: on a program with a
// standard-library call, a gradient and a vmap, both spellings define the
// library function, differentiate and batch, leaving no ens.vmap, no
// ens.value_and_grad and no declaration to instantiate, and print the same
// IR. With batch=false (what the interpreter runs) the vmap stays.
//
// RUN: ens-opt %s --ens-front > %t.front.mlir
// RUN: FileCheck %s --input-file=%t.front.mlir \
// RUN:   --implicit-check-not=ens.vmap --implicit-check-not=ens.value_and_grad \
// RUN:   --implicit-check-not=ens.stdlib
// RUN: ens-opt %s --ens-stdlib --ens-autodiff --ens-batch > %t.explicit.mlir
// RUN: FileCheck %s --input-file=%t.explicit.mlir \
// RUN:   --implicit-check-not=ens.vmap --implicit-check-not=ens.value_and_grad \
// RUN:   --implicit-check-not=ens.stdlib
// RUN: diff %t.front.mlir %t.explicit.mlir
// RUN: ens-opt %s --ens-front=batch=false \
// RUN:   | FileCheck %s --check-prefix=MEMBERWISE --implicit-check-not=_vmap

func.func private @mse(tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    attributes {ens.stdlib = "mse"}

func.func @loss(%w: tensor<3xf32>, %x: tensor<4x3xf32>, %t: tensor<4xf32>)
    -> tensor<f32> {
  %y = ens.einsum %x, %w {spec = "ij,j->i"}
      : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
  %l = call @mse(%y, %t) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @step(%w: tensor<3xf32>, %x: tensor<4x3xf32>, %t: tensor<4xf32>)
    -> (tensor<f32>, tensor<3xf32>) {
  %l, %g = ens.value_and_grad @loss(%w, %x, %t) {wrt = array<i64: 0>}
      : (tensor<3xf32>, tensor<4x3xf32>, tensor<4xf32>)
      -> (tensor<f32>, tensor<3xf32>)
  return %l, %g : tensor<f32>, tensor<3xf32>
}

func.func @ensemble(%w: tensor<8x3xf32>, %x: tensor<4x3xf32>,
                    %t: tensor<4xf32>) -> (tensor<8xf32>, tensor<8x3xf32>) {
  %l, %g = ens.vmap @step(%w, %x, %t) {in_axes = array<i64: 0, -1, -1>,
                                       out_axes = array<i64: 0, 0>,
                                       size = 8 : i64}
      : (tensor<8x3xf32>, tensor<4x3xf32>, tensor<4xf32>)
      -> (tensor<8xf32>, tensor<8x3xf32>)
  return %l, %g : tensor<8xf32>, tensor<8x3xf32>
}

// The library function, defined from its declaration.
// CHECK-LABEL: func.func private @mse(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>) -> tensor<f32> {
// CHECK-NEXT:    ens.sub
// CHECK-NEXT:    ens.square
// The gradient of one member's loss, with the library function inlined.
// CHECK-LABEL: func.func private @loss_grad(%{{.*}}: tensor<3xf32>, %{{.*}}: tensor<4x3xf32>, %{{.*}}: tensor<4xf32>) -> (tensor<f32>, tensor<3xf32>)
// CHECK:         ens.sub
// CHECK:         ens.einsum {{.*}} : tensor<4x3xf32>, tensor<4xf32> -> tensor<3xf32>
// The gradient batched over the 8 members: the weights and every value
// computed from them gain a leading axis of 8; the shared batch keeps its
// shape.
// CHECK-LABEL: func.func private @loss_grad_vmap
// CHECK-SAME:    (%[[W:.*]]: tensor<8x3xf32>, %[[X:.*]]: tensor<4x3xf32>, %{{.*}}: tensor<4xf32>) -> (tensor<8xf32>, tensor<8x3xf32>)
// CHECK:         ens.einsum %[[X]], %[[W]] {{.*}} : tensor<4x3xf32>, tensor<8x3xf32> -> tensor<8x4xf32>
// CHECK:         %[[LOSS:.*]] = ens.reduce_mean {{.*}} : tensor<8x4xf32> -> tensor<8xf32>
// CHECK:         %[[GRAD:.*]] = ens.einsum %[[X]], {{.*}} : tensor<4x3xf32>, tensor<8x4xf32> -> tensor<8x3xf32>
// CHECK-NEXT:    return %[[LOSS]], %[[GRAD]] : tensor<8xf32>, tensor<8x3xf32>
// CHECK-LABEL: func.func @ensemble
// CHECK-NEXT:    call @step_vmap(%arg0, %arg1, %arg2) : (tensor<8x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<8x3xf32>)

// MEMBERWISE-LABEL: func.func private @mse(
// MEMBERWISE-LABEL: func.func private @loss_grad(
// MEMBERWISE-LABEL: func.func @ensemble
// MEMBERWISE-NEXT:    ens.vmap @step(%arg0, %arg1, %arg2)
