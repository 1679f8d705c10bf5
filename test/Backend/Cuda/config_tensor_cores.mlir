// The tensor-core decisions of the tiled strategy (--gpu-precision=tf32 or
// 3xtf32; planMma in lib/Backend/Cuda/TilePlanning.cpp), line by line. A
// contraction that planTile gives a register tile (rows d1, columns d2;
// see tiled-boundaries.mlir) goes on tensor cores when the strategy is
// tiled, it has one reduction loop and its body is acc + a * b of two f32
// operands; otherwise it stays in 4x4 FFMA tiles and the plan says why.
// On tensor cores each warp computes a 32x32 warp tile (2 x 4 mma.sync
// m16n8k8 tiles), the block's warps side by side along the columns, in two
// rows of warps where there are at least four (getMmaBlockTile): block
// tiles of 64x128 points with 256 threads, 64x64 with 128 and 32x64 with
// 64. A member's blocks are its block tiles, ceil(R / rows) * ceil(C /
// columns), whatever the threads. A block stages 32 steps of both
// operands in dynamic shared memory, a's rows padded to 32 + 4 floats and
// b's steps to the columns + 8 (getMmaStaging): (64 * 36 + 32 * 136) * 4 =
// 26624 bytes a stage with 256 threads, (64 * 36 + 32 * 72) * 4 = 18432
// with 128, (32 * 36 + 32 * 72) * 4 = 13824 with 64; an H100's 3 stages
// (config_plan_tensor_cores.mlir) take three times as much. The runs are
// in tensor-cores.mlir.
//
// @layer: x (shared, 100x48) times member m's w (48x300), 4 members.
// With 256 threads: ceil(100/64) * ceil(300/128) = 2 * 3 = 6 blocks per
// member; with 128 threads ceil(100/64) * ceil(300/64) = 10, with 64
// ceil(100/32) * 5 = 20. The model picks the threads per launch (64 at
// the time of writing); the check takes any of the three with its blocks
// and tile.
// RUN: ens-run %s --entry=layer --cuda-plan --cuda-strategy=tiled --gpu-precision=tf32 | FileCheck %s --check-prefix=TF32
// TF32:      loop: tiled, 4 members, 256 threads, 0 bytes of shared memory
// TF32-NEXT:   phase 0: kernel k0_tiled, {{(6 blocks per member, points in 64x128 block tiles of d1, d2, 32x32 per warp on tf32 tensor cores \(mma.sync m16n8k8, 32 steps at a time in 3 cp.async stages of 16- and 16-byte copies through 79872|10 blocks of 128 threads per member, points in 64x64 block tiles of d1, d2, 32x32 per warp on tf32 tensor cores \(mma.sync m16n8k8, 32 steps at a time in 3 cp.async stages of 16- and 16-byte copies through 55296|20 blocks of 64 threads per member, points in 32x64 block tiles of d1, d2, 32x32 per warp on tf32 tensor cores \(mma.sync m16n8k8, 32 steps at a time in 3 cp.async stages of 16- and 16-byte copies through 41472)}} bytes of shared memory); ens.einsum
// RUN: ens-run %s --entry=layer --cuda-plan --cuda-strategy=tiled --gpu-precision=3xtf32 | FileCheck %s --check-prefix=TF32X3
// TF32X3: phase 0: kernel k0_tiled, {{.*}} block tiles of d1, d2, 32x32 per warp on 3xtf32 tensor cores (mma.sync m16n8k8, 32 steps at a time in 3 cp.async stages of 16- and 16-byte copies through {{[0-9]+}} bytes of shared memory); ens.einsum
// The default, f32, and an explicit f32 plan no tensor cores: block tiles
// in FFMA (config_block_tiles.mlir), whose warp tiles are 32x32 too, so
// the same block tiles, with 16 steps staged at a time and no fallback.
// RUN: ens-run %s --entry=layer --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=F32
// RUN: ens-run %s --entry=layer --cuda-plan --cuda-strategy=tiled --gpu-precision=f32 | FileCheck %s --check-prefix=F32
// F32:     block tiles of d1, d2, 32x32 per warp in FFMA (8x4 points per thread, 16 steps at a time
// F32-NOT: tensor cores
// F32-NOT: FFMA:
//
// The member-per-block strategy has no tensor-core tiles (its register
// tiles load 8 steps at a time: the steps read global memory).
// RUN: ens-run %s --entry=layer --cuda-plan --cuda-strategy=member-per-block --gpu-precision=tf32 | FileCheck %s --check-prefix=PERBLOCK
// PERBLOCK: phase 0: points in 4x4 tiles of d1, d2, consecutive along d2, 8 steps at a time (FFMA: the member-per-block strategy has no tensor-core tiles); ens.einsum
//
// @two_steps: "bij,ijo->bo" reduces over i and j, two loops.
// RUN: ens-run %s --entry=two_steps --cuda-plan --cuda-strategy=tiled --gpu-precision=tf32 | FileCheck %s --check-prefix=TWOK
// TWOK: phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2 (FFMA: more than one reduction loop); ens.einsum
//
// @f64: a matmul of f64 operands.
// RUN: ens-run %s --entry=f64 --cuda-plan --cuda-strategy=tiled --gpu-precision=tf32 | FileCheck %s --check-prefix=F64
// F64: phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2 (FFMA: not a multiply-add of two f32 operands); ens.einsum
//
// Any other name is refused before the program is read, with one message
// and exit status 1, whether or not a CUDA backend would run.
// RUN: not ens-run %s --entry=layer --cuda-plan --gpu-precision=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: not ens-run %s --entry=layer --random-inputs=1 --backend=cuda-emu --gpu-precision=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: not ens-run %s --entry=layer --random-inputs=1 --gpu-precision=TF32 2>&1 | FileCheck %s --check-prefix=UPPER
// BOGUS: ens-run: error: unknown GPU precision 'bogus' for --gpu-precision (known: f32, tf32, 3xtf32)
// UPPER: ens-run: error: unknown GPU precision 'TF32' for --gpu-precision (known: f32, tf32, 3xtf32)

func.func @layer_member(%x: tensor<100x48xf32>, %w: tensor<48x300xf32>) -> tensor<100x300xf32> {
  %y = ens.matmul %x, %w : tensor<100x48xf32>, tensor<48x300xf32> -> tensor<100x300xf32>
  return %y : tensor<100x300xf32>
}
func.func @layer(%x: tensor<100x48xf32>, %w: tensor<4x48x300xf32>) -> tensor<4x100x300xf32> {
  %y = ens.vmap @layer_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<100x48xf32>, tensor<4x48x300xf32>) -> tensor<4x100x300xf32>
  return %y : tensor<4x100x300xf32>
}

func.func @two_steps_member(%x: tensor<8x6x5xf32>, %w: tensor<6x5x9xf32>) -> tensor<8x9xf32> {
  %y = ens.einsum %x, %w {spec = "bij,ijo->bo"} : tensor<8x6x5xf32>, tensor<6x5x9xf32> -> tensor<8x9xf32>
  return %y : tensor<8x9xf32>
}
func.func @two_steps(%x: tensor<8x6x5xf32>, %w: tensor<3x6x5x9xf32>) -> tensor<3x8x9xf32> {
  %y = ens.vmap @two_steps_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<8x6x5xf32>, tensor<3x6x5x9xf32>) -> tensor<3x8x9xf32>
  return %y : tensor<3x8x9xf32>
}

func.func @f64_member(%x: tensor<8x5xf64>, %w: tensor<5x9xf64>) -> tensor<8x9xf64> {
  %y = ens.matmul %x, %w : tensor<8x5xf64>, tensor<5x9xf64> -> tensor<8x9xf64>
  return %y : tensor<8x9xf64>
}
func.func @f64(%x: tensor<8x5xf64>, %w: tensor<3x5x9xf64>) -> tensor<3x8x9xf64> {
  %y = ens.vmap @f64_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<8x5xf64>, tensor<3x5x9xf64>) -> tensor<3x8x9xf64>
  return %y : tensor<3x8x9xf64>
}
