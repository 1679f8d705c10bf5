// A model other than the default: linear regression whose loss calls the
// standard library's mse. ens-train derives everything from @loss and
// @forward, and names the checkpoint's arrays after the arguments.
//
// RUN: rm -rf %t
// RUN: ens-train --model=%s --members=4 --steps=30 --lr=0.01 --checkpoint=%t --plot= | FileCheck %s
// CHECK: ens-train: 4 members of {{.*}}model.mlir, 2 parameters (520 values) per member
// CHECK: Adam, learning rates 0.01, 30 steps
// CHECK: members whose loss fell: 4 of 4
// RUN: cat %t/gen-*/manifest.json | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: "m_weights"
// MANIFEST: "v_bias"
//
// The generated program: one member's step differentiates @loss and calls
// Adam per parameter; one ens.vmap runs it for every member.
// RUN: ens-train --model=%s --members=4 --emit-ir | FileCheck %s --check-prefix=IR
// IR: func.func private @ens_train_adam_0(tensor<64x8xf32>, {{.*}}attributes {ens.stdlib = "adam"}
// IR: func.func private @ens_train_xavier_0(tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<64x8xf32>
// IR-NEXT: attributes {ens.stdlib = "xavier_uniform"}
// IR: func.func private @ens_train_adam_1(tensor<8xf32>,
// IR: func.func @ens_train_init_member(%key: tensor<2xi32>)
// IR: ens.random_split %key : tensor<2xi32> -> tensor<2x2xi32>
// IR: %p1 = ens.constant dense<0.0> : tensor<8xf32>
// IR: func.func @ens_train_init(%key: tensor<2xi32>) -> (tensor<4x64x8xf32>, tensor<4x8xf32>)
// IR: randomness = "different"
// IR: func.func @ens_train_member_grads(
// IR: ens.value_and_grad @loss(%x, %p0, %p1, %targets)
// IR-NEXT: {wrt = array<i64: 1, 2>}
// IR: func.func @ens_train_member_update(
// IR: call @ens_train_adam_0(%p0, %g0, %m0, %v0, %step, %lr, %beta1, %beta2, %eps, %decay)
// IR: func.func @ens_train_member_step(
// IR: call @ens_train_member_grads(%x, %p0, %p1, %targets)
// IR: call @ens_train_member_update(%p0, %p1, %vg#1, %vg#2, %m0, %m1, %v0, %v1, %step, %lr)
// IR: func.func @ens_train_step(
// IR: ens.vmap @ens_train_member_step({{.*}}%step, %lr, %x, %targets)
// IR-NEXT: {in_axes = array<i64: 0, 0, 0, 0, 0, 0, -1, 0, -1, -1>,
// IR: func.func @ens_train_losses(
// IR: func.func @ens_train_predict(

func.func private @mse(tensor<256x8xf32>, tensor<256x8xf32>) -> tensor<f32>
    attributes {ens.stdlib = "mse"}

func.func @forward(%x: tensor<256x64xf32>, %weights: tensor<64x8xf32>,
                   %bias: tensor<8xf32>) -> tensor<256x8xf32> {
  %0 = ens.matmul %x, %weights
      : tensor<256x64xf32>, tensor<64x8xf32> -> tensor<256x8xf32>
  %1 = ens.broadcast_in_dim %bias {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<256x8xf32>
  %y = ens.add %0, %1 : tensor<256x8xf32>
  return %y : tensor<256x8xf32>
}

func.func @loss(%x: tensor<256x64xf32>, %weights: tensor<64x8xf32>,
                %bias: tensor<8xf32>, %targets: tensor<256x8xf32>)
    -> tensor<f32> {
  %y = call @forward(%x, %weights, %bias)
      : (tensor<256x64xf32>, tensor<64x8xf32>, tensor<8xf32>)
      -> tensor<256x8xf32>
  %l = call @mse(%y, %targets)
      : (tensor<256x8xf32>, tensor<256x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
