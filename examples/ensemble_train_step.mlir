// One complete training step for 128 members of the example MLP
// (examples/mlp.mlir) on a shared batch, as ONE function: forward, MSE,
// backward (ens.value_and_grad) and an Adam update (from the standard
// library), lifted over the members with ens.vmap. Each member has its own
// learning rate.
//
// @train_step(w1, b1, w2, b2,   stacked parameters   [128 x ...]
//             m1, m2, m3, m4,   Adam first moments   [128 x ...]
//             v1, v2, v3, v4,   Adam second moments  [128 x ...]
//             step,             the step number, from 1          (shared)
//             lr,               learning rates                   [128]
//             x, targets)       the batch            [256x64], [256x8] (shared)
//   -> (new w1, b1, w2, b2, m1..m4, v1..v4, losses [128])
//
// Start from examples/ensemble_init.mlir. To see the batched, differentiated
// program, with no loop and no vmap left:
//   ens-opt --ens-stdlib --ens-autodiff --ens-batch \
//     examples/ensemble_train_step.mlir

func.func private @mse(tensor<256x8xf32>, tensor<256x8xf32>) -> tensor<f32>
    attributes {ens.stdlib = "mse"}
func.func private @adam_64x32(tensor<64x32xf32>, tensor<64x32xf32>,
    tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
    -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>)
    attributes {ens.stdlib = "adam"}
func.func private @adam_32(tensor<32xf32>, tensor<32xf32>, tensor<32xf32>,
    tensor<32xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>)
    -> (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
    attributes {ens.stdlib = "adam"}
func.func private @adam_32x8(tensor<32x8xf32>, tensor<32x8xf32>,
    tensor<32x8xf32>, tensor<32x8xf32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
    -> (tensor<32x8xf32>, tensor<32x8xf32>, tensor<32x8xf32>)
    attributes {ens.stdlib = "adam"}
func.func private @adam_8(tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
    tensor<8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    attributes {ens.stdlib = "adam"}

func.func @forward(%x: tensor<256x64xf32>, %w1: tensor<64x32xf32>,
                   %b1: tensor<32xf32>, %w2: tensor<32x8xf32>,
                   %b2: tensor<8xf32>) -> tensor<256x8xf32> {
  %0 = ens.einsum %x, %w1 {spec = "bi,ih->bh"}
      : tensor<256x64xf32>, tensor<64x32xf32> -> tensor<256x32xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>}
      : tensor<32xf32> -> tensor<256x32xf32>
  %2 = ens.add %0, %1 : tensor<256x32xf32>
  %h = ens.tanh %2 : tensor<256x32xf32>
  %3 = ens.matmul %h, %w2
      : tensor<256x32xf32>, tensor<32x8xf32> -> tensor<256x8xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<256x8xf32>
  %y = ens.add %3, %4 : tensor<256x8xf32>
  return %y : tensor<256x8xf32>
}

func.func @loss(%x: tensor<256x64xf32>, %w1: tensor<64x32xf32>,
                %b1: tensor<32xf32>, %w2: tensor<32x8xf32>,
                %b2: tensor<8xf32>, %targets: tensor<256x8xf32>)
    -> tensor<f32> {
  %y = call @forward(%x, %w1, %b1, %w2, %b2)
      : (tensor<256x64xf32>, tensor<64x32xf32>, tensor<32xf32>,
         tensor<32x8xf32>, tensor<8xf32>) -> tensor<256x8xf32>
  %mse = call @mse(%y, %targets)
      : (tensor<256x8xf32>, tensor<256x8xf32>) -> tensor<f32>
  return %mse : tensor<f32>
}

func.func @member_step(%w1: tensor<64x32xf32>, %b1: tensor<32xf32>,
                       %w2: tensor<32x8xf32>, %b2: tensor<8xf32>,
                       %m1: tensor<64x32xf32>, %m2: tensor<32xf32>,
                       %m3: tensor<32x8xf32>, %m4: tensor<8xf32>,
                       %v1: tensor<64x32xf32>, %v2: tensor<32xf32>,
                       %v3: tensor<32x8xf32>, %v4: tensor<8xf32>,
                       %step: tensor<f32>, %lr: tensor<f32>,
                       %x: tensor<256x64xf32>, %targets: tensor<256x8xf32>)
    -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>,
        tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>,
        tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>,
        tensor<f32>) {
  %loss, %g1, %g2, %g3, %g4 = ens.value_and_grad @loss(%x, %w1, %b1, %w2,
                                                        %b2, %targets)
      {wrt = array<i64: 1, 2, 3, 4>}
      : (tensor<256x64xf32>, tensor<64x32xf32>, tensor<32xf32>,
         tensor<32x8xf32>, tensor<8xf32>, tensor<256x8xf32>)
      -> (tensor<f32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>,
          tensor<8xf32>)
  %beta1 = ens.constant dense<0.9> : tensor<f32>
  %beta2 = ens.constant dense<0.999> : tensor<f32>
  %eps = ens.constant dense<1.0e-8> : tensor<f32>
  %decay = ens.constant dense<0.0> : tensor<f32>
  %nw1, %nm1, %nv1 = call @adam_64x32(%w1, %g1, %m1, %v1, %step, %lr, %beta1,
                                      %beta2, %eps, %decay)
      : (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>,
         tensor<64x32xf32>, tensor<f32>, tensor<f32>, tensor<f32>,
         tensor<f32>, tensor<f32>, tensor<f32>)
      -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>)
  %nb1, %nm2, %nv2 = call @adam_32(%b1, %g2, %m2, %v2, %step, %lr, %beta1,
                                   %beta2, %eps, %decay)
      : (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>,
         tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
         tensor<f32>) -> (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
  %nw2, %nm3, %nv3 = call @adam_32x8(%w2, %g3, %m3, %v3, %step, %lr, %beta1,
                                     %beta2, %eps, %decay)
      : (tensor<32x8xf32>, tensor<32x8xf32>, tensor<32x8xf32>,
         tensor<32x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>,
         tensor<f32>, tensor<f32>, tensor<f32>)
      -> (tensor<32x8xf32>, tensor<32x8xf32>, tensor<32x8xf32>)
  %nb2, %nm4, %nv4 = call @adam_8(%b2, %g4, %m4, %v4, %step, %lr, %beta1,
                                  %beta2, %eps, %decay)
      : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
         tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
         tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %nw1, %nb1, %nw2, %nb2, %nm1, %nm2, %nm3, %nm4, %nv1, %nv2, %nv3,
         %nv4, %loss
      : tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>,
        tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>,
        tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>,
        tensor<f32>
}

func.func @train_step(%w1: tensor<128x64x32xf32>, %b1: tensor<128x32xf32>,
                      %w2: tensor<128x32x8xf32>, %b2: tensor<128x8xf32>,
                      %m1: tensor<128x64x32xf32>, %m2: tensor<128x32xf32>,
                      %m3: tensor<128x32x8xf32>, %m4: tensor<128x8xf32>,
                      %v1: tensor<128x64x32xf32>, %v2: tensor<128x32xf32>,
                      %v3: tensor<128x32x8xf32>, %v4: tensor<128x8xf32>,
                      %step: tensor<f32>, %lr: tensor<128xf32>,
                      %x: tensor<256x64xf32>, %targets: tensor<256x8xf32>)
    -> (tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>, tensor<128xf32>) {
  %r:13 = ens.vmap @member_step(%w1, %b1, %w2, %b2, %m1, %m2, %m3, %m4, %v1,
                                %v2, %v3, %v4, %step, %lr, %x, %targets)
      {in_axes = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, -1>,
       out_axes = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>,
       size = 128 : i64}
      : (tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
         tensor<128x8xf32>,
         tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
         tensor<128x8xf32>,
         tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
         tensor<128x8xf32>, tensor<f32>, tensor<128xf32>,
         tensor<256x64xf32>, tensor<256x8xf32>)
      -> (tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
          tensor<128x8xf32>,
          tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
          tensor<128x8xf32>,
          tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
          tensor<128x8xf32>, tensor<128xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10,
         %r#11, %r#12
      : tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>, tensor<128xf32>
}
