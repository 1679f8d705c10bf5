// A heterogeneous ensemble of three architectures (issue #30), 8 members
// each, trained one SGD step in ONE program: each architecture is a group
// of identical members lifted over its members with its own ens.vmap, and
// the groups share nothing but the batch, its targets and the learning
// rate. They differ in width and depth:
//
//   @small_step    one member of 8 -> 16 (tanh) -> 1
//   @medium_step   one member of 8 -> 64 (tanh) -> 64 (tanh) -> 1
//   @wide_step     one member of 8 -> 128 (tanh) -> 1
//   @<name>_group  8 members of one architecture
//   @train_step    the three groups side by side
//
// On CUDA every group is one members kernel, and the three share one
// launch (docs/batching.md, "Heterogeneous ensembles"):
//
//   ens-run examples/heterogeneous_three.mlir --entry=train_step --cuda-plan
//
// test/ens-run/heterogeneous-three.mlir checks it against the interpreter
// and each group against the group alone.


!X = tensor<32x8xf32>
!T = tensor<32x1xf32>
!S = tensor<f32>

func.func @small_loss(%x: !X, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x1xf32>, %b2: tensor<1xf32>, %t: !T) -> !S {
  %z1 = ens.matmul %x, %w1 : tensor<32x8xf32>, tensor<8x16xf32> -> tensor<32x16xf32>
  %c1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<32x16xf32>
  %s1 = ens.add %z1, %c1 : tensor<32x16xf32>
  %a1 = ens.tanh %s1 : tensor<32x16xf32>
  %z2 = ens.matmul %a1, %w2 : tensor<32x16xf32>, tensor<16x1xf32> -> tensor<32x1xf32>
  %c2 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<1xf32> -> tensor<32x1xf32>
  %s2 = ens.add %z2, %c2 : tensor<32x1xf32>
  %e = ens.sub %s2, %t : !T
  %e2 = ens.square %e : !T
  %l = ens.reduce_mean %e2 {dims = array<i64: 0, 1>} : !T -> !S
  return %l : !S
}

func.func @small_step(%x: !X, %t: !T, %lr: !S, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x1xf32>, %b2: tensor<1xf32>)
    -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16x1xf32>, tensor<1xf32>, !S) {
  %l, %g0, %g1, %g2, %g3 = ens.value_and_grad @small_loss(%x, %w1, %b1, %w2, %b2, %t)
      {wrt = array<i64: 1, 2, 3, 4>}
      : (!X, tensor<8x16xf32>, tensor<16xf32>, tensor<16x1xf32>, tensor<1xf32>, !T)
      -> (!S, tensor<8x16xf32>, tensor<16xf32>, tensor<16x1xf32>, tensor<1xf32>)
  %r0 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<8x16xf32>
  %d0 = ens.mul %r0, %g0 : tensor<8x16xf32>
  %n0 = ens.sub %w1, %d0 : tensor<8x16xf32>
  %r1 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<16xf32>
  %d1 = ens.mul %r1, %g1 : tensor<16xf32>
  %n1 = ens.sub %b1, %d1 : tensor<16xf32>
  %r2 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<16x1xf32>
  %d2 = ens.mul %r2, %g2 : tensor<16x1xf32>
  %n2 = ens.sub %w2, %d2 : tensor<16x1xf32>
  %r3 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<1xf32>
  %d3 = ens.mul %r3, %g3 : tensor<1xf32>
  %n3 = ens.sub %b2, %d3 : tensor<1xf32>
  return %n0, %n1, %n2, %n3, %l : tensor<8x16xf32>, tensor<16xf32>, tensor<16x1xf32>, tensor<1xf32>, !S
}

func.func @small_group(%x: !X, %t: !T, %lr: !S, %w1: tensor<8x8x16xf32>, %b1: tensor<8x16xf32>, %w2: tensor<8x16x1xf32>, %b2: tensor<8x1xf32>)
    -> (tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>, tensor<8xf32>) {
  %o0, %o1, %o2, %o3, %o4 = ens.vmap @small_step(%x, %t, %lr, %w1, %b1, %w2, %b2)
      {in_axes = array<i64: -1, -1, -1, 0, 0, 0, 0>, out_axes = array<i64: 0, 0, 0, 0, 0>,
       size = 8 : i64}
      : (!X, !T, !S, tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>) -> (tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>, tensor<8xf32>)
  return %o0, %o1, %o2, %o3, %o4 : tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>, tensor<8xf32>
}

func.func @medium_loss(%x: !X, %w1: tensor<8x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x64xf32>, %b2: tensor<64xf32>, %w3: tensor<64x1xf32>, %b3: tensor<1xf32>, %t: !T) -> !S {
  %z1 = ens.matmul %x, %w1 : tensor<32x8xf32>, tensor<8x64xf32> -> tensor<32x64xf32>
  %c1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<64xf32> -> tensor<32x64xf32>
  %s1 = ens.add %z1, %c1 : tensor<32x64xf32>
  %a1 = ens.tanh %s1 : tensor<32x64xf32>
  %z2 = ens.matmul %a1, %w2 : tensor<32x64xf32>, tensor<64x64xf32> -> tensor<32x64xf32>
  %c2 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<64xf32> -> tensor<32x64xf32>
  %s2 = ens.add %z2, %c2 : tensor<32x64xf32>
  %a2 = ens.tanh %s2 : tensor<32x64xf32>
  %z3 = ens.matmul %a2, %w3 : tensor<32x64xf32>, tensor<64x1xf32> -> tensor<32x1xf32>
  %c3 = ens.broadcast_in_dim %b3 {dims = array<i64: 1>} : tensor<1xf32> -> tensor<32x1xf32>
  %s3 = ens.add %z3, %c3 : tensor<32x1xf32>
  %e = ens.sub %s3, %t : !T
  %e2 = ens.square %e : !T
  %l = ens.reduce_mean %e2 {dims = array<i64: 0, 1>} : !T -> !S
  return %l : !S
}

func.func @medium_step(%x: !X, %t: !T, %lr: !S, %w1: tensor<8x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x64xf32>, %b2: tensor<64xf32>, %w3: tensor<64x1xf32>, %b3: tensor<1xf32>)
    -> (tensor<8x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>, !S) {
  %l, %g0, %g1, %g2, %g3, %g4, %g5 = ens.value_and_grad @medium_loss(%x, %w1, %b1, %w2, %b2, %w3, %b3, %t)
      {wrt = array<i64: 1, 2, 3, 4, 5, 6>}
      : (!X, tensor<8x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>, !T)
      -> (!S, tensor<8x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>)
  %r0 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<8x64xf32>
  %d0 = ens.mul %r0, %g0 : tensor<8x64xf32>
  %n0 = ens.sub %w1, %d0 : tensor<8x64xf32>
  %r1 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<64xf32>
  %d1 = ens.mul %r1, %g1 : tensor<64xf32>
  %n1 = ens.sub %b1, %d1 : tensor<64xf32>
  %r2 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<64x64xf32>
  %d2 = ens.mul %r2, %g2 : tensor<64x64xf32>
  %n2 = ens.sub %w2, %d2 : tensor<64x64xf32>
  %r3 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<64xf32>
  %d3 = ens.mul %r3, %g3 : tensor<64xf32>
  %n3 = ens.sub %b2, %d3 : tensor<64xf32>
  %r4 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<64x1xf32>
  %d4 = ens.mul %r4, %g4 : tensor<64x1xf32>
  %n4 = ens.sub %w3, %d4 : tensor<64x1xf32>
  %r5 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<1xf32>
  %d5 = ens.mul %r5, %g5 : tensor<1xf32>
  %n5 = ens.sub %b3, %d5 : tensor<1xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %l : tensor<8x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<1xf32>, !S
}

func.func @medium_group(%x: !X, %t: !T, %lr: !S, %w1: tensor<8x8x64xf32>, %b1: tensor<8x64xf32>, %w2: tensor<8x64x64xf32>, %b2: tensor<8x64xf32>, %w3: tensor<8x64x1xf32>, %b3: tensor<8x1xf32>)
    -> (tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>, tensor<8xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6 = ens.vmap @medium_step(%x, %t, %lr, %w1, %b1, %w2, %b2, %w3, %b3)
      {in_axes = array<i64: -1, -1, -1, 0, 0, 0, 0, 0, 0>, out_axes = array<i64: 0, 0, 0, 0, 0, 0, 0>,
       size = 8 : i64}
      : (!X, !T, !S, tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>) -> (tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>, tensor<8xf32>)
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>, tensor<8xf32>
}

func.func @wide_loss(%x: !X, %w1: tensor<8x128xf32>, %b1: tensor<128xf32>, %w2: tensor<128x1xf32>, %b2: tensor<1xf32>, %t: !T) -> !S {
  %z1 = ens.matmul %x, %w1 : tensor<32x8xf32>, tensor<8x128xf32> -> tensor<32x128xf32>
  %c1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<128xf32> -> tensor<32x128xf32>
  %s1 = ens.add %z1, %c1 : tensor<32x128xf32>
  %a1 = ens.tanh %s1 : tensor<32x128xf32>
  %z2 = ens.matmul %a1, %w2 : tensor<32x128xf32>, tensor<128x1xf32> -> tensor<32x1xf32>
  %c2 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<1xf32> -> tensor<32x1xf32>
  %s2 = ens.add %z2, %c2 : tensor<32x1xf32>
  %e = ens.sub %s2, %t : !T
  %e2 = ens.square %e : !T
  %l = ens.reduce_mean %e2 {dims = array<i64: 0, 1>} : !T -> !S
  return %l : !S
}

func.func @wide_step(%x: !X, %t: !T, %lr: !S, %w1: tensor<8x128xf32>, %b1: tensor<128xf32>, %w2: tensor<128x1xf32>, %b2: tensor<1xf32>)
    -> (tensor<8x128xf32>, tensor<128xf32>, tensor<128x1xf32>, tensor<1xf32>, !S) {
  %l, %g0, %g1, %g2, %g3 = ens.value_and_grad @wide_loss(%x, %w1, %b1, %w2, %b2, %t)
      {wrt = array<i64: 1, 2, 3, 4>}
      : (!X, tensor<8x128xf32>, tensor<128xf32>, tensor<128x1xf32>, tensor<1xf32>, !T)
      -> (!S, tensor<8x128xf32>, tensor<128xf32>, tensor<128x1xf32>, tensor<1xf32>)
  %r0 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<8x128xf32>
  %d0 = ens.mul %r0, %g0 : tensor<8x128xf32>
  %n0 = ens.sub %w1, %d0 : tensor<8x128xf32>
  %r1 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<128xf32>
  %d1 = ens.mul %r1, %g1 : tensor<128xf32>
  %n1 = ens.sub %b1, %d1 : tensor<128xf32>
  %r2 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<128x1xf32>
  %d2 = ens.mul %r2, %g2 : tensor<128x1xf32>
  %n2 = ens.sub %w2, %d2 : tensor<128x1xf32>
  %r3 = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> tensor<1xf32>
  %d3 = ens.mul %r3, %g3 : tensor<1xf32>
  %n3 = ens.sub %b2, %d3 : tensor<1xf32>
  return %n0, %n1, %n2, %n3, %l : tensor<8x128xf32>, tensor<128xf32>, tensor<128x1xf32>, tensor<1xf32>, !S
}

func.func @wide_group(%x: !X, %t: !T, %lr: !S, %w1: tensor<8x8x128xf32>, %b1: tensor<8x128xf32>, %w2: tensor<8x128x1xf32>, %b2: tensor<8x1xf32>)
    -> (tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>, tensor<8xf32>) {
  %o0, %o1, %o2, %o3, %o4 = ens.vmap @wide_step(%x, %t, %lr, %w1, %b1, %w2, %b2)
      {in_axes = array<i64: -1, -1, -1, 0, 0, 0, 0>, out_axes = array<i64: 0, 0, 0, 0, 0>,
       size = 8 : i64}
      : (!X, !T, !S, tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>) -> (tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>, tensor<8xf32>)
  return %o0, %o1, %o2, %o3, %o4 : tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>, tensor<8xf32>
}

// The three groups in one program: the shared inputs first, then each
// group's parameters; the results are each group's, in the same order.
func.func @train_step(%x: !X, %t: !T, %lr: !S, %sw1: tensor<8x8x16xf32>, %sb1: tensor<8x16xf32>, %sw2: tensor<8x16x1xf32>, %sb2: tensor<8x1xf32>, %mw1: tensor<8x8x64xf32>, %mb1: tensor<8x64xf32>, %mw2: tensor<8x64x64xf32>, %mb2: tensor<8x64xf32>, %mw3: tensor<8x64x1xf32>, %mb3: tensor<8x1xf32>, %ww1: tensor<8x8x128xf32>, %wb1: tensor<8x128xf32>, %ww2: tensor<8x128x1xf32>, %wb2: tensor<8x1xf32>)
    -> (tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>, tensor<8xf32>, tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>, tensor<8xf32>, tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>, tensor<8xf32>) {
  %small:5 = call @small_group(%x, %t, %lr, %sw1, %sb1, %sw2, %sb2)
      : (!X, !T, !S, tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>) -> (tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>, tensor<8xf32>)
  %medium:7 = call @medium_group(%x, %t, %lr, %mw1, %mb1, %mw2, %mb2, %mw3, %mb3)
      : (!X, !T, !S, tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>) -> (tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>, tensor<8xf32>)
  %wide:5 = call @wide_group(%x, %t, %lr, %ww1, %wb1, %ww2, %wb2)
      : (!X, !T, !S, tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>) -> (tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>, tensor<8xf32>)
  return %small#0, %small#1, %small#2, %small#3, %small#4, %medium#0, %medium#1, %medium#2, %medium#3, %medium#4, %medium#5, %medium#6, %wide#0, %wide#1, %wide#2, %wide#3, %wide#4 : tensor<8x8x16xf32>, tensor<8x16xf32>, tensor<8x16x1xf32>, tensor<8x1xf32>, tensor<8xf32>, tensor<8x8x64xf32>, tensor<8x64xf32>, tensor<8x64x64xf32>, tensor<8x64xf32>, tensor<8x64x1xf32>, tensor<8x1xf32>, tensor<8xf32>, tensor<8x8x128xf32>, tensor<8x128xf32>, tensor<8x128x1xf32>, tensor<8x1xf32>, tensor<8xf32>
}
