// What runs in registers inside one phase of a loop over members (lib/
// Backend/Cuda/Epilogues.cpp), under both strategies, line by line: a
// contraction's epilogue may be any later op of the loop body, not only the
// next, and an elementwise op that reads what an earlier elementwise op
// writes, at the same points, joins it. Both move an op up past others,
// which is allowed only when the ops in between write nothing it reads and
// touch nothing it writes. Each expected line is worked out by hand below;
// the rules for tiles and blocks are those of config_tiled.mlir. Both
// functions also run on cuda-emu against the interpreter, with each
// strategy.
//
// RUN: ens-run %s --entry=later --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=LATER
// RUN: ens-run %s --entry=later --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=LATER-MPB
// RUN: ens-run %s --entry=chain --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=CHAIN
// RUN: ens-run %s --entry=chain --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=CHAIN-MPB
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=later --random-inputs=1 --output-dir=%t/later
// RUN: ens-run %s --entry=later --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/later/out0.npy --expect=%t/later/out1.npy
// RUN: ens-run %s --entry=later --random-inputs=1 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/later/out0.npy --expect=%t/later/out1.npy
// RUN: ens-run %s --entry=chain --random-inputs=2 --output-dir=%t/chain
// RUN: ens-run %s --entry=chain --random-inputs=2 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/chain/out0.npy --expect=%t/chain/out1.npy
// RUN: ens-run %s --entry=chain --random-inputs=2 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/chain/out0.npy --expect=%t/chain/out1.npy

// Per member a = x w1 and b = x w2 (16x12 each, 8 steps), r = relu(a);
// the body computes a, then b, then r, as autodiff orders a backward pass
// (a layer's weight gradient between the gradient of its input and the
// activation's derivative). Buffers: x 0, w1 1, w2 2, r 3, b 4.
// a: 8 steps, points in 4x4 tiles of d1 (16 rows), d2 (12 columns): 4 * 3 =
// 12 tiles, 1 block per member. The relu reads a, and nothing else does,
// but b is computed between them: b reads x and w2 and writes buffer 4,
// none of which the relu reads (a, in registers) or writes (buffer 3), so
// the relu moves up and is a's fused epilogue; a's result (temporary 0)
// never reaches memory.
// b: the same tiles, 1 block per member. It touches nothing that a and its
// epilogue write, so the tiled strategy runs it in the same launch, from
// block 6 (after a's 6 members). 12 tiles in one block per member whatever
// the threads: the model keeps 256.
// LATER:      loop: tiled, 6 members, 256 threads, 0 bytes of shared memory
// LATER-NEXT:   temporary 0: memref<1x16x12xf32>, registers
// LATER-NEXT:   phase 0: kernel k0_tiled from block 0, 1 blocks per member, points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.relu
// LATER-NEXT:   phase 1: kernel k0_tiled from block 6, 1 blocks per member, points in 4x4 tiles of d1, d2; ens.einsum
// LATER-NOT: {{.}}
// LATER-MPB:      kernel k0_members: member-per-block, 6 members
// LATER-MPB-NEXT:   temporary 0: memref<1x16x12xf32>, registers
// LATER-MPB-NEXT:   phase 0: points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.relu
// LATER-MPB:        phase 1: points in 4x4 tiles of d1, d2; ens.einsum

func.func @later_member(%x: tensor<16x8xf32>, %w1: tensor<8x12xf32>,
                        %w2: tensor<8x12xf32>)
    -> (tensor<16x12xf32>, tensor<16x12xf32>) {
  %a = ens.matmul %x, %w1 : tensor<16x8xf32>, tensor<8x12xf32> -> tensor<16x12xf32>
  %b = ens.matmul %x, %w2 : tensor<16x8xf32>, tensor<8x12xf32> -> tensor<16x12xf32>
  %r = ens.relu %a : tensor<16x12xf32>
  return %r, %b : tensor<16x12xf32>, tensor<16x12xf32>
}

func.func @later(%x: tensor<16x8xf32>, %w1: tensor<6x8x12xf32>,
                 %w2: tensor<6x8x12xf32>)
    -> (tensor<6x16x12xf32>, tensor<6x16x12xf32>) {
  %r, %b = ens.vmap @later_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0, 0>, size = 6 : i64}
      : (tensor<16x8xf32>, tensor<6x8x12xf32>, tensor<6x8x12xf32>) -> (tensor<6x16x12xf32>, tensor<6x16x12xf32>)
  return %r, %b : tensor<6x16x12xf32>, tensor<6x16x12xf32>
}

// A loss and its gradient, as the MSE of the standard library and autodiff
// write them: per member y = x w (16x12, 8 steps), d = y - t, l = sum of
// d^2 (through a reshape, which keeps the square out of the sum), g = 0.5 d.
// Buffers: x 0, w 1, t 2, l 3, g 4; temporaries: y (registers), d and d^2
// (16 * 12 * 4 = 768 bytes each, global buffers 5 and 6 with the tiled
// strategy).
// ens-fuse-elementwise makes d and d^2 one op, y's epilogue (1 block per
// member, as @later's a). The scaling g = 0.5 d comes after the sum, an op
// of its own: it reads d at the points where the epilogue writes it, and
// the sum between them writes neither d nor g, so it joins the epilogue
// (mergeElementwiseChains) and takes d in registers: one phase computes
// y, d, d^2 and g.
// The sum: 192 steps, fewer than 256: points, 1 block per member. It reads
// d^2, which phase 0 writes: a launch of its own.
// CHAIN:      loop: tiled, 6 members, 256 threads, 0 bytes of shared memory
// CHAIN-NEXT:   temporary 0: memref<1x16x12xf32>, registers
// CHAIN-NEXT:   temporary 1: memref<1x16x12xf32>, 768 bytes, global buffer 5
// CHAIN-NEXT:   temporary 2: memref<1x16x12xf32>, 768 bytes, global buffer 6
// CHAIN-NEXT:   phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.sub, ens.square, ens.mul
// CHAIN-NEXT:   phase 1: kernel k1_tiled, 1 blocks per member, points; ens.reduce_sum
// CHAIN-NOT: {{.}}
// CHAIN-MPB:      kernel k0_members: member-per-block, 6 members
// CHAIN-MPB:        phase 0: points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.sub, ens.square, ens.mul
// CHAIN-MPB:        phase 1: block reduction (arith.addf); ens.reduce_sum
// CHAIN-MPB-NOT:    phase 2

func.func @chain_member(%x: tensor<16x8xf32>, %w: tensor<8x12xf32>,
                        %t: tensor<16x12xf32>)
    -> (tensor<f32>, tensor<16x12xf32>) {
  %y = ens.matmul %x, %w : tensor<16x8xf32>, tensor<8x12xf32> -> tensor<16x12xf32>
  %d = ens.sub %y, %t : tensor<16x12xf32>
  %sq = ens.square %d : tensor<16x12xf32>
  %flat = ens.reshape %sq : tensor<16x12xf32> -> tensor<192xf32>
  %l = ens.reduce_sum %flat {dims = array<i64: 0>} : tensor<192xf32> -> tensor<f32>
  %c = ens.constant dense<0.5> : tensor<16x12xf32>
  %g = ens.mul %d, %c : tensor<16x12xf32>
  return %l, %g : tensor<f32>, tensor<16x12xf32>
}

func.func @chain(%x: tensor<16x8xf32>, %w: tensor<6x8x12xf32>,
                 %t: tensor<16x12xf32>)
    -> (tensor<6xf32>, tensor<6x16x12xf32>) {
  %l, %g = ens.vmap @chain_member(%x, %w, %t) {in_axes = array<i64: -1, 0, -1>, out_axes = array<i64: 0, 0>, size = 6 : i64}
      : (tensor<16x8xf32>, tensor<6x8x12xf32>, tensor<16x12xf32>) -> (tensor<6xf32>, tensor<6x16x12xf32>)
  return %l, %g : tensor<6xf32>, tensor<6x16x12xf32>
}
