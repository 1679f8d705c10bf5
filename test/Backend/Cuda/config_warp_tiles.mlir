// The warp tiles of FFMA block tiles (settleWarpTiles, LoopChoices.cpp;
// issue #31): for the threads per block of each launch (settleThreads),
// the full model picks for each contraction in FFMA block tiles a warp
// tile of 32x32 points (4 x 8 threads of 8x4 points, three 128-bit shared
// loads a step for 32 FFMA) or of 16x32 (4x4 points a thread, two loads
// for 16 FFMA), whose block tiles of half the rows give the contraction
// twice the blocks. Blocks of 128
// threads hold 2 x 2 warps (getMmaBlockTile): 64x64 block tiles in 32x32
// warp tiles, 32x64 in 16x32; blocks of 64 threads one row of 2 warps:
// 32x64, 16x64.
//
// RUN: ens-run %s --entry=grad --cuda-plan --cuda-strategy=tiled --cuda-gemm=generated | FileCheck %s --check-prefix=GRAD
// RUN: ens-run %s --entry=ragged --cuda-plan --cuda-strategy=tiled --cuda-gemm=generated | FileCheck %s --check-prefix=RAGGED
// RUN: ens-run %s --entry=wide --cuda-plan --cuda-strategy=tiled --cuda-gemm=generated | FileCheck %s --check-prefix=WIDE
//
// The kernel attribute of the planning pass says the same.
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise "--ens-cuda-plan=target=h100-sxm strategy=tiled gemm=generated" -o %t.plan.mlir
// RUN: FileCheck %s --check-prefix=ATTR < %t.plan.mlir
//
// The smaller warp tiles agree with the interpreter (the oracle) on
// cuda-emu, at sizes that are multiples of no tile. Inputs uniform in
// [-1, 1); sums of 260 products in f32 (the interpreter's in double):
// atol 1e-5, as tiled-boundaries.mlir's @block_edges.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=ragged --random-inputs=8 --output-dir=%t/ragged
// RUN: ens-run %s --entry=ragged --random-inputs=8 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=generated --atol=1e-5 --expect=%t/ragged/out0.npy > %t/got.txt

// A weight gradient as in tanh_256's backward pass: 4 members of 256x256
// points summed over a batch of 512. In 64x64 block tiles, 16 a member, 64
// blocks for the H100's 132 SMs, each 512 steps long; in 32x64, 128
// blocks, which the model finds faster.
// GRAD: phase 0: kernel k0_tiled, 32 blocks of 128 threads per member, points in 32x64 block tiles of d1, d2, 16x32 per warp in FFMA (4x4 points per thread, 16 steps at a time in 3 cp.async stages of 16- and 16-byte copies through 19968 bytes of shared memory); ens.einsum
// ATTR-LABEL: func.func @grad(
// ATTR: ens_cuda.kernel_config = {{.*}}blocks_per_member = 32 : i64, {{.*}}precision = "f32", {{.*}}threads = 128 : i64, {{.*}}warp_tile = array<i64: 16, 32>
func.func @grad_member(%x: tensor<512x256xf32>, %d: tensor<512x256xf32>) -> tensor<256x256xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<512x256xf32>, tensor<512x256xf32> -> tensor<256x256xf32>
  return %g : tensor<256x256xf32>
}
func.func @grad(%x: tensor<512x256xf32>, %d: tensor<4x512x256xf32>) -> tensor<4x256x256xf32> {
  %y = ens.vmap @grad_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<512x256xf32>, tensor<4x512x256xf32>) -> tensor<4x256x256xf32>
  return %y : tensor<4x256x256xf32>
}

// The same at sizes that no tile divides, with a fused tanh: 250x180
// points, ceil(250 / 32) x ceil(180 / 64) = 24 block tiles of 32x64 a
// member (96 blocks; in 64x64, 48), over 260 steps, 16 stages and a last
// of 4 steps. The last block tile's rows past 250 and columns past 180
// compute zeros and store nothing.
// RAGGED: phase 0: kernel k0_tiled, 24 blocks of 128 threads per member, points in 32x64 block tiles of d1, d2, 16x32 per warp in FFMA (4x4 points per thread, 16 steps at a time in 3 cp.async stages of 4- and 16-byte copies through 19968 bytes of shared memory) with fused epilogue; ens.einsum, ens.tanh
func.func @ragged_member(%x: tensor<260x250xf32>, %d: tensor<260x180xf32>) -> tensor<250x180xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<260x250xf32>, tensor<260x180xf32> -> tensor<250x180xf32>
  %t = ens.tanh %g : tensor<250x180xf32>
  return %t : tensor<250x180xf32>
}
func.func @ragged(%x: tensor<260x250xf32>, %d: tensor<4x260x180xf32>) -> tensor<4x250x180xf32> {
  %y = ens.vmap @ragged_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<260x250xf32>, tensor<4x260x180xf32>) -> tensor<4x250x180xf32>
  return %y : tensor<4x250x180xf32>
}

// Must not: wide_relu's first layer, 16 members of 256x512 points, whose
// 64x128 block tiles are 256 blocks already; 16x32 warp tiles would only
// take more shared loads per FFMA. It keeps 32x32.
// WIDE: phase 0: kernel k0_tiled, 16 blocks per member, points in 64x128 block tiles of d1, d2, 32x32 per warp in FFMA (8x4 points per thread,
// WIDE-NOT: 16x32 per warp
// ATTR-LABEL: func.func @wide(
// ATTR: ens_cuda.kernel_config = {{.*}}precision = "f32", {{.*}}threads = 256 : i64, {{.*}}warp_tile = array<i64: 32, 32>
func.func @wide_member(%x: tensor<256x512xf32>, %w: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %g = ens.matmul %x, %w : tensor<256x512xf32>, tensor<512x512xf32> -> tensor<256x512xf32>
  return %g : tensor<256x512xf32>
}
func.func @wide(%x: tensor<256x512xf32>, %w: tensor<16x512x512xf32>) -> tensor<16x256x512xf32> {
  %y = ens.vmap @wide_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 16 : i64}
      : (tensor<256x512xf32>, tensor<16x512x512xf32>) -> tensor<16x256x512xf32>
  return %y : tensor<16x256x512xf32>
}
