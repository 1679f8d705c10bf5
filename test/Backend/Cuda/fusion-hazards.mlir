// Programs where fusing a contraction with its epilogue must not happen or
// must not reuse memory too early; each runs on the emulated CUDA kernels
// and is checked against the interpreter.
//
// RUN: rm -rf %t && mkdir -p %t
// A contraction's result that is also returned, at the top level and in a
// loop over members, is still written.
// RUN: ens-run %s --entry=both --random-inputs=1 --output-dir=%t/both
// RUN: ens-run %s --entry=both --random-inputs=1 --backend=cuda-emu --rtol=1e-5 --atol=1e-6 --expect=%t/both/out0.npy --expect=%t/both/out1.npy
// RUN: ens-run %s --entry=members_both --random-inputs=2 --output-dir=%t/members
// RUN: ens-run %s --entry=members_both --random-inputs=2 --backend=cuda-emu --rtol=1e-5 --atol=1e-6 --expect=%t/members/out0.npy --expect=%t/members/out1.npy
// A contraction that reads a temporary for the last time while its
// epilogue writes a new one: the two must not share shared memory.
// RUN: ens-run %s --entry=three_layers --random-inputs=3 --output-dir=%t/three
// RUN: ens-run %s --entry=three_layers --random-inputs=3 --backend=cuda-emu --rtol=1e-5 --atol=1e-6 --expect=%t/three/out0.npy

func.func @both(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %h = ens.matmul %x, %w : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  %t = ens.tanh %h : tensor<64x16xf32>
  return %h, %t : tensor<64x16xf32>, tensor<64x16xf32>
}

func.func @member_both(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %h = ens.matmul %x, %w : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  %t = ens.tanh %h : tensor<64x16xf32>
  return %h, %t : tensor<64x16xf32>, tensor<64x16xf32>
}

func.func @members_both(%x: tensor<64x32xf32>, %w: tensor<4x32x16xf32>)
    -> (tensor<4x64x16xf32>, tensor<4x64x16xf32>) {
  %r:2 = ens.vmap @member_both(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0, 0>, size = 4 : i64}
      : (tensor<64x32xf32>, tensor<4x32x16xf32>) -> (tensor<4x64x16xf32>, tensor<4x64x16xf32>)
  return %r#0, %r#1 : tensor<4x64x16xf32>, tensor<4x64x16xf32>
}

func.func @layers(%x: tensor<64x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>,
                  %w3: tensor<16x4xf32>, %b: tensor<16xf32>) -> tensor<64x4xf32> {
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<16xf32> -> tensor<64x16xf32>
  %a1 = ens.matmul %x, %w1 : tensor<64x16xf32>, tensor<16x16xf32> -> tensor<64x16xf32>
  %s1 = ens.add %a1, %bb : tensor<64x16xf32>
  %h1 = ens.tanh %s1 : tensor<64x16xf32>
  %a2 = ens.matmul %h1, %w2 : tensor<64x16xf32>, tensor<16x16xf32> -> tensor<64x16xf32>
  %s2 = ens.add %a2, %bb : tensor<64x16xf32>
  %h2 = ens.tanh %s2 : tensor<64x16xf32>
  %y = ens.matmul %h2, %w3 : tensor<64x16xf32>, tensor<16x4xf32> -> tensor<64x4xf32>
  return %y : tensor<64x4xf32>
}

func.func @three_layers(%x: tensor<8x64x16xf32>, %w1: tensor<8x16x16xf32>, %w2: tensor<8x16x16xf32>,
                        %w3: tensor<8x16x4xf32>, %b: tensor<8x16xf32>) -> tensor<8x64x4xf32> {
  %r = ens.vmap @layers(%x, %w1, %w2, %w3, %b) {in_axes = array<i64: 0, 0, 0, 0, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<8x64x16xf32>, tensor<8x16x16xf32>, tensor<8x16x16xf32>, tensor<8x16x4xf32>, tensor<8x16xf32>) -> tensor<8x64x4xf32>
  return %r : tensor<8x64x4xf32>
}
