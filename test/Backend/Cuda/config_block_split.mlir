// Split-K within the block (planBlockSplit, TilePlanning.cpp; issue #31):
// in a member-per-block kernel, a contraction in register tiles that are
// fewer than the block's 256 threads splits its one reduction into the
// most chunks (a power of two) that give each thread at most one chunk of
// a tile, of equal size, each a loop of more than 4 unrolled iterations;
// a 4x4 tile whose rows divide by 8 gets 8 rows where its chunks then fill
// as many threads, and then 8 columns where they divide by 8 and its
// chunks still fill 128 threads. Each thread stores in shared memory its sums of the
// points other chunks finish, and after a barrier finishes its chunk's
// share of its tile's points. Each decision is worked out by hand:
//
// RUN: ens-run %s --entry=grad --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=GRAD
// RUN: ens-run %s --entry=odd --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=ODD
// RUN: ens-run %s --entry=short --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=SHORT
// RUN: ens-run %s --entry=many --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=MANY
// RUN: ens-run %s --entry=few --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=FEW
// RUN: ens-run %s --entry=ragged --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=RAGGED
// RUN: ens-run %s --entry=spread --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=SPREAD
// RUN: ens-run %s --entry=grad --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=TILED
//
// The kernel attribute of the planning pass says the same.
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise "--ens-cuda-plan=target=h100-sxm strategy=member-per-block" -o %t.plan.mlir
// RUN: FileCheck %s --check-prefix=ATTR < %t.plan.mlir
//
// Each split agrees with the interpreter (the oracle) on cuda-emu. Inputs
// uniform in [-1, 1); sums of up to 256 products: atol 1e-4.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=grad --random-inputs=3 --output-dir=%t/grad
// RUN: ens-run %s --entry=grad --random-inputs=3 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/grad/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=odd --random-inputs=5 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/odd/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=few --random-inputs=6 --output-dir=%t/few
// RUN: ens-run %s --entry=few --random-inputs=6 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/few/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=ragged --random-inputs=8 --output-dir=%t/ragged
// RUN: ens-run %s --entry=ragged --random-inputs=8 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/ragged/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=spread --random-inputs=9 --output-dir=%t/spread
// RUN: ens-run %s --entry=spread --random-inputs=9 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/spread/out0.npy --atol=1e-4 > %t/got.txt

// A first layer's weight gradient, as in the seed step: 64 x 32 points in
// 4x4 tiles are 128 tiles for 256 threads; its 256 steps read x from
// global memory, 8 at a time: 2 chunks of 128 steps (16 iterations); a
// third chunk would not fit the threads. In 8x4 tiles, 64 tiles in 4
// chunks of 64 steps (8 iterations) fill as many threads: tall tiles. In
// 8x8 tiles, 32 tiles in 4 chunks (8 would be chunks of 4 iterations)
// fill 128 threads, 4 warps: wide tiles. Each thread keeps its share (16
// points) and stores the other 48: 3 x 64 x 32 floats, 24576 bytes at 0
// (nothing else is shared).
// GRAD: kernel k0_members: member-per-block, 4 members, 256 threads, 24576 bytes of shared memory
// GRAD: phase 0: points in 8x8 tiles of d1, d2, consecutive along d1, d2, 8 steps at a time in 4 chunks of its steps within the block, partial tiles shared at 0; ens.einsum
// ATTR: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 4 : i64, phases = [{chunks = 4 : i64, kind = "points", {{.*}}partials_offset = 0 : i64, {{.*}}tile_sizes = array<i64: 8, 8>, tile_unroll = 8 : i64}], shared_bytes = 24576 : i64, strategy = "member-per-block"
// The tiled strategy splits nothing within a block.
// TILED-NOT: within the block
func.func @grad_member(%x: tensor<256x64xf32>, %d: tensor<256x32xf32>) -> tensor<64x32xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<256x64xf32>, tensor<256x32xf32> -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}
func.func @grad(%x: tensor<256x64xf32>, %d: tensor<4x256x32xf32>) -> tensor<4x64x32xf32> {
  %y = ens.vmap @grad_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<256x64xf32>, tensor<4x256x32xf32>) -> tensor<4x64x32xf32>
  return %y : tensor<4x64x32xf32>
}

// Odd sizes: 50 x 33 points in 4x4 tiles (the last ones clamped) are
// 13 x 9 = 117 tiles; 2 chunks of the 200 steps (234 threads of 256; 22
// skip the steps and wait at the barrier); 8 does not divide the rows, so
// no tall tiles. Each thread stores the 8 points of the other chunk's
// share: 117 x 16 floats of partials, 7488 bytes.
// ODD: phase 0: points in 4x4 tiles of d1, d2, 8 steps at a time in 2 chunks of its steps within the block, partial tiles shared at 0; ens.einsum
func.func @odd_member(%x: tensor<200x50xf32>, %d: tensor<200x33xf32>) -> tensor<50x33xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<200x50xf32>, tensor<200x33xf32> -> tensor<50x33xf32>
  return %g : tensor<50x33xf32>
}
func.func @odd(%x: tensor<200x50xf32>, %d: tensor<3x200x33xf32>) -> tensor<3x50x33xf32> {
  %y = ens.vmap @odd_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<200x50xf32>, tensor<3x200x33xf32>) -> tensor<3x50x33xf32>
  return %y : tensor<3x50x33xf32>
}

// A short reduction: the same 128 tiles, but 32 steps, from operands
// staged in shared memory, 4 at a time: 2 chunks would be loops of 4
// iterations, which ptxas unrolls whole. Not split.
// SHORT: phase 0: points in 4x4 tiles of d1, d2, consecutive along d1, d2; ens.einsum
// SHORT-NOT: chunks
func.func @short_member(%x: tensor<32x64xf32>, %d: tensor<32x32xf32>) -> tensor<64x32xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<32x64xf32>, tensor<32x32xf32> -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}
func.func @short(%x: tensor<32x64xf32>, %d: tensor<4x32x32xf32>) -> tensor<4x64x32xf32> {
  %y = ens.vmap @short_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<32x64xf32>, tensor<4x32x32xf32>) -> tensor<4x64x32xf32>
  return %y : tensor<4x64x32xf32>
}

// Tiles enough for the threads: 128 x 32 points are 256 tiles of 4x4
// (8 rows would leave half the threads idle). Not split.
// MANY: phase 0: points in 4x4 tiles of d1, d2, consecutive along d1, d2, 8 steps at a time; ens.einsum
// MANY-NOT: chunks
func.func @many_member(%x: tensor<256x128xf32>, %d: tensor<256x32xf32>) -> tensor<128x32xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<256x128xf32>, tensor<256x32xf32> -> tensor<128x32xf32>
  return %g : tensor<128x32xf32>
}
func.func @many(%x: tensor<256x128xf32>, %d: tensor<4x256x32xf32>) -> tensor<4x128x32xf32> {
  %y = ens.vmap @many_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<256x128xf32>, tensor<4x256x32xf32>) -> tensor<4x128x32xf32>
  return %y : tensor<4x128x32xf32>
}

// Very few tiles: 16 x 8 points are 4 x 2 = 8 tiles of 4x4; 256 steps
// from operands staged in shared memory (16384 and 8192 bytes), 4 at a
// time: 8 chunks of 32 steps (8 iterations; 16 chunks would be loops of
// 4). In 8x4 tiles, 4 tiles in 8 chunks would fill 32 threads, not 64:
// 4x4. Partials: 7 x 8 x 16 floats, 3584 bytes after the staged operands.
// FEW: kernel k0_members: member-per-block, 5 members, 256 threads, 28160 bytes of shared memory
// FEW: phase 0: points in 4x4 tiles of d1, d2, consecutive along d1, d2 in 8 chunks of its steps within the block, partial tiles shared at 24576; ens.einsum
func.func @few_member(%x: tensor<256x16xf32>, %d: tensor<256x8xf32>) -> tensor<16x8xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<256x16xf32>, tensor<256x8xf32> -> tensor<16x8xf32>
  return %g : tensor<16x8xf32>
}
func.func @few(%x: tensor<256x16xf32>, %d: tensor<5x256x8xf32>) -> tensor<5x16x8xf32> {
  %y = ens.vmap @few_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 5 : i64}
      : (tensor<256x16xf32>, tensor<5x256x8xf32>) -> tensor<5x16x8xf32>
  return %y : tensor<5x16x8xf32>
}

// Tall tiles with ragged columns: 64 x 17 points are 16 x 5 = 80 tiles of
// 4x4 (the last column of tiles clamped), 2 chunks of the 256 steps (160
// threads; 4 chunks would need 320), or 8 x 5 = 40 tiles of 8x4 in 4
// chunks of 64 steps (8 iterations of 8): as many threads, so 8x4 (its
// rows consecutive, x's columns; 17 columns are not 16-byte aligned). Each
// thread finishes 8 of its 32 points, the clamped ones storing nothing.
// Partials: 3 x 40 x 32 floats, 15360 bytes.
// RAGGED: kernel k0_members: member-per-block, 3 members, 256 threads, 15360 bytes of shared memory
// RAGGED: phase 0: points in 8x4 tiles of d1, d2, consecutive along d1, 8 steps at a time in 4 chunks of its steps within the block, partial tiles shared at 0; ens.einsum
func.func @ragged_member(%x: tensor<256x64xf32>, %d: tensor<256x17xf32>) -> tensor<64x17xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<256x64xf32>, tensor<256x17xf32> -> tensor<64x17xf32>
  return %g : tensor<64x17xf32>
}
func.func @ragged(%x: tensor<256x64xf32>, %d: tensor<3x256x17xf32>) -> tensor<3x64x17xf32> {
  %y = ens.vmap @ragged_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<256x64xf32>, tensor<3x256x17xf32>) -> tensor<3x64x17xf32>
  return %y : tensor<3x64x17xf32>
}

// Tall tiles that wide tiles would spread too thin: 24 x 16 points in 4x4
// tiles are 24 tiles, in 8 chunks of the 1024 steps (192 threads; 16
// would pass 256); in 8x4 tiles, 12 tiles in 16 chunks fill as many. In
// 8x8 tiles, 6 tiles in 16 chunks (32 would be chunks of 4 iterations)
// would fill 96 threads, fewer than 4 warps: 8x4. Partials: 15 x 12 x 32
// floats.
// SPREAD: kernel k0_members: member-per-block, 2 members, 256 threads, 23040 bytes of shared memory
// SPREAD: phase 0: points in 8x4 tiles of d1, d2, consecutive along d1, d2, 8 steps at a time in 16 chunks of its steps within the block, partial tiles shared at 0; ens.einsum
func.func @spread_member(%x: tensor<1024x24xf32>, %d: tensor<1024x16xf32>) -> tensor<24x16xf32> {
  %g = ens.einsum %x, %d {spec = "bi,bj->ij"} : tensor<1024x24xf32>, tensor<1024x16xf32> -> tensor<24x16xf32>
  return %g : tensor<24x16xf32>
}
func.func @spread(%x: tensor<1024x24xf32>, %d: tensor<2x1024x16xf32>) -> tensor<2x24x16xf32> {
  %y = ens.vmap @spread_member(%x, %d) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<1024x24xf32>, tensor<2x1024x16xf32>) -> tensor<2x24x16xf32>
  return %y : tensor<2x24x16xf32>
}
