// examples/multi_head_q_network.mlir as it is written without
// ens.stdlib_call: one declaration of each library function per shape, and
// every type written out. test/ens-run/multi-head-q-network.mlir checks that
// both give the same results.

func.func private @mse(tensor<32x4xf32>, tensor<32x4xf32>) -> tensor<f32>
    attributes {ens.stdlib = "mse"}
func.func private @adam_128_6_16(tensor<128x6x16xf32>, tensor<128x6x16xf32>,
    tensor<128x6x16xf32>,
    tensor<128x6x16xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>) -> (tensor<128x6x16xf32>, tensor<128x6x16xf32>,
        tensor<128x6x16xf32>)
    attributes {ens.stdlib = "adam"}
func.func private @adam_128_16(tensor<128x16xf32>, tensor<128x16xf32>, tensor<128x16xf32>,
    tensor<128x16xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>) -> (tensor<128x16xf32>, tensor<128x16xf32>,
        tensor<128x16xf32>)
    attributes {ens.stdlib = "adam"}
func.func private @adam_128_16_4(tensor<128x16x4xf32>, tensor<128x16x4xf32>,
    tensor<128x16x4xf32>,
    tensor<128x16x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>) -> (tensor<128x16x4xf32>, tensor<128x16x4xf32>,
        tensor<128x16x4xf32>)
    attributes {ens.stdlib = "adam"}
func.func private @adam_128_4(tensor<128x4xf32>, tensor<128x4xf32>, tensor<128x4xf32>,
    tensor<128x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
    tensor<f32>, tensor<f32>) -> (tensor<128x4xf32>, tensor<128x4xf32>, tensor<128x4xf32>)
    attributes {ens.stdlib = "adam"}

func.func @head(%x: tensor<32x6xf32>, %w1: tensor<6x16xf32>, %b1: tensor<16xf32>,
    %w2: tensor<16x4xf32>, %b2: tensor<4xf32>) -> tensor<32x4xf32> {
  %0 = ens.matmul %x, %w1 : tensor<32x6xf32>, tensor<6x16xf32> -> tensor<32x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<32x16xf32>
  %2 = ens.add %0, %1 : tensor<32x16xf32>
  %h = ens.tanh %2 : tensor<32x16xf32>
  %3 = ens.matmul %h, %w2 : tensor<32x16xf32>, tensor<16x4xf32> -> tensor<32x4xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<4xf32> -> tensor<32x4xf32>
  %y = ens.add %3, %4 : tensor<32x4xf32>
  return %y : tensor<32x4xf32>
}

func.func @loss(%w1: tensor<6x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x4xf32>,
    %b2: tensor<4xf32>, %x: tensor<32x6xf32>, %r: tensor<32x4xf32>) -> tensor<f32> {
  %y = call @head(%x, %w1, %b1, %w2, %b2) : (tensor<32x6xf32>, tensor<6x16xf32>,
      tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>) -> tensor<32x4xf32>
  %l = call @mse(%y, %r) : (tensor<32x4xf32>, tensor<32x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @grads(%w1: tensor<6x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x4xf32>,
    %b2: tensor<4xf32>, %x: tensor<32x6xf32>, %r: tensor<32x4xf32>)
    -> (tensor<f32>, tensor<6x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>) {
  %l, %g1, %g2, %g3, %g4 = ens.value_and_grad @loss(%w1, %b1, %w2, %b2, %x, %r)
      {wrt = array<i64: 0, 1, 2, 3>} : (tensor<6x16xf32>, tensor<16xf32>,
          tensor<16x4xf32>, tensor<4xf32>, tensor<32x6xf32>, tensor<32x4xf32>)
      -> (tensor<f32>, tensor<6x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>)
  return %l, %g1, %g2, %g3, %g4 : tensor<f32>, tensor<6x16xf32>, tensor<16xf32>,
      tensor<16x4xf32>, tensor<4xf32>
}

func.func @train_step(%w1: tensor<128x6x16xf32>, %b1: tensor<128x16xf32>,
    %w2: tensor<128x16x4xf32>, %b2: tensor<128x4xf32>, %m1: tensor<128x6x16xf32>,
    %m2: tensor<128x16xf32>,
    %m3: tensor<128x16x4xf32>, %m4: tensor<128x4xf32>, %v1: tensor<128x6x16xf32>,
        %v2: tensor<128x16xf32>, %v3: tensor<128x16x4xf32>, %v4: tensor<128x4xf32>,
        %step: tensor<f32>,
    %lr: tensor<f32>, %x: tensor<32x6xf32>,
        %r: tensor<32x4xf32>) -> (tensor<128x6x16xf32>, tensor<128x16xf32>,
        tensor<128x16x4xf32>, tensor<128x4xf32>, tensor<128x6x16xf32>,
        tensor<128x16xf32>, tensor<128x16x4xf32>, tensor<128x4xf32>,
    tensor<128x6x16xf32>, tensor<128x16xf32>, tensor<128x16x4xf32>, tensor<128x4xf32>,
        tensor<128xf32>) {
  %l, %g1, %g2, %g3, %g4 = ens.vmap @grads(%w1, %b1, %w2, %b2, %x, %r)
      {in_axes = array<i64: 0, 0, 0, 0, -1, -1>, out_axes = array<i64: 0, 0, 0, 0, 0>,
       size = 128 : i64} : (tensor<128x6x16xf32>, tensor<128x16xf32>,
           tensor<128x16x4xf32>, tensor<128x4xf32>, tensor<32x6xf32>,
           tensor<32x4xf32>) -> (tensor<128xf32>, tensor<128x6x16xf32>,
           tensor<128x16xf32>, tensor<128x16x4xf32>, tensor<128x4xf32>)
  %beta1 = ens.constant dense<0.9> : tensor<f32>
  %beta2 = ens.constant dense<0.999> : tensor<f32>
  %eps = ens.constant dense<1.0e-8> : tensor<f32>
  %wd = ens.constant dense<0.0> : tensor<f32>
  %n1:3 = call @adam_128_6_16(%w1, %g1, %m1, %v1, %step, %lr, %beta1, %beta2, %eps, %wd)
      : (tensor<128x6x16xf32>, tensor<128x6x16xf32>, tensor<128x6x16xf32>,
          tensor<128x6x16xf32>, tensor<f32>, tensor<f32>,
         tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<128x6x16xf32>,
             tensor<128x6x16xf32>, tensor<128x6x16xf32>)
  %n2:3 = call @adam_128_16(%b1, %g2, %m2, %v2, %step, %lr, %beta1, %beta2, %eps, %wd)
      : (tensor<128x16xf32>, tensor<128x16xf32>, tensor<128x16xf32>, tensor<128x16xf32>,
          tensor<f32>, tensor<f32>,
         tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<128x16xf32>,
             tensor<128x16xf32>, tensor<128x16xf32>)
  %n3:3 = call @adam_128_16_4(%w2, %g3, %m3, %v3, %step, %lr, %beta1, %beta2, %eps, %wd)
      : (tensor<128x16x4xf32>, tensor<128x16x4xf32>, tensor<128x16x4xf32>,
          tensor<128x16x4xf32>, tensor<f32>, tensor<f32>,
         tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<128x16x4xf32>,
             tensor<128x16x4xf32>, tensor<128x16x4xf32>)
  %n4:3 = call @adam_128_4(%b2, %g4, %m4, %v4, %step, %lr, %beta1, %beta2, %eps, %wd)
      : (tensor<128x4xf32>, tensor<128x4xf32>, tensor<128x4xf32>, tensor<128x4xf32>,
          tensor<f32>, tensor<f32>,
         tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<128x4xf32>,
             tensor<128x4xf32>, tensor<128x4xf32>)
  return %n1#0, %n2#0, %n3#0, %n4#0, %n1#1, %n2#1, %n3#1, %n4#1, %n1#2, %n2#2, %n3#2,
      %n4#2, %l
      : tensor<128x6x16xf32>, tensor<128x16xf32>, tensor<128x16x4xf32>,
          tensor<128x4xf32>, tensor<128x6x16xf32>, tensor<128x16xf32>,
          tensor<128x16x4xf32>, tensor<128x4xf32>, tensor<128x6x16xf32>,
          tensor<128x16xf32>, tensor<128x16x4xf32>, tensor<128x4xf32>, tensor<128xf32>
}

func.func @predict(%w1: tensor<128x6x16xf32>, %b1: tensor<128x16xf32>,
    %w2: tensor<128x16x4xf32>, %b2: tensor<128x4xf32>,
    %x: tensor<32x6xf32>) -> tensor<32x4xf32> {
  %y = ens.vmap @head(%x, %w1, %b1, %w2, %b2) {in_axes = array<i64: -1, 0, 0, 0, 0>,
      out_axes = array<i64: 0>, size = 128 : i64} : (tensor<32x6xf32>,
          tensor<128x6x16xf32>, tensor<128x16xf32>, tensor<128x16x4xf32>,
          tensor<128x4xf32>) -> tensor<128x32x4xf32>
  %mean = ens.reduce_mean %y {dims = array<i64: 0>} : tensor<128x32x4xf32> -> tensor<32x4xf32>
  return %mean : tensor<32x4xf32>
}
