// The decisions of the members-per-block strategy (lib/Backend/Cuda/
// Planning.cpp, and the members per block in MemberKernelEmitter.cpp),
// apart from the kernels that follow them (members-per-block.mlir runs
// them): a warp per member, each member's slice of shared memory, the
// members per block, and, with --cuda-strategy=auto, when the performance
// model picks the strategy. Each expected value is worked out by hand, as
// the comments show.
//
// RUN: ens-run %s --entry=layers --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=LAYERS
// RUN: ens-run %s --entry=sum10 --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=SUM10
// RUN: ens-run %s --entry=sum10 --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=SUM10-BLOCK
// RUN: ens-run %s --entry=shared --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=SHARED
// RUN: ens-run %s --entry=tiny_many --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=MANY
// RUN: ens-run %s --entry=tiny_many --cuda-plan | FileCheck %s --check-prefix=MANY-AUTO
// RUN: ens-run %s --entry=tiny_few --cuda-plan | FileCheck %s --check-prefix=FEW-AUTO

// Per member, the two layers of config_member_per_block.mlir, with the same
// temporaries and staging: h (4 KiB) at 0; phase 0 stages x (8 KiB) at 4096
// and w1 (2 KiB) at 12288, phase 1 w2 (512 bytes) at 4096. A member's slice
// is 4096 + 8192 + 2048 = 14336 bytes, a warp its threads.
// Members per block tried: at most 1024 / 32 = 32 by threads and 164864 /
// 14336 = 11 by shared memory, and no fewer blocks than the 132 SMs of an
// H100: ceil(301 / 2) = 151 blocks, but ceil(301 / 4) = 76. So 2 or 1,
// whichever the model estimates faster; the block's threads and shared
// memory are that many members'.
// LAYERS:      kernel k0_members: members-per-block, 301 members, {{32 threads, 14336|64 threads, 28672}} bytes of shared memory
// LAYERS-NEXT:   per block: {{1|2}} members; per member: 32 threads, 14336 bytes of shared memory
// LAYERS-NEXT:   temporary 0: memref<1x64x16xf32>, registers
// LAYERS-NEXT:   temporary 1: memref<1x64x16xf32>, 4096 bytes, shared at 0
// LAYERS-NEXT:   phase 0: points in 4x4 tiles of d1, d2, consecutive along d2 with fused epilogue; {{.*}}ens.tanh
// LAYERS-NEXT:     stage operand 0: 8192 bytes, shared at 4096
// LAYERS-NEXT:     stage operand 1: 2048 bytes, shared at 12288
// LAYERS-NEXT:   phase 1: points in 4x4 tiles of d1, d2, consecutive along d2; {{.+}}
// LAYERS-NEXT:     stage operand 1: 512 bytes, shared at 4096
// LAYERS-NOT: {{.}}

func.func @layers_member(%x: tensor<64x32xf32>, %w1: tensor<32x16xf32>,
                         %w2: tensor<16x8xf32>) -> tensor<64x8xf32> {
  %a = ens.matmul %x, %w1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  %h = ens.tanh %a : tensor<64x16xf32>
  %y = ens.matmul %h, %w2 : tensor<64x16xf32>, tensor<16x8xf32> -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}

func.func @layers(%x: tensor<64x32xf32>, %w1: tensor<301x32x16xf32>,
                  %w2: tensor<301x16x8xf32>) -> tensor<301x64x8xf32> {
  %y = ens.vmap @layers_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 301 : i64}
      : (tensor<64x32xf32>, tensor<301x32x16xf32>, tensor<301x16x8xf32>) -> tensor<301x64x8xf32>
  return %y : tensor<301x64x8xf32>
}

// A sum of 10 steps, one output element. Whole elements per thread take 10
// steps; shared among a warp, ceil(10 / 32) = 1 step and 5 for the
// shuffles, 6: the warp shares them (ReductionBlocks::Warp). Shared among a
// block of 256 threads, 1 step and 12 for two barriers and the shuffles,
// 13 > 10: member-per-block computes it in points. 6 members: one per
// block (ceil(6 / 2) = 3 blocks would be fewer than the 6 members).
// SUM10:      kernel k0_members: members-per-block, 6 members, 32 threads, 0 bytes of shared memory
// SUM10-NEXT:   per block: 1 members; per member: 32 threads, 0 bytes of shared memory
// SUM10-NEXT:   phase 0: block reduction (arith.addf); ens.reduce_sum
// SUM10-NOT: {{.}}
// SUM10-BLOCK:      kernel k0_members: member-per-block, 6 members, 256 threads, 0 bytes of shared memory
// SUM10-BLOCK-NEXT:   phase 0: points; ens.reduce_sum
// SUM10-BLOCK-NOT: {{.}}

func.func @sum10_member(%x: tensor<10xf32>) -> tensor<f32> {
  %r = ens.reduce_sum %x {dims = array<i64: 0>} : tensor<10xf32> -> tensor<f32>
  return %r : tensor<f32>
}

func.func @sum10(%x: tensor<6x10xf32>) -> tensor<6xf32> {
  %r = ens.vmap @sum10_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 6 : i64}
      : (tensor<6x10xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// Shared memory bounds the members per block: t = tanh(x) (100x100 floats,
// 40000 bytes) lives in shared memory for t t, and nothing is staged (x is
// read once per element). 164864 / 40000 = 4 members at most; 4, 2 and 1
// are tried (4096 / 4 = 1024 blocks, more than 132). All three are
// compute-bound (t t is 8 GFLOP) with the same share of the FLOPs per SM,
// 1/128, and at least 4 warps resident on it (4 by 1 block of 128
// threads, 2 by 2 of 64, 5 by 5 of 32, as shared memory allows), so the
// estimates are equal and the model keeps the first, 4.
// SHARED:      kernel k0_members: members-per-block, 4096 members, 128 threads, 160000 bytes of shared memory
// SHARED-NEXT:   per block: 4 members; per member: 32 threads, 40000 bytes of shared memory
// SHARED-NEXT:   temporary 0: memref<1x100x100xf32>, 40000 bytes, shared at 0
// SHARED-NEXT:   phase 0: points; ens.tanh
// SHARED-NEXT:   phase 1: points in 4x4 tiles of d1, d2, consecutive along d2; ens.einsum
// SHARED-NOT: {{.}}

func.func @shared_member(%x: tensor<100x100xf32>) -> tensor<100x100xf32> {
  %t = ens.tanh %x : tensor<100x100xf32>
  %y = ens.matmul %t, %t : tensor<100x100xf32>, tensor<100x100xf32> -> tensor<100x100xf32>
  return %y : tensor<100x100xf32>
}

func.func @shared(%x: tensor<4096x100x100xf32>) -> tensor<4096x100x100xf32> {
  %y = ens.vmap @shared_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4096 : i64}
      : (tensor<4096x100x100xf32>) -> tensor<4096x100x100xf32>
  return %y : tensor<4096x100x100xf32>
}

// Very many tiny members: 4096 of a 4 -> 8 tanh -> 1 network on a batch of
// 32 shared by all. Per member: h (32x8, 1024 bytes) at 0; phase 0 stages
// x (512 bytes, read 8 times per element) at 1024 and w1 (128 bytes, read
// 32 times) at 1536; phase 1 stages w2 (32 bytes) at 1024. The slice is
// 1024 + 512 + 128 = 1664 bytes. Members per block tried: 16, 8, 4, 2, 1
// (32 would make 128 blocks, fewer than 132 SMs). Each runs in one wave
// (16 per block: 256 blocks of 512 threads, 4 resident per SM, 2 to run),
// with 1/128 of the work per SM, a few MFLOP in all: each estimate is the
// DRAM latency of the two phases, one after the other (2 x 0.5 us), and
// the launch (3 us), 4.0 us; the first of equals, 16, is kept.
// MANY:      kernel k0_members: members-per-block, 4096 members, 512 threads, 26624 bytes of shared memory
// MANY-NEXT:   per block: 16 members; per member: 32 threads, 1664 bytes of shared memory
// MANY-NEXT:   temporary 0: memref<1x32x8xf32>, registers
// MANY-NEXT:   temporary 1: memref<1x32x8xf32>, 1024 bytes, shared at 0
// MANY-NEXT:   phase 0: points in 4x4 tiles of d1, d2, consecutive along d2 with fused epilogue; {{.*}}ens.tanh
// MANY-NEXT:     stage operand 0: 512 bytes, shared at 1024
// MANY-NEXT:     stage operand 1: 128 bytes, shared at 1536
// MANY-NEXT:   phase 1: points; {{.+}}
// MANY-NEXT:     stage operand 1: 32 bytes, shared at 1024
// MANY-NOT: {{.}}
// The model's pick: member-per-block runs 4096 blocks of 256 threads, 8 at
// a time per SM (2048 threads), 32 per SM: 4 waves of the two phases'
// latency, 4 x 2 x 0.5 us + 3 us = 7.0 us, against 4.0 us.
// MANY-AUTO:      kernel k0_members: members-per-block, 4096 members, 512 threads, 26624 bytes of shared memory
// MANY-AUTO-NEXT:   per block: 16 members; per member: 32 threads, 1664 bytes of shared memory
// MANY-AUTO-NEXT:   chosen by the H100 estimates: member-per-block 7.0 us, tiled {{[0-9]+\.[0-9]}} us, members-per-block 4.0 us

func.func @tiny_member(%x: tensor<32x4xf32>, %w1: tensor<4x8xf32>,
                       %w2: tensor<8x1xf32>) -> tensor<32x1xf32> {
  %a = ens.matmul %x, %w1 : tensor<32x4xf32>, tensor<4x8xf32> -> tensor<32x8xf32>
  %h = ens.tanh %a : tensor<32x8xf32>
  %y = ens.matmul %h, %w2 : tensor<32x8xf32>, tensor<8x1xf32> -> tensor<32x1xf32>
  return %y : tensor<32x1xf32>
}

func.func @tiny_many(%x: tensor<32x4xf32>, %w1: tensor<4096x4x8xf32>,
                     %w2: tensor<4096x8x1xf32>) -> tensor<4096x32x1xf32> {
  %y = ens.vmap @tiny_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 4096 : i64}
      : (tensor<32x4xf32>, tensor<4096x4x8xf32>, tensor<4096x8x1xf32>) -> tensor<4096x32x1xf32>
  return %y : tensor<4096x32x1xf32>
}

// The same network with 8 members: one wave either way, 4.0 us each (one
// member per block, the only count that leaves no member's SM idle); of
// equal estimates the first strategy, member-per-block, is kept.
// FEW-AUTO:      kernel k0_members: member-per-block, 8 members, 256 threads, 1664 bytes of shared memory
// FEW-AUTO-NEXT:   chosen by the H100 estimates: member-per-block 4.0 us, tiled {{[0-9]+\.[0-9]}} us, members-per-block 4.0 us

func.func @tiny_few(%x: tensor<32x4xf32>, %w1: tensor<8x4x8xf32>,
                    %w2: tensor<8x8x1xf32>) -> tensor<8x32x1xf32> {
  %y = ens.vmap @tiny_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<32x4xf32>, tensor<8x4x8xf32>, tensor<8x8x1xf32>) -> tensor<8x32x1xf32>
  return %y : tensor<8x32x1xf32>
}
