// Swizzled rows of shared temporaries (planSwizzle, Planning.cpp; issue
// #31): a temporary in shared memory of 4-byte elements whose rows are a
// multiple of 32 elements, at least two of them, and that no view reads
// stores the 16-byte piece c of row r at piece c ^ (r % 8). The seed
// step's second layer reads its h (256 x 32) with the lanes of a warp on
// 16 rows at one column: 16 words in one bank in rows of 32 floats, 2 once
// swizzled. Each decision is worked out by hand:
//
// RUN: ens-run %s --entry=layers --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=LAYERS
// RUN: ens-run %s --entry=odd --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=ODD
// RUN: ens-run %s --entry=narrow --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=NARROW
// RUN: ens-run %s --entry=odd --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=ODD
//
// The kernel attribute of the planning pass says the same.
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise "--ens-cuda-plan=target=h100-sxm strategy=member-per-block" -o %t.plan.mlir
// RUN: FileCheck %s --check-prefix=ATTR < %t.plan.mlir
//
// The kernel indexes the swizzled temporary with the row's piece XORed
// into the column.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=layers --kernel-report=json --cuda-dump=%t/dump > %t/report.json
// RUN: FileCheck %s --check-prefix=CUDA < %t/dump/layers.cu
//
// Each agrees with the interpreter (the oracle) on cuda-emu, with a block
// and with a warp per member. Inputs uniform in [-1, 1); sums of up to 64
// products: atol 1e-4.
// RUN: ens-run %s --entry=layers --random-inputs=3 --output-dir=%t/layers
// RUN: ens-run %s --entry=layers --random-inputs=3 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/layers/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=odd --random-inputs=5 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/odd/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/odd/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=narrow --random-inputs=6 --output-dir=%t/narrow
// RUN: ens-run %s --entry=narrow --random-inputs=6 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/narrow/out0.npy --atol=1e-4 > %t/got.txt

// The seed step's forward pass, then the Gram matrix of its outputs: h
// (256 x 32 floats, rows of 32) is swizzled; s (256 x 8, rows of 8: one
// row spans a quarter of the banks) is not.
// LAYERS: temporary {{[0-9]+}}: memref<1x256x32xf32>, 32768 bytes, shared at {{[0-9]+}}, rows swizzled
// LAYERS-NOT: memref<1x256x8xf32>, 8192 bytes, shared at {{[0-9]+}}, rows swizzled
// ATTR: {bytes = 32768 : i64, location = {{[0-9]+}} : i64, space = "shared", swizzled, type = "memref<1x256x32xf32>"}
// ATTR-NOT: swizzled, type = "memref<1x256x8xf32>"
// CUDA: t{{[0-9]+}}[0 + {{.*}} ^ ((ed1) & 7) * 4) + ((ed2) & 3)) * 1] = v{{[0-9]+}};
func.func @layers_member(%x: tensor<256x64xf32>, %w1: tensor<64x32xf32>,
                         %w2: tensor<32x8xf32>) -> tensor<8x8xf32> {
  %a = ens.einsum %x, %w1 {spec = "bi,ih->bh"} : tensor<256x64xf32>, tensor<64x32xf32> -> tensor<256x32xf32>
  %h = ens.tanh %a : tensor<256x32xf32>
  %y = ens.matmul %h, %w2 : tensor<256x32xf32>, tensor<32x8xf32> -> tensor<256x8xf32>
  %s = ens.tanh %y : tensor<256x8xf32>
  %g = ens.einsum %s, %s {spec = "bo,bp->op"} : tensor<256x8xf32>, tensor<256x8xf32> -> tensor<8x8xf32>
  return %g : tensor<8x8xf32>
}
func.func @layers(%x: tensor<256x64xf32>, %w1: tensor<4x64x32xf32>,
                  %w2: tensor<4x32x8xf32>) -> tensor<4x8x8xf32> {
  %y = ens.vmap @layers_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<256x64xf32>, tensor<4x64x32xf32>, tensor<4x32x8xf32>) -> tensor<4x8x8xf32>
  return %y : tensor<4x8x8xf32>
}

// Odd sizes: 37 rows of 64 floats (two rows' worth of banks each) are
// swizzled; the tiles of both layers end in clamped points.
// ODD: temporary {{[0-9]+}}: memref<1x37x64xf32>, 9472 bytes, shared at {{[0-9]+}}, rows swizzled
func.func @odd_member(%x: tensor<37x19xf32>, %w1: tensor<19x64xf32>,
                      %w2: tensor<64x5xf32>) -> tensor<37x5xf32> {
  %a = ens.einsum %x, %w1 {spec = "bi,ih->bh"} : tensor<37x19xf32>, tensor<19x64xf32> -> tensor<37x64xf32>
  %h = ens.tanh %a : tensor<37x64xf32>
  %y = ens.matmul %h, %w2 : tensor<37x64xf32>, tensor<64x5xf32> -> tensor<37x5xf32>
  return %y : tensor<37x5xf32>
}
func.func @odd(%x: tensor<37x19xf32>, %w1: tensor<3x19x64xf32>,
               %w2: tensor<3x64x5xf32>) -> tensor<3x37x5xf32> {
  %y = ens.vmap @odd_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<37x19xf32>, tensor<3x19x64xf32>, tensor<3x64x5xf32>) -> tensor<3x37x5xf32>
  return %y : tensor<3x37x5xf32>
}

// Rows of 48 floats are not a multiple of the 32 banks: a piece XORed
// with up to 7 could leave the row. Not swizzled.
// NARROW: temporary {{[0-9]+}}: memref<1x40x48xf32>, 7680 bytes, shared at {{[0-9]+$}}
func.func @narrow_member(%x: tensor<40x16xf32>, %w1: tensor<16x48xf32>,
                         %w2: tensor<48x8xf32>) -> tensor<40x8xf32> {
  %a = ens.einsum %x, %w1 {spec = "bi,ih->bh"} : tensor<40x16xf32>, tensor<16x48xf32> -> tensor<40x48xf32>
  %h = ens.tanh %a : tensor<40x48xf32>
  %y = ens.matmul %h, %w2 : tensor<40x48xf32>, tensor<48x8xf32> -> tensor<40x8xf32>
  return %y : tensor<40x8xf32>
}
func.func @narrow(%x: tensor<40x16xf32>, %w1: tensor<2x16x48xf32>,
                  %w2: tensor<2x48x8xf32>) -> tensor<2x40x8xf32> {
  %y = ens.vmap @narrow_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<40x16xf32>, tensor<2x16x48xf32>, tensor<2x48x8xf32>) -> tensor<2x40x8xf32>
  return %y : tensor<2x40x8xf32>
}
