// Consecutive points in register tiles (planConsecutivePoints,
// TilePlanning.cpp; issue #31): a thread's points of a 4x4 (or 4x2) tile
// are consecutive along a tile loop, t * 4 + s rather than t + s * tiles,
// where an operand that the steps read along that loop at unit stride is
// aligned for a 128-bit (or 64-bit) access of them (getAccessWidth): its
// other strides and its start a multiple of the tile's size, and the
// loop's range too, so that no point is clamped. ptxas then loads the
// tile's row or column with one LDS.128 or LDG.E.128 (the seed step's
// kernel in sass-workloads.test). Each decision is worked out by hand:
//
// RUN: ens-run %s --entry=grad --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=GRAD
// RUN: ens-run %s --entry=narrow --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=NARROW
// RUN: ens-run %s --entry=ragged --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=RAGGED
// RUN: ens-run %s --entry=sliced --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=SLICED
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise --ens-cuda-plan="target=h100-sxm strategy=member-per-block" | FileCheck %s --check-prefix=ATTR
//
// Every function agrees with the interpreter (the oracle) on cuda-emu with
// each strategy: the points' loop variables, and the ragged tile's clamped
// points, are the same elements whichever order a thread takes them in.
// Inputs uniform in [-1, 1); sums of at most 64 products: atol 1e-4.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=grad --random-inputs=5 --output-dir=%t/grad
// RUN: ens-run %s --entry=grad --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/grad/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=grad --random-inputs=5 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/grad/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=narrow --random-inputs=5 --output-dir=%t/narrow
// RUN: ens-run %s --entry=narrow --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/narrow/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=narrow --random-inputs=5 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/narrow/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=ragged --random-inputs=5 --output-dir=%t/ragged
// RUN: ens-run %s --entry=ragged --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/ragged/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=sliced --random-inputs=5 --output-dir=%t/sliced
// RUN: ens-run %s --entry=sliced --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/sliced/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=sliced --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/sliced/out0.npy --atol=1e-4 > %t/got.txt

// A weight gradient, x^T dh: rows d1 (x's columns, 32), columns d2 (dh's,
// 16), summed over the batch. Both are staged (x is read 16 times per
// element, dh 32 times) and read along their tile loop at unit stride,
// with row strides 32 and 16: consecutive along both loops. (Its 32 tiles
// split the 64 steps in 2 chunks within the block: config_block_split.mlir.)
// GRAD: phase 0: points in 4x4 tiles of d1, d2, consecutive along d1, d2 in 2 chunks{{.*}}; ens.einsum
// ATTR-LABEL: func.func @grad(
// ATTR: tile_consecutive = array<i1: true, true>, tile_loops = array<i64: 1, 2>, tile_sizes = array<i64: 4, 4>
func.func @grad_member(%x: tensor<64x32xf32>, %dh: tensor<64x16xf32>) -> tensor<32x16xf32> {
  %g = ens.einsum %x, %dh {spec = "bi,bj->ij"} : tensor<64x32xf32>, tensor<64x16xf32> -> tensor<32x16xf32>
  return %g : tensor<32x16xf32>
}
func.func @grad(%x: tensor<64x32xf32>, %dh: tensor<8x64x16xf32>) -> tensor<8x32x16xf32> {
  %y = ens.vmap @grad_member(%x, %dh) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<64x32xf32>, tensor<8x64x16xf32>) -> tensor<8x32x16xf32>
  return %y : tensor<8x32x16xf32>
}

// Two columns: 4x2 tiles, whose two points of w's row (staged, row
// stride 2) take one 64-bit load. x's tile loop (its rows, stride 32) has
// no unit stride: its rows stay a tile count apart.
// NARROW: phase 0: points in 4x2 tiles of d1, d2, consecutive along d2{{,| }}
// ATTR-LABEL: func.func @narrow(
// ATTR: tile_consecutive = array<i1: false, true>, tile_loops = array<i64: 1, 2>, tile_sizes = array<i64: 4, 2>
func.func @narrow_member(%x: tensor<64x32xf32>, %w: tensor<32x2xf32>) -> tensor<64x2xf32> {
  %y = ens.einsum %x, %w {spec = "bi,ij->bj"} : tensor<64x32xf32>, tensor<32x2xf32> -> tensor<64x2xf32>
  return %y : tensor<64x2xf32>
}
func.func @narrow(%x: tensor<64x32xf32>, %w: tensor<8x32x2xf32>) -> tensor<8x64x2xf32> {
  %y = ens.vmap @narrow_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<64x32xf32>, tensor<8x32x2xf32>) -> tensor<8x64x2xf32>
  return %y : tensor<8x64x2xf32>
}

// 30 columns: 4 does not divide them, so a consecutive tile's last points
// would be clamped (and merged with their neighbours): strided points.
// RAGGED: phase 0: points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.tanh
// ATTR-LABEL: func.func @ragged(
// ATTR-NOT: tile_consecutive
// ATTR: tile_sizes = array<i64: 4, 4>
func.func @ragged_member(%x: tensor<64x32xf32>, %w: tensor<32x30xf32>) -> tensor<64x30xf32> {
  %y = ens.einsum %x, %w {spec = "bi,ij->bj"} : tensor<64x32xf32>, tensor<32x30xf32> -> tensor<64x30xf32>
  %t = ens.tanh %y : tensor<64x30xf32>
  return %t : tensor<64x30xf32>
}
func.func @ragged(%x: tensor<64x32xf32>, %w: tensor<8x32x30xf32>) -> tensor<8x64x30xf32> {
  %y = ens.vmap @ragged_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<64x32xf32>, tensor<8x32x30xf32>) -> tensor<8x64x30xf32>
  return %y : tensor<8x64x30xf32>
}

// A batch of two reads w's elements twice each, so w stays in global
// memory (not staged), read through the slice: columns 1 to 32 of rows 33
// wide. The row stride (33) and the start (1) are odd: no wide access,
// strided points.
// SLICED: phase 0: points in 2x4 tiles of d1, d2, 8 steps at a time; ens.einsum
// ATTR-LABEL: func.func @sliced(
// ATTR-NOT: tile_consecutive
// ATTR: tile_sizes = array<i64: 2, 4>
func.func @sliced_member(%x: tensor<2x32xf32>, %w: tensor<32x33xf32>) -> tensor<2x32xf32> {
  %s = ens.slice %w {start = array<i64: 0, 1>, limit = array<i64: 32, 33>, stride = array<i64: 1, 1>} : tensor<32x33xf32> -> tensor<32x32xf32>
  %y = ens.einsum %x, %s {spec = "bi,ij->bj"} : tensor<2x32xf32>, tensor<32x32xf32> -> tensor<2x32xf32>
  return %y : tensor<2x32xf32>
}
func.func @sliced(%x: tensor<2x32xf32>, %w: tensor<8x32x33xf32>) -> tensor<8x2x32xf32> {
  %y = ens.vmap @sliced_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<2x32xf32>, tensor<8x32x33xf32>) -> tensor<8x2x32xf32>
  return %y : tensor<8x2x32xf32>
}
