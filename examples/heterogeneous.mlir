// A heterogeneous ensemble (issue #30): members of two architectures,
// trained side by side in ONE program. Each architecture is a group of
// identical members, lifted over its members with its own ens.vmap; the
// groups share nothing but the inputs they all read (the batch, its targets
// and the learning rate), so that each group computes exactly what it would
// in a program of its own (test/ens-run/heterogeneous.mlir checks this bit
// for bit on the CPU).
//
//   @narrow_step   one member of 4 -> 8 (tanh) -> 1: MSE, gradients, SGD
//   @deep_step     one member of 4 -> 32 (tanh) -> 32 (tanh) -> 1
//   @train_step    8 narrow members and 4 deep members, one step of each
//
//   ens-run examples/heterogeneous.mlir --entry=train_step --random-inputs=1

!X = tensor<16x4xf32>
!T = tensor<16x1xf32>
!S = tensor<f32>

func.func @narrow_loss(%x: !X, %w1: tensor<4x8xf32>, %b1: tensor<8xf32>,
                       %w2: tensor<8x1xf32>, %b2: tensor<1xf32>, %t: !T)
    -> !S {
  %z1 = ens.matmul %x, %w1 : !X, tensor<4x8xf32> -> tensor<16x8xf32>
  %c1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<16x8xf32>
  %s1 = ens.add %z1, %c1 : tensor<16x8xf32>
  %a1 = ens.tanh %s1 : tensor<16x8xf32>
  %z2 = ens.matmul %a1, %w2 : tensor<16x8xf32>, tensor<8x1xf32> -> !T
  %c2 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<1xf32> -> !T
  %y = ens.add %z2, %c2 : !T
  %e = ens.sub %y, %t : !T
  %e2 = ens.square %e : !T
  %l = ens.reduce_mean %e2 {dims = array<i64: 0, 1>} : !T -> !S
  return %l : !S
}

func.func @deep_loss(%x: !X, %w1: tensor<4x32xf32>, %b1: tensor<32xf32>,
                     %w2: tensor<32x32xf32>, %b2: tensor<32xf32>,
                     %w3: tensor<32x1xf32>, %b3: tensor<1xf32>, %t: !T) -> !S {
  %z1 = ens.matmul %x, %w1 : !X, tensor<4x32xf32> -> tensor<16x32xf32>
  %c1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>}
      : tensor<32xf32> -> tensor<16x32xf32>
  %s1 = ens.add %z1, %c1 : tensor<16x32xf32>
  %a1 = ens.tanh %s1 : tensor<16x32xf32>
  %z2 = ens.matmul %a1, %w2
      : tensor<16x32xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  %c2 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>}
      : tensor<32xf32> -> tensor<16x32xf32>
  %s2 = ens.add %z2, %c2 : tensor<16x32xf32>
  %a2 = ens.tanh %s2 : tensor<16x32xf32>
  %z3 = ens.matmul %a2, %w3 : tensor<16x32xf32>, tensor<32x1xf32> -> !T
  %c3 = ens.broadcast_in_dim %b3 {dims = array<i64: 1>} : tensor<1xf32> -> !T
  %y = ens.add %z3, %c3 : !T
  %e = ens.sub %y, %t : !T
  %e2 = ens.square %e : !T
  %l = ens.reduce_mean %e2 {dims = array<i64: 0, 1>} : !T -> !S
  return %l : !S
}

// p - lr * g for one parameter of any shape is written out per parameter
// below; the steps return the new parameters and the loss.
func.func @narrow_step(%x: !X, %t: !T, %lr: !S, %w1: tensor<4x8xf32>,
                       %b1: tensor<8xf32>, %w2: tensor<8x1xf32>,
                       %b2: tensor<1xf32>)
    -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8x1xf32>, tensor<1xf32>, !S) {
  %l, %g1, %g2, %g3, %g4 = ens.value_and_grad @narrow_loss(%x, %w1, %b1, %w2,
                                                           %b2, %t)
      {wrt = array<i64: 1, 2, 3, 4>}
      : (!X, tensor<4x8xf32>, tensor<8xf32>, tensor<8x1xf32>, tensor<1xf32>,
         !T) -> (!S, tensor<4x8xf32>, tensor<8xf32>, tensor<8x1xf32>,
                 tensor<1xf32>)
  %r1 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<4x8xf32>
  %d1 = ens.mul %r1, %g1 : tensor<4x8xf32>
  %n1 = ens.sub %w1, %d1 : tensor<4x8xf32>
  %r2 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<8xf32>
  %d2 = ens.mul %r2, %g2 : tensor<8xf32>
  %n2 = ens.sub %b1, %d2 : tensor<8xf32>
  %r3 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<8x1xf32>
  %d3 = ens.mul %r3, %g3 : tensor<8x1xf32>
  %n3 = ens.sub %w2, %d3 : tensor<8x1xf32>
  %r4 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<1xf32>
  %d4 = ens.mul %r4, %g4 : tensor<1xf32>
  %n4 = ens.sub %b2, %d4 : tensor<1xf32>
  return %n1, %n2, %n3, %n4, %l
      : tensor<4x8xf32>, tensor<8xf32>, tensor<8x1xf32>, tensor<1xf32>, !S
}

func.func @deep_step(%x: !X, %t: !T, %lr: !S, %w1: tensor<4x32xf32>,
                     %b1: tensor<32xf32>, %w2: tensor<32x32xf32>,
                     %b2: tensor<32xf32>, %w3: tensor<32x1xf32>,
                     %b3: tensor<1xf32>)
    -> (tensor<4x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>,
        tensor<32x1xf32>, tensor<1xf32>, !S) {
  %l, %g1, %g2, %g3, %g4, %g5, %g6 = ens.value_and_grad @deep_loss(
      %x, %w1, %b1, %w2, %b2, %w3, %b3, %t) {wrt = array<i64: 1, 2, 3, 4, 5, 6>}
      : (!X, tensor<4x32xf32>, tensor<32xf32>, tensor<32x32xf32>,
         tensor<32xf32>, tensor<32x1xf32>, tensor<1xf32>, !T)
      -> (!S, tensor<4x32xf32>, tensor<32xf32>, tensor<32x32xf32>,
          tensor<32xf32>, tensor<32x1xf32>, tensor<1xf32>)
  %r1 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<4x32xf32>
  %d1 = ens.mul %r1, %g1 : tensor<4x32xf32>
  %n1 = ens.sub %w1, %d1 : tensor<4x32xf32>
  %r2 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<32xf32>
  %d2 = ens.mul %r2, %g2 : tensor<32xf32>
  %n2 = ens.sub %b1, %d2 : tensor<32xf32>
  %r3 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<32x32xf32>
  %d3 = ens.mul %r3, %g3 : tensor<32x32xf32>
  %n3 = ens.sub %w2, %d3 : tensor<32x32xf32>
  %d4 = ens.mul %r2, %g4 : tensor<32xf32>
  %n4 = ens.sub %b2, %d4 : tensor<32xf32>
  %r5 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<32x1xf32>
  %d5 = ens.mul %r5, %g5 : tensor<32x1xf32>
  %n5 = ens.sub %w3, %d5 : tensor<32x1xf32>
  %r6 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<1xf32>
  %d6 = ens.mul %r6, %g6 : tensor<1xf32>
  %n6 = ens.sub %b3, %d6 : tensor<1xf32>
  return %n1, %n2, %n3, %n4, %n5, %n6, %l
      : tensor<4x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>,
        tensor<32x1xf32>, tensor<1xf32>, !S
}

// Each group alone: its members share the batch and the learning rate.
func.func @narrow_group(%x: !X, %t: !T, %lr: !S, %w1: tensor<8x4x8xf32>,
                        %b1: tensor<8x8xf32>, %w2: tensor<8x8x1xf32>,
                        %b2: tensor<8x1xf32>)
    -> (tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
        tensor<8x1xf32>, tensor<8xf32>) {
  %n1, %n2, %n3, %n4, %l = ens.vmap @narrow_step(%x, %t, %lr, %w1, %b1, %w2,
                                                 %b2)
      {in_axes = array<i64: -1, -1, -1, 0, 0, 0, 0>,
       out_axes = array<i64: 0, 0, 0, 0, 0>, size = 8 : i64}
      : (!X, !T, !S, tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
         tensor<8x1xf32>)
      -> (tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
          tensor<8x1xf32>, tensor<8xf32>)
  return %n1, %n2, %n3, %n4, %l
      : tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
        tensor<8x1xf32>, tensor<8xf32>
}

func.func @deep_group(%x: !X, %t: !T, %lr: !S, %w1: tensor<4x4x32xf32>,
                      %b1: tensor<4x32xf32>, %w2: tensor<4x32x32xf32>,
                      %b2: tensor<4x32xf32>, %w3: tensor<4x32x1xf32>,
                      %b3: tensor<4x1xf32>)
    -> (tensor<4x4x32xf32>, tensor<4x32xf32>, tensor<4x32x32xf32>,
        tensor<4x32xf32>, tensor<4x32x1xf32>, tensor<4x1xf32>,
        tensor<4xf32>) {
  %n1, %n2, %n3, %n4, %n5, %n6, %l = ens.vmap @deep_step(%x, %t, %lr, %w1,
                                                         %b1, %w2, %b2, %w3,
                                                         %b3)
      {in_axes = array<i64: -1, -1, -1, 0, 0, 0, 0, 0, 0>,
       out_axes = array<i64: 0, 0, 0, 0, 0, 0, 0>, size = 4 : i64}
      : (!X, !T, !S, tensor<4x4x32xf32>, tensor<4x32xf32>,
         tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<4x32x1xf32>,
         tensor<4x1xf32>)
      -> (tensor<4x4x32xf32>, tensor<4x32xf32>, tensor<4x32x32xf32>,
          tensor<4x32xf32>, tensor<4x32x1xf32>, tensor<4x1xf32>,
          tensor<4xf32>)
  return %n1, %n2, %n3, %n4, %n5, %n6, %l
      : tensor<4x4x32xf32>, tensor<4x32xf32>, tensor<4x32x32xf32>,
        tensor<4x32xf32>, tensor<4x32x1xf32>, tensor<4x1xf32>, tensor<4xf32>
}

// Both groups in one program: the shared inputs first, then each group's
// parameters; the results are each group's, in the same order.
func.func @train_step(%x: !X, %t: !T, %lr: !S, %nw1: tensor<8x4x8xf32>,
                      %nb1: tensor<8x8xf32>, %nw2: tensor<8x8x1xf32>,
                      %nb2: tensor<8x1xf32>, %dw1: tensor<4x4x32xf32>,
                      %db1: tensor<4x32xf32>, %dw2: tensor<4x32x32xf32>,
                      %db2: tensor<4x32xf32>, %dw3: tensor<4x32x1xf32>,
                      %db3: tensor<4x1xf32>)
    -> (tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
        tensor<8x1xf32>, tensor<8xf32>, tensor<4x4x32xf32>, tensor<4x32xf32>,
        tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<4x32x1xf32>,
        tensor<4x1xf32>, tensor<4xf32>) {
  %n:5 = call @narrow_group(%x, %t, %lr, %nw1, %nb1, %nw2, %nb2)
      : (!X, !T, !S, tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
         tensor<8x1xf32>)
      -> (tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
          tensor<8x1xf32>, tensor<8xf32>)
  %d:7 = call @deep_group(%x, %t, %lr, %dw1, %db1, %dw2, %db2, %dw3, %db3)
      : (!X, !T, !S, tensor<4x4x32xf32>, tensor<4x32xf32>,
         tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<4x32x1xf32>,
         tensor<4x1xf32>)
      -> (tensor<4x4x32xf32>, tensor<4x32xf32>, tensor<4x32x32xf32>,
          tensor<4x32xf32>, tensor<4x32x1xf32>, tensor<4x1xf32>,
          tensor<4xf32>)
  return %n#0, %n#1, %n#2, %n#3, %n#4, %d#0, %d#1, %d#2, %d#3, %d#4, %d#5,
         %d#6
      : tensor<8x4x8xf32>, tensor<8x8xf32>, tensor<8x8x1xf32>,
        tensor<8x1xf32>, tensor<8xf32>, tensor<4x4x32xf32>, tensor<4x32xf32>,
        tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<4x32x1xf32>,
        tensor<4x1xf32>, tensor<4xf32>
}
