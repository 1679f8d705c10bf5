// Column sums with the tiled strategy (PhaseConfig::lanesAlongOutputs,
// readsAcrossOutputs in OpPlanning.cpp, ColumnReductionEmitter.cpp; issue
// #31): a block reduction whose input is contiguous along its outputs and
// not along its steps (a bias gradient's sum down the batch) takes 32
// output elements a block, a warp's lanes along them and the block's warps
// along the steps, instead of a block per element with its lanes along the
// steps, a line per lane. Each decision is worked out by hand:
//
// RUN: ens-run %s --entry=cols --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=COLS
// RUN: ens-run %s --entry=odd --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=ODD
// RUN: ens-run %s --entry=rows --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=ROWS
//
// Each agrees with the interpreter (the oracle) on cuda-emu. Inputs
// uniform in [-1, 1); sums of up to 512 of them, in another order than
// the interpreter's: atol 1e-4.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=cols --random-inputs=3 --output-dir=%t/cols
// RUN: ens-run %s --entry=cols --random-inputs=3 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/cols/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=odd --random-inputs=5 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/odd/out0.npy --atol=1e-4 > %t/got.txt
// RUN: ens-run %s --entry=rows --random-inputs=9 --output-dir=%t/rows
// RUN: ens-run %s --entry=rows --random-inputs=9 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/rows/out0.npy --atol=1e-4 > %t/got.txt

// 45 columns summed down 512 rows, then tanh (the fused epilogue): two
// groups of 32 columns a member, the second 13 wide.
// COLS: phase 0: kernel k0_tiled, 2 blocks per member, block reduction (arith.addf), lanes along the outputs with fused epilogue; ens.reduce_sum, ens.tanh
func.func @cols_member(%g: tensor<512x45xf32>) -> tensor<45xf32> {
  %s = ens.reduce_sum %g {dims = array<i64: 0>} : tensor<512x45xf32> -> tensor<45xf32>
  %t = ens.tanh %s : tensor<45xf32>
  return %t : tensor<45xf32>
}
func.func @cols(%g: tensor<4x512x45xf32>) -> tensor<4x45xf32> {
  %y = ens.vmap @cols_member(%g) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<4x512x45xf32>) -> tensor<4x45xf32>
  return %y : tensor<4x45xf32>
}

// 70 columns of 300 rows, no epilogue: three groups a member, 300 steps
// not a multiple of the block's warps times the 16 steps a thread loads
// at a time.
// ODD: phase 0: kernel k0_tiled, 3 blocks per member, block reduction (arith.addf), lanes along the outputs; ens.reduce_sum
func.func @odd_member(%g: tensor<300x70xf32>) -> tensor<70xf32> {
  %s = ens.reduce_sum %g {dims = array<i64: 0>} : tensor<300x70xf32> -> tensor<70xf32>
  return %s : tensor<70xf32>
}
func.func @odd(%g: tensor<3x300x70xf32>) -> tensor<3x70xf32> {
  %y = ens.vmap @odd_member(%g) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<3x300x70xf32>) -> tensor<3x70xf32>
  return %y : tensor<3x70xf32>
}

// Rows summed along their contiguous 512 steps: the lanes stay along the
// steps, a block per element.
// ROWS: phase 0: kernel k0_tiled, 45 blocks per member, block reduction (arith.addf); ens.reduce_sum
// ROWS-NOT: lanes along the outputs
func.func @rows_member(%g: tensor<45x512xf32>) -> tensor<45xf32> {
  %s = ens.reduce_sum %g {dims = array<i64: 1>} : tensor<45x512xf32> -> tensor<45xf32>
  return %s : tensor<45xf32>
}
func.func @rows(%g: tensor<4x45x512xf32>) -> tensor<4x45xf32> {
  %y = ens.vmap @rows_member(%g) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<4x45x512xf32>) -> tensor<4x45xf32>
  return %y : tensor<4x45xf32>
}
