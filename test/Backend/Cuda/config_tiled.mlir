// The decisions of the tiled strategy (--cuda-strategy=tiled, lib/Backend/
// Cuda/Planning.cpp) for a loop over members, line by line: every op of the
// loop body is a phase with a kernel of its own, unless it touches no
// global buffer that an earlier phase of a launch writes, or writes none
// that it reads: then it runs in that launch from the block after the
// blocks of the phases before it (planTiledLaunches); each temporary of a member is
// either a global buffer with a slice per member or, for a contraction's
// result that its fused epilogue consumes, registers; no shared memory;
// per phase the blocks of each member (and their threads where the model
// picks fewer than 256 for the launch: 128 or 64, emitTiledLaunchThreads),
// the register tile of a contraction, or a block reduction. The kernels themselves are checked by
// tiled-boundaries.mlir; the two functions here also run on cuda-emu against
// the interpreter. Each expected value is worked out by hand, as the
// comments show; the rules are listed in tiled-boundaries.mlir's header:
// an op with a reduction is a block reduction if its output elements of all
// members are fewer than 264 * 256 = 67584 and it has at least 256 steps,
// a block's threads (whose thread 0 applies a fused epilogue to each
// element); otherwise a contraction computes points in
// tiles of min(range, 4) over the output's innermost loop (columns) and
// another parallel loop (rows); blocks per member are the member's points,
// tiled loops counted in tiles, over 256 threads, rounded up, or for a
// block reduction one per output element (and chunk). Plan buffers are
// numbered arguments first, then results, then temporaries in order.
//
// RUN: ens-run %s --entry=two_layers --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=LAYERS
// RUN: ens-run %s --entry=wide --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=WIDE
// RUN: ens-run %s --entry=side_by_side --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=SIDE
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=two_layers --random-inputs=1 --output-dir=%t/layers
// RUN: ens-run %s --entry=two_layers --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/layers/out0.npy
// RUN: ens-run %s --entry=wide --random-inputs=2 --output-dir=%t/wide
// RUN: ens-run %s --entry=wide --random-inputs=2 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/wide/out0.npy
// RUN: ens-run %s --entry=side_by_side --random-inputs=3 --output-dir=%t/side
// RUN: ens-run %s --entry=side_by_side --random-inputs=3 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/side/out0.npy --expect=%t/side/out1.npy --expect=%t/side/out2.npy

// config_member_per_block.mlir's @two_layers: per member h = tanh(x w1)
// (64x16), y = h w2 (64x8); x is shared. Buffers: x 0, w1 1, w2 2, y 3.
// x w1: 8 members * 64 * 16 = 8192 output elements, fewer than 67584,
// but only 32 steps, fewer than 256: points, with tanh as its fused
// epilogue, so its result (temporary 0) stays in registers and the
// epilogue's (temporary 1, h, 64 * 16 * 4 = 4096 bytes) is global buffer
// 4. Columns d2 (the output's innermost loop, 16); rows d1 (64: x follows
// d1 and not d2, w1 d2 and not d1): 4x4 tiles, 16 * 4 = 64 tiles, 1 block
// per member.
// h w2: 16 steps: points. Columns d2 (8), rows d1 (64): 4x4 tiles, 16 * 2
// = 32 tiles, 1 block per member.
// LAYERS:      loop: tiled, 8 members, 256 threads, 0 bytes of shared memory
// LAYERS-NEXT:   temporary 0: memref<1x64x16xf32>, registers
// LAYERS-NEXT:   temporary 1: memref<1x64x16xf32>, 4096 bytes, global buffer 4
// LAYERS-NEXT:   phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.tanh
// LAYERS-NEXT:   phase 1: kernel k1_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2; ens.einsum
// LAYERS-NOT: {{.}}

func.func @two_layers_member(%x: tensor<64x32xf32>, %w1: tensor<32x16xf32>,
                             %w2: tensor<16x8xf32>) -> tensor<64x8xf32> {
  %a = ens.matmul %x, %w1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  %h = ens.tanh %a : tensor<64x16xf32>
  %y = ens.matmul %h, %w2 : tensor<64x16xf32>, tensor<16x8xf32> -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}

func.func @two_layers(%x: tensor<64x32xf32>, %w1: tensor<8x32x16xf32>,
                      %w2: tensor<8x16x8xf32>) -> tensor<8x64x8xf32> {
  %y = ens.vmap @two_layers_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<64x32xf32>, tensor<8x32x16xf32>, tensor<8x16x8xf32>) -> tensor<8x64x8xf32>
  return %y : tensor<8x64x8xf32>
}

// Two layers over a batch of 200 with a bias, 40 members: h = tanh(x w1 +
// b1) (200x48), y = h w2 (200x10). Buffers: x 0, w1 1, b1 2, w2 3, y 4.
// x w1: 24 steps, and 40 * 200 * 48 = 384000 output elements: points,
// in 4x4 tiles of d1 (200), d2 (48): 50 * 12 = 600 tiles, ceil(600 / 256)
// = 3 blocks per member. The add and tanh are its fused epilogue: its
// result (temporary 0) stays in registers, and the epilogue's (temporary
// 1, h, 200 * 48 * 4 = 38400 bytes) is global buffer 5.
// h w2: 48 steps (and 40 * 200 * 10 = 80000 output elements, more than
// 67584): points, 4x4 tiles of d1 (200), d2 (10): 50 * 3 = 150 tiles, 1
// block of 256 threads per member, 40 blocks on 132 SMs. The model picks
// 128 threads for its launch: ceil(150 / 128) = 2 blocks per member, 80
// blocks, each SM's share of the traffic half as large (the estimate with
// 64 threads, 120 blocks, is no lower).
// WIDE:      loop: tiled, 40 members, 256 threads, 0 bytes of shared memory
// WIDE-NEXT:   temporary 0: memref<1x200x48xf32>, registers
// WIDE-NEXT:   temporary 1: memref<1x200x48xf32>, 38400 bytes, global buffer 5
// WIDE-NEXT:   phase 0: kernel k0_tiled, 3 blocks per member, points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.add, ens.tanh
// WIDE-NEXT:   phase 1: kernel k1_tiled, 2 blocks of 128 threads per member, points in 4x4 tiles of d1, d2; ens.einsum
// WIDE-NOT: {{.}}

func.func @wide_member(%x: tensor<200x24xf32>, %w1: tensor<24x48xf32>, %b1: tensor<48xf32>,
                         %w2: tensor<48x10xf32>) -> tensor<200x10xf32> {
  %a = ens.matmul %x, %w1 : tensor<200x24xf32>, tensor<24x48xf32> -> tensor<200x48xf32>
  %bb = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<48xf32> -> tensor<200x48xf32>
  %s = ens.add %a, %bb : tensor<200x48xf32>
  %h = ens.tanh %s : tensor<200x48xf32>
  %y = ens.matmul %h, %w2 : tensor<200x48xf32>, tensor<48x10xf32> -> tensor<200x10xf32>
  return %y : tensor<200x10xf32>
}

func.func @wide(%x: tensor<200x24xf32>, %w1: tensor<40x24x48xf32>, %b1: tensor<40x48xf32>,
                  %w2: tensor<40x48x10xf32>) -> tensor<40x200x10xf32> {
  %y = ens.vmap @wide_member(%x, %w1, %b1, %w2) {in_axes = array<i64: -1, 0, 0, 0>, out_axes = array<i64: 0>, size = 40 : i64}
      : (tensor<200x24xf32>, tensor<40x24x48xf32>, tensor<40x48xf32>, tensor<40x48x10xf32>) -> tensor<40x200x10xf32>
  return %y : tensor<40x200x10xf32>
}

// Three independent ops and one that reads the first, 8 members. Buffers:
// x 0, w1 1, w2 2, v 3, s 4, c 5, t 6; a (64 * 16 * 4 = 4096 bytes) is
// global buffer 7.
// a = x w1: 32 steps, points in 4x4 tiles of d1 (64), d2 (16): 16 * 4 =
// 64 tiles, 1 block per member: blocks 0-7 of launch 0.
// c = x w2: reads x and w2, writes c, none of which a touches: launch 0,
// 4x4 tiles of d1 (64), d2 (8): 32 tiles, 1 block per member, from block 8.
// t = sum(v): 8 output elements and 1024 steps: a block reduction, a block
// per member; it touches neither a nor c: launch 0 from block 16.
// s = sum of a over its 64 rows: reads a, which launch 0 writes: launch 1,
// alone. 64 steps, fewer than 256: points.
// SIDE:      loop: tiled, 8 members, 256 threads, 0 bytes of shared memory
// SIDE-NEXT:   temporary 0: memref<1x64x16xf32>, 4096 bytes, global buffer 7
// SIDE-NEXT:   phase 0: kernel k0_tiled from block 0, 1 blocks per member, points in 4x4 tiles of d1, d2; ens.einsum
// SIDE-NEXT:   phase 1: kernel k0_tiled from block 8, 1 blocks per member, points in 4x4 tiles of d1, d2; ens.einsum
// SIDE-NEXT:   phase 2: kernel k0_tiled from block 16, 1 blocks per member, block reduction (arith.addf); ens.reduce_sum
// SIDE-NEXT:   phase 3: kernel k1_tiled, 1 blocks per member, points; ens.reduce_sum
// SIDE-NOT: {{.}}

func.func @side_by_side_member(%x: tensor<64x32xf32>, %w1: tensor<32x16xf32>,
                               %w2: tensor<32x8xf32>, %v: tensor<1024xf32>)
    -> (tensor<16xf32>, tensor<64x8xf32>, tensor<f32>) {
  %a = ens.matmul %x, %w1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  %c = ens.matmul %x, %w2 : tensor<64x32xf32>, tensor<32x8xf32> -> tensor<64x8xf32>
  %t = ens.reduce_sum %v {dims = array<i64: 0>} : tensor<1024xf32> -> tensor<f32>
  %s = ens.reduce_sum %a {dims = array<i64: 0>} : tensor<64x16xf32> -> tensor<16xf32>
  return %s, %c, %t : tensor<16xf32>, tensor<64x8xf32>, tensor<f32>
}

func.func @side_by_side(%x: tensor<64x32xf32>, %w1: tensor<8x32x16xf32>,
                        %w2: tensor<8x32x8xf32>, %v: tensor<8x1024xf32>)
    -> (tensor<8x16xf32>, tensor<8x64x8xf32>, tensor<8xf32>) {
  %s, %c, %t = ens.vmap @side_by_side_member(%x, %w1, %w2, %v) {in_axes = array<i64: -1, 0, 0, 0>, out_axes = array<i64: 0, 0, 0>, size = 8 : i64}
      : (tensor<64x32xf32>, tensor<8x32x16xf32>, tensor<8x32x8xf32>, tensor<8x1024xf32>) -> (tensor<8x16xf32>, tensor<8x64x8xf32>, tensor<8xf32>)
  return %s, %c, %t : tensor<8x16xf32>, tensor<8x64x8xf32>, tensor<8xf32>
}
