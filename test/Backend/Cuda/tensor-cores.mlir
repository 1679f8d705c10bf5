// Contractions on TF32 tensor cores (--gpu-precision=tf32 and 3xtf32;
// lib/Backend/Cuda/MmaEmitter.cpp) on cuda-emu, against the interpreter
// (the oracle: it computes in double and rounds once) and against values
// worked out by hand. The emulator runs the very source NVRTC compiles,
// with its own ens_cvt_tf32 and warp-wide ens_mma_tf32_m16n8k8
// (MmaEmulationTest checks those against the PTX ISA's fragment layout).
// ens-run's cuda-emu also compiles the source with NVRTC for sm_80 and
// sm_90 where NVRTC is available.
//
// @tie, worked out by hand: x is 2x9 (9 steps: one mma k-step and a second
// one of a single step, the rest zero-filled), row 0 all 1 + 2^-11 and row
// 1 all -(1 + 3 * 2^-12); member m's w is 9x4 with w[k][j] = (m + 1)(j + 1),
// exact in TF32. TF32 keeps 10 mantissa bits (ulp 2^-10 at 1): 1 + 2^-11 is
// a tie, which cvt.rna rounds away from zero to 1 + 2^-10 (ties to even
// would give 1, truncation too), and 1 + 3 * 2^-12 rounds to 1 + 2^-10. So
// with tf32, out[m][0][j] = 9 (1 + 2^-10)(m + 1)(j + 1) and out[m][1][j] =
// -9 (1 + 2^-10)(m + 1)(j + 1): 9.0087890625 (m = j = 0), every product and
// partial sum exact in f32. Full f32 gives 9 (1 + 2^-11) = 9.00439453125
// and -9 (1 + 3 * 2^-12) = -9.006591796875 instead, so an emulator that
// ignored TF32 fails. 3xTF32 splits 1 + 2^-11 into 1 + 2^-10 and -2^-11
// and -(1 + 3 * 2^-12) into -(1 + 2^-10) and 2^-12, all exact, and w has
// no small part: its products are exactly f32's.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=tie --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 | FileCheck %s --check-prefix=TIE-TF32
// TIE-TF32: out0 = tensor<3x2x4xf32> {{.}}{{.}}{{.}}9.008789, 18.017578, 27.026367, 36.035156], {{.}}-9.008789, -18.017578, -27.026367, -36.035156]], {{.}}{{.}}18.017578,
// RUN: ens-run %s --entry=tie --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=3xtf32 | FileCheck %s --check-prefix=TIE-F32
// RUN: ens-run %s --entry=tie --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=f32 | FileCheck %s --check-prefix=TIE-F32
// RUN: ens-run %s --entry=tie | FileCheck %s --check-prefix=TIE-F32
// TIE-F32: out0 = tensor<3x2x4xf32> {{.}}{{.}}{{.}}9.004395, 18.00879, 27.013184, 36.01758], {{.}}-9.006592, -18.013184, -27.019775, -36.026367]], {{.}}{{.}}18.00879,
//
// The other cases take --random-inputs (uniform in [-1, 1)). Tolerances:
// - f32 (the default) is unchanged: ens-run's default tolerances, as in
//   tiled-boundaries.mlir.
// - tf32: each operand rounds to nearest with a relative error of at most
//   u = 2^-11, so a product a' b' = a b (1 + d) with |d| <= 2u + u^2; its
//   sum over K steps in f32 adds at most about K 2^-24 of the sum of
//   magnitudes. So |got - exact| <= (2^-10 + 2^-22 + K 2^-24) sum_k |a_k
//   b_k| <= K (2^-10 + 2^-22 + K 2^-24) with |a|, |b| < 1: 0.0128 for K =
//   13, 0.0099 for K = 10 (a fused bias add and tanh, 1-Lipschitz, keep
//   it), 0.0394 for K = 40 and 0.098 for K = 100. These are worst cases,
//   used as atol; the typical error is about sqrt(K) 2^-11 / 3.
// - 3xtf32: a b = (a_big + a_small)(b_big + b_small), less a_small
//   b_small (at most 2^-22 |a b|) and the TF32 rounding of the small parts
//   (at most 2^-22 |a b| each), then f32 accumulation: about f32's own
//   error, and ens-run's default tolerances hold.
// 3xtf32 is held to the default tolerances, which tf32 misses (the
// TF32-OFF run below must fail): a 3xtf32 that computed one TF32 product
// per product would fail.
//
// @odd (37x13 @ 13x29, 7 members): a 64x128 block tile (256 threads: 8
//   warps, 2 x 4 warp tiles of 32x32) covers the member's 37x29 points,
//   with rows and columns past the op zero-filled and not stored; 13 steps
//   in one 32-step stage.
// RUN: ens-run %s --entry=odd --random-inputs=5 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=f32 --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --atol=0.0128 --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=3xtf32 --expect=%t/odd/out0.npy
// RUN: not ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --expect=%t/odd/out0.npy 2>&1 | FileCheck %s --check-prefix=TF32-OFF
// TF32-OFF: error: result 0 differs from
// The same program exported with its precision (the artifact's options
// say so) replays on cuda-emu to the same tolerance.
// RUN: ens-run %s --entry=odd --random-inputs=5 --write-inputs=%t/odd-in > /dev/null
// RUN: ens-export %s --entry=odd --gpu-precision=tf32 --emulator -o %t/odd.ens
// RUN: ens-replay %t/odd.ens --backend=cuda-emu --input=%t/odd-in/in0.npy --input=%t/odd-in/in1.npy --atol=0.0128 --expect=%t/odd/out0.npy
// RUN: grep -a -c '"gpu-precision": "tf32"' %t/odd.ens
//
// @epilogue (67x10 @ 10x61 + bias, tanh; 6 members): the bias and tanh
//   are the fused epilogue, applied per accumulator inside its guard;
//   K = 10 is not a multiple of mma's 8.
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --output-dir=%t/epilogue
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --atol=0.0099 --expect=%t/epilogue/out0.npy
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=3xtf32 --expect=%t/epilogue/out0.npy
//
// @blocks (150x40 @ 40x200, 2 members): 3 x 2 block tiles of 64x128 per
//   member (the last of each partly outside), 40 steps in two stages of
//   32, the second with 8 steps.
// RUN: ens-run %s --entry=blocks --random-inputs=11 --output-dir=%t/blocks
// RUN: ens-run %s --entry=blocks --random-inputs=11 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --atol=0.0394 --expect=%t/blocks/out0.npy
// RUN: ens-run %s --entry=blocks --random-inputs=11 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=3xtf32 --expect=%t/blocks/out0.npy
//
// @transposed (x w^T, "bi,oi->bo": b's steps are its rows' columns; K =
//   100 in four stages, the last of 4 steps; 3 members). b's steps are
//   consecutive in memory, so its stage holds each column's steps, and
//   both operands are copied 16 bytes at a time; a stage that held b by
//   steps, or read it so, would fail the tolerances.
// RUN: ens-run %s --entry=transposed --cuda-plan --cuda-strategy=tiled --gpu-precision=tf32 | FileCheck %s --check-prefix=BYCOLS
// BYCOLS: on tf32 tensor cores (mma.sync m16n8k8, b staged by columns, 32 steps at a time in {{[1-3]}} cp.async stages of 16- and 16-byte copies through
// RUN: ens-run %s --entry=transposed --random-inputs=7 --output-dir=%t/transposed
// RUN: ens-run %s --entry=transposed --random-inputs=7 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --atol=0.098 --expect=%t/transposed/out0.npy
// RUN: ens-run %s --entry=transposed --random-inputs=7 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=3xtf32 --expect=%t/transposed/out0.npy
//
// @a_by_steps (x^T w, "ib,io->bo", as a weight gradient: a's rows are
//   consecutive in memory, so its stage holds each step's rows, copied 16
//   bytes at a time; 72 rows leave the second block tile 8, K = 40 in two
//   stages, and w's rows of 50 floats are copied 4 bytes at a time; 2
//   members). The plan says so, and a stage that held a by rows, or read
//   it so, would fail the tolerances.
// RUN: ens-run %s --entry=a_by_steps --cuda-plan --cuda-strategy=tiled --gpu-precision=tf32 | FileCheck %s --check-prefix=BYSTEPS
// BYSTEPS: on tf32 tensor cores (mma.sync m16n8k8, a staged by steps, 32 steps at a time in {{[1-3]}} cp.async stages of 16- and 4-byte copies through
// RUN: ens-run %s --entry=a_by_steps --random-inputs=3 --output-dir=%t/a_by_steps
// RUN: ens-run %s --entry=a_by_steps --random-inputs=3 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --atol=0.0394 --expect=%t/a_by_steps/out0.npy
// RUN: ens-run %s --entry=a_by_steps --random-inputs=3 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=3xtf32 --expect=%t/a_by_steps/out0.npy
//
// @batched ("bij,bjk->bik", 3 batches of 20x12 @ 12x70, 2 members): the
//   batch is a parallel loop of the block tiles besides the rows and
//   columns (3 * 1 * 2 = 6 block tiles per member with 128 threads' 64x64);
//   K = 12, atol 12 (2^-10 + 2^-22 + 12 * 2^-24) = 0.0118.
// RUN: ens-run %s --entry=batched --random-inputs=4 --output-dir=%t/batched
// RUN: ens-run %s --entry=batched --random-inputs=4 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --atol=0.0118 --expect=%t/batched/out0.npy
// RUN: ens-run %s --entry=batched --random-inputs=4 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=3xtf32 --expect=%t/batched/out0.npy
//
// @one_row (1x24 @ 24x300, 4 members): one row, so no tile of rows and
//   columns (planTile): points in FFMA, the same results as f32.
// RUN: ens-run %s --entry=one_row --random-inputs=3 --output-dir=%t/one_row
// RUN: ens-run %s --entry=one_row --random-inputs=3 --backend=cuda-emu --cuda-strategy=tiled --gpu-precision=tf32 --expect=%t/one_row/out0.npy

func.func @tie_member(%x: tensor<2x9xf32>, %w: tensor<9x4xf32>) -> tensor<2x4xf32> {
  %y = ens.matmul %x, %w : tensor<2x9xf32>, tensor<9x4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
func.func @tie() -> tensor<3x2x4xf32> {
  %x = ens.constant dense<[[1.00048828125, 1.00048828125, 1.00048828125, 1.00048828125, 1.00048828125, 1.00048828125, 1.00048828125, 1.00048828125, 1.00048828125], [-1.000732421875, -1.000732421875, -1.000732421875, -1.000732421875, -1.000732421875, -1.000732421875, -1.000732421875, -1.000732421875, -1.000732421875]]> : tensor<2x9xf32>
  %w = ens.constant dense<[[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]], [[2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0]], [[3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0], [3.0, 6.0, 9.0, 12.0]]]> : tensor<3x9x4xf32>
  %y = ens.vmap @tie_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<2x9xf32>, tensor<3x9x4xf32>) -> tensor<3x2x4xf32>
  return %y : tensor<3x2x4xf32>
}

func.func @odd_member(%x: tensor<37x13xf32>, %w: tensor<13x29xf32>) -> tensor<37x29xf32> {
  %y = ens.matmul %x, %w : tensor<37x13xf32>, tensor<13x29xf32> -> tensor<37x29xf32>
  return %y : tensor<37x29xf32>
}
func.func @odd(%x: tensor<37x13xf32>, %w: tensor<7x13x29xf32>) -> tensor<7x37x29xf32> {
  %y = ens.vmap @odd_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 7 : i64}
      : (tensor<37x13xf32>, tensor<7x13x29xf32>) -> tensor<7x37x29xf32>
  return %y : tensor<7x37x29xf32>
}

func.func @epilogue_member(%x: tensor<67x10xf32>, %w: tensor<10x61xf32>, %b: tensor<61xf32>) -> tensor<67x61xf32> {
  %a = ens.matmul %x, %w : tensor<67x10xf32>, tensor<10x61xf32> -> tensor<67x61xf32>
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<61xf32> -> tensor<67x61xf32>
  %s = ens.add %a, %bb : tensor<67x61xf32>
  %h = ens.tanh %s : tensor<67x61xf32>
  return %h : tensor<67x61xf32>
}
func.func @epilogue(%x: tensor<67x10xf32>, %w: tensor<6x10x61xf32>, %b: tensor<6x61xf32>) -> tensor<6x67x61xf32> {
  %y = ens.vmap @epilogue_member(%x, %w, %b) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 6 : i64}
      : (tensor<67x10xf32>, tensor<6x10x61xf32>, tensor<6x61xf32>) -> tensor<6x67x61xf32>
  return %y : tensor<6x67x61xf32>
}

func.func @blocks_member(%x: tensor<150x40xf32>, %w: tensor<40x200xf32>) -> tensor<150x200xf32> {
  %y = ens.matmul %x, %w : tensor<150x40xf32>, tensor<40x200xf32> -> tensor<150x200xf32>
  return %y : tensor<150x200xf32>
}
func.func @blocks(%x: tensor<150x40xf32>, %w: tensor<2x40x200xf32>) -> tensor<2x150x200xf32> {
  %y = ens.vmap @blocks_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<150x40xf32>, tensor<2x40x200xf32>) -> tensor<2x150x200xf32>
  return %y : tensor<2x150x200xf32>
}

func.func @transposed_member(%x: tensor<20x100xf32>, %w: tensor<30x100xf32>) -> tensor<20x30xf32> {
  %y = ens.einsum %x, %w {spec = "bi,oi->bo"} : tensor<20x100xf32>, tensor<30x100xf32> -> tensor<20x30xf32>
  return %y : tensor<20x30xf32>
}
func.func @transposed(%x: tensor<20x100xf32>, %w: tensor<3x30x100xf32>) -> tensor<3x20x30xf32> {
  %y = ens.vmap @transposed_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<20x100xf32>, tensor<3x30x100xf32>) -> tensor<3x20x30xf32>
  return %y : tensor<3x20x30xf32>
}

func.func @a_by_steps_member(%x: tensor<40x72xf32>, %w: tensor<40x50xf32>) -> tensor<72x50xf32> {
  %y = ens.einsum %x, %w {spec = "ib,io->bo"} : tensor<40x72xf32>, tensor<40x50xf32> -> tensor<72x50xf32>
  return %y : tensor<72x50xf32>
}
func.func @a_by_steps(%x: tensor<40x72xf32>, %w: tensor<2x40x50xf32>) -> tensor<2x72x50xf32> {
  %y = ens.vmap @a_by_steps_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<40x72xf32>, tensor<2x40x50xf32>) -> tensor<2x72x50xf32>
  return %y : tensor<2x72x50xf32>
}

func.func @one_row_member(%x: tensor<1x24xf32>, %w: tensor<24x300xf32>) -> tensor<1x300xf32> {
  %y = ens.matmul %x, %w : tensor<1x24xf32>, tensor<24x300xf32> -> tensor<1x300xf32>
  return %y : tensor<1x300xf32>
}
func.func @one_row(%x: tensor<1x24xf32>, %w: tensor<4x24x300xf32>) -> tensor<4x1x300xf32> {
  %y = ens.vmap @one_row_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<1x24xf32>, tensor<4x24x300xf32>) -> tensor<4x1x300xf32>
  return %y : tensor<4x1x300xf32>
}

func.func @batched_member(%x: tensor<3x20x12xf32>, %w: tensor<3x12x70xf32>) -> tensor<3x20x70xf32> {
  %y = ens.einsum %x, %w {spec = "bij,bjk->bik"} : tensor<3x20x12xf32>, tensor<3x12x70xf32> -> tensor<3x20x70xf32>
  return %y : tensor<3x20x70xf32>
}
func.func @batched(%x: tensor<3x20x12xf32>, %w: tensor<2x3x12x70xf32>) -> tensor<2x3x20x70xf32> {
  %y = ens.vmap @batched_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<3x20x12xf32>, tensor<2x3x12x70xf32>) -> tensor<2x3x20x70xf32>
  return %y : tensor<2x3x20x70xf32>
}
