// Tall register tiles in member-per-block kernels (planTallTiles,
// TilePlanning.cpp; issue #31): a 4x4 tile gets 8 rows where the rows
// divide by 8 and the contraction still has a tile for each of the
// block's 256 threads; its steps then load 12 operand elements for 32
// FFMA instead of 8 for 16. Each decision is worked out by hand:
//
// RUN: ens-run %s --entry=tall --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=TALL
// RUN: ens-run %s --entry=few --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=FEW
// RUN: ens-run %s --entry=odd --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=ODD
// RUN: ens-run %s --entry=tall --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=TILED
//
// Each agrees with the interpreter (the oracle) on cuda-emu. Inputs
// uniform in [-1, 1); sums of 64 products: atol 1e-4.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=tall --random-inputs=7 --output-dir=%t/tall
// RUN: ens-run %s --entry=tall --random-inputs=7 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/tall/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=odd --random-inputs=7 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=7 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/odd/out0.npy --atol=1e-4 > %t/got.txt

// The seed step's first layer: 256 x 32 points, 8x4 tiles: 32 x 8 = 256
// tiles, one for each thread.
// TALL: phase 0: points in 8x4 tiles of d1, d2, consecutive along d2{{.*}}; ens.einsum, ens.tanh
// The tiled strategy keeps its own tiles (block tiles here, or 4x4).
// TILED-NOT: 8x4 tiles
func.func @tall_member(%x: tensor<256x64xf32>, %w: tensor<64x32xf32>) -> tensor<256x32xf32> {
  %y = ens.einsum %x, %w {spec = "bi,ij->bj"} : tensor<256x64xf32>, tensor<64x32xf32> -> tensor<256x32xf32>
  %t = ens.tanh %y : tensor<256x32xf32>
  return %t : tensor<256x32xf32>
}
func.func @tall(%x: tensor<256x64xf32>, %w: tensor<4x64x32xf32>) -> tensor<4x256x32xf32> {
  %y = ens.vmap @tall_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<256x64xf32>, tensor<4x64x32xf32>) -> tensor<4x256x32xf32>
  return %y : tensor<4x256x32xf32>
}

// 128 x 32 points: 8x4 tiles would be 128, fewer than the threads; the
// 256 4x4 tiles keep every thread busy.
// FEW: phase 0: points in 4x4 tiles of d1, d2
func.func @few_member(%x: tensor<128x64xf32>, %w: tensor<64x32xf32>) -> tensor<128x32xf32> {
  %y = ens.einsum %x, %w {spec = "bi,ij->bj"} : tensor<128x64xf32>, tensor<64x32xf32> -> tensor<128x32xf32>
  return %y : tensor<128x32xf32>
}
func.func @few(%x: tensor<128x64xf32>, %w: tensor<4x64x32xf32>) -> tensor<4x128x32xf32> {
  %y = ens.vmap @few_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<128x64xf32>, tensor<4x64x32xf32>) -> tensor<4x128x32xf32>
  return %y : tensor<4x128x32xf32>
}

// 260 rows: 8 does not divide them (a tall tile's last points would be
// clamped): 4x4 tiles.
// ODD: phase 0: points in 4x4 tiles of d1, d2
func.func @odd_member(%x: tensor<260x64xf32>, %w: tensor<64x32xf32>) -> tensor<260x32xf32> {
  %y = ens.einsum %x, %w {spec = "bi,ij->bj"} : tensor<260x64xf32>, tensor<64x32xf32> -> tensor<260x32xf32>
  return %y : tensor<260x32xf32>
}
func.func @odd(%x: tensor<260x64xf32>, %w: tensor<4x64x32xf32>) -> tensor<4x260x32xf32> {
  %y = ens.vmap @odd_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<260x64xf32>, tensor<4x64x32xf32>) -> tensor<4x260x32xf32>
  return %y : tensor<4x260x32xf32>
}
