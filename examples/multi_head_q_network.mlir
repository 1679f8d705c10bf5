// The seed's multi-head Q-network: 128 heads of Linear(6, 16) -> Tanh ->
// Linear(16, 4) on a shared batch of 32 states, each head trained on its
// own returns' MSE with Adam; prediction averages the heads' Q-values.
//
// @train_step(w1, b1, w2, b2, m1..m4, v1..v4,  parameters and Adam's
//                                              moments, [128 x ...]
//             step, lr, states, returns)       shared
//   -> (w1, b1, w2, b2, m1..m4, v1..v4 updated, the heads' losses [128])
// @predict(w1, b1, w2, b2, states) -> the mean of the heads' Q-values
//
// The library's mse and adam are called at any shape with ens.stdlib_call
// (docs/stdlib.md); Adam updates the stacked parameters directly.
// test/ens-run/multi-head-q-network.mlir runs it against the same program
// written with per-shape declarations, python/tests/test_examples.py
// against NumPy.

!x = tensor<32x6xf32>
!q = tensor<32x4xf32>
!w1 = tensor<6x16xf32>
!b1 = tensor<16xf32>
!w2 = tensor<16x4xf32>
!b2 = tensor<4xf32>
!W1 = tensor<128x6x16xf32>
!B1 = tensor<128x16xf32>
!W2 = tensor<128x16x4xf32>
!B2 = tensor<128x4xf32>

func.func @head(%x: !x, %w1: !w1, %b1: !b1, %w2: !w2, %b2: !b2) -> !q {
  %0 = ens.matmul %x, %w1 : !x, !w1 -> tensor<32x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : !b1 -> tensor<32x16xf32>
  %2 = ens.add %0, %1 : tensor<32x16xf32>
  %h = ens.tanh %2 : tensor<32x16xf32>
  %3 = ens.matmul %h, %w2 : tensor<32x16xf32>, !w2 -> !q
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : !b2 -> !q
  %y = ens.add %3, %4 : !q
  return %y : !q
}

func.func @loss(%w1: !w1, %b1: !b1, %w2: !w2, %b2: !b2, %x: !x, %r: !q) -> tensor<f32> {
  %y = call @head(%x, %w1, %b1, %w2, %b2) : (!x, !w1, !b1, !w2, !b2) -> !q
  %l = ens.stdlib_call "mse"(%y, %r) : !q
  return %l : tensor<f32>
}

func.func @grads(%w1: !w1, %b1: !b1, %w2: !w2, %b2: !b2, %x: !x, %r: !q)
    -> (tensor<f32>, !w1, !b1, !w2, !b2) {
  %l, %g1, %g2, %g3, %g4 = ens.value_and_grad @loss(%w1, %b1, %w2, %b2, %x, %r)
      {wrt = array<i64: 0, 1, 2, 3>} : (!w1, !b1, !w2, !b2, !x, !q)
      -> (tensor<f32>, !w1, !b1, !w2, !b2)
  return %l, %g1, %g2, %g3, %g4 : tensor<f32>, !w1, !b1, !w2, !b2
}

func.func @train_step(%w1: !W1, %b1: !B1, %w2: !W2, %b2: !B2, %m1: !W1, %m2: !B1,
    %m3: !W2, %m4: !B2, %v1: !W1, %v2: !B1, %v3: !W2, %v4: !B2, %step: tensor<f32>,
    %lr: tensor<f32>, %x: !x, %r: !q) -> (!W1, !B1, !W2, !B2, !W1, !B1, !W2, !B2,
    !W1, !B1, !W2, !B2, tensor<128xf32>) {
  %l, %g1, %g2, %g3, %g4 = ens.vmap @grads(%w1, %b1, %w2, %b2, %x, %r)
      {in_axes = array<i64: 0, 0, 0, 0, -1, -1>, out_axes = array<i64: 0, 0, 0, 0, 0>,
       size = 128 : i64}
      : (!W1, !B1, !W2, !B2, !x, !q) -> (tensor<128xf32>, !W1, !B1, !W2, !B2)
  %beta1 = ens.constant dense<0.9> : tensor<f32>
  %beta2 = ens.constant dense<0.999> : tensor<f32>
  %eps = ens.constant dense<1.0e-8> : tensor<f32>
  %wd = ens.constant dense<0.0> : tensor<f32>
  %n1:3 = ens.stdlib_call "adam"(%w1, %g1, %m1, %v1, 
      %step, %lr, %beta1, %beta2, %eps, %wd) : !W1
  %n2:3 = ens.stdlib_call "adam"(%b1, %g2, %m2, %v2, 
      %step, %lr, %beta1, %beta2, %eps, %wd) : !B1
  %n3:3 = ens.stdlib_call "adam"(%w2, %g3, %m3, %v3, 
      %step, %lr, %beta1, %beta2, %eps, %wd) : !W2
  %n4:3 = ens.stdlib_call "adam"(%b2, %g4, %m4, %v4, 
      %step, %lr, %beta1, %beta2, %eps, %wd) : !B2
  return %n1#0, %n2#0, %n3#0, %n4#0, %n1#1, %n2#1, %n3#1, %n4#1, %n1#2, %n2#2, %n3#2, %n4#2, %l
      : !W1, !B1, !W2, !B2, !W1, !B1, !W2, !B2, !W1, !B1, !W2, !B2, tensor<128xf32>
}

func.func @predict(%w1: !W1, %b1: !B1, %w2: !W2, %b2: !B2, %x: !x) -> !q {
  %y = ens.vmap @head(%x, %w1, %b1, %w2, %b2) {in_axes = array<i64: -1, 0, 0, 0, 0>,
      out_axes = array<i64: 0>, size = 128 : i64}
      : (!x, !W1, !B1, !W2, !B2) -> tensor<128x32x4xf32>
  %mean = ens.reduce_mean %y {dims = array<i64: 0>} : tensor<128x32x4xf32> -> !q
  return %mean : !q
}
