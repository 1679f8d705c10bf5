// Vendor GEMM steps run on cuda-emu: the emulator computes each step with
// the host GEMM of its BLAS parameters (lib/Runtime/Gemm.cpp), so a wrong
// transpose, leading dimension, stride or operand order in a plan gives a
// wrong answer here. For each case the interpreter (the oracle, which runs
// the vmap member by member) writes the results, and cuda-emu must agree
// with the contractions forced onto cuBLAS steps (--cuda-gemm=cublas) with
// the tiled strategy, whose phases may be steps. The plans of @matmul and
// @weight_grad are worked out in config_vendor_gemm.mlir; the sizes here
// are the boundary ones of tiled-boundaries.mlir:
//
// @rem (6x5 @ 5x7, 3 members): sizes no tile divides; shared x (stride 0).
// @one_row (1x24 @ 24x300, 4 members): m = 300, n = 1 (ldc = 300).
// @k_one (9x1 @ 1x11, 5 members): k = 1.
// @odd (37x13 @ 13x29, 7 members).
// @many (64x20 @ 20x72, 133 members, more than an H100's 132 SMs).
// @weight_grad (x^T dy, 133 members): B transposed.
// @transposed: x w^T ("bi,oi->bo": A transposed), x (transpose w) (a
//   generated transpose between two steps), and "ib,oi->ob" with both
//   inputs and the output transposed.
// @one_member (a vmap of one member, a loop of one iteration, the tiled
//   strategy forced): the first matmul keeps its fused tanh (a generated
//   kernel), the second is a step after it.
// @chain ((x w1) w2 and the column sums of x w1, 6 members): the first
//   step writes a temporary (a plan buffer in the arena, placed by the
//   live ranges of the steps and launches) that the second step and the
//   sum's kernel after both read.
// @long_batch (x^T dy over a batch of 8192, one member): forced onto a
//   step, and as the model picks it (config_vendor_gemm.mlir: a generated
//   kernel whose 512 blocks split the batch); the host GEMM adds 8192
//   products in f32, the interpreter in double: partial sums reach about
//   sqrt(8192 / 9) = 30, and 8192 roundings of up to 6e-8 of them add to
//   about 2e-4; atol 1e-3.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=rem --random-inputs=1 --output-dir=%t/rem
// RUN: ens-run %s --entry=rem --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/rem/out0.npy
// RUN: ens-run %s --entry=one_row --random-inputs=2 --output-dir=%t/one_row
// RUN: ens-run %s --entry=one_row --random-inputs=2 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/one_row/out0.npy
// RUN: ens-run %s --entry=k_one --random-inputs=3 --output-dir=%t/k_one
// RUN: ens-run %s --entry=k_one --random-inputs=3 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/k_one/out0.npy
// RUN: ens-run %s --entry=odd --random-inputs=4 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=4 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=many --random-inputs=5 --output-dir=%t/many
// RUN: ens-run %s --entry=many --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/many/out0.npy
// RUN: ens-run %s --entry=weight_grad --random-inputs=6 --output-dir=%t/weight_grad
// RUN: ens-run %s --entry=weight_grad --random-inputs=6 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/weight_grad/out0.npy
// RUN: ens-run %s --entry=transposed --random-inputs=7 --output-dir=%t/transposed
// RUN: ens-run %s --entry=transposed --random-inputs=7 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/transposed/out0.npy --expect=%t/transposed/out1.npy --expect=%t/transposed/out2.npy
// RUN: ens-run %s --entry=one_member --random-inputs=8 --output-dir=%t/one_member
// RUN: ens-run %s --entry=one_member --random-inputs=8 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/one_member/out0.npy
// RUN: ens-run %s --entry=chain --random-inputs=10 --output-dir=%t/chain
// RUN: ens-run %s --entry=chain --random-inputs=10 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --expect=%t/chain/out0.npy --expect=%t/chain/out1.npy
// RUN: ens-run %s --entry=long_batch --random-inputs=9 --output-dir=%t/long_batch
// RUN: ens-run %s --entry=long_batch --random-inputs=9 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --atol=1e-3 --expect=%t/long_batch/out0.npy
// RUN: ens-run %s --entry=long_batch --random-inputs=9 --backend=cuda-emu --atol=1e-3 --expect=%t/long_batch/out0.npy
//
// Each of them has its steps (and @one_member its generated kernel first).
// RUN: ens-run %s --entry=transposed --cuda-plan --cuda-strategy=tiled --cuda-gemm=cublas | FileCheck %s --check-prefix=TRANS
// TRANS:      phase 0: gemm step 0; ens.einsum
// TRANS-NEXT: phase 1: kernel k0_tiled, 1 blocks per member, points; ens.transpose
// TRANS-NEXT: phase 2: gemm step 1; ens.einsum
// TRANS-NEXT: phase 3: gemm step 2; ens.einsum
// TRANS-NEXT: gemm step 0 after 0 launches: sgemm strided batched: transa T, transb N, m 13, n 10, k 6, batch 3,
// TRANS-NEXT: gemm step 1 after 1 launches: sgemm strided batched: transa N, transb N, m 13, n 10, k 6, batch 3,
// TRANS-NEXT: gemm step 2 after 1 launches: sgemm strided batched: transa N, transb N, m 10, n 13, k 6, batch 3,
// RUN: ens-run %s --entry=one_member --cuda-plan --cuda-strategy=tiled --cuda-gemm=cublas | FileCheck %s --check-prefix=ONE
// ONE: gemm step 0 after 1 launches: sgemm strided batched: transa N, transb N, m 5, n 20, k 9, batch 1,
//
// An artifact carries its steps: exported with the emulator's build, it
// replays through libens-runtime alone with the interpreter's results.
// RUN: ens-run %s --entry=weight_grad --random-inputs=6 --output-dir=%t/export --write-inputs=%t/export
// RUN: ens-export %s --entry=weight_grad --target=cuda --emulator --cuda-strategy=tiled --cuda-gemm=cublas -o %t/weight_grad.ens
// RUN: ens-replay %t/weight_grad.ens --backend=cuda-emu --input=%t/export/in0.npy --input=%t/export/in1.npy --expect=%t/export/out0.npy
//
// An artifact with GEMM steps is format version 2, which a runtime that
// reads version 1 only refuses rather than skip the steps; one without
// stays version 1, and one with steps marked version 1 is refused here.
// RUN: od -An -tu1 -j8 -N4 %t/weight_grad.ens | FileCheck %s --check-prefix=VERSION2
// VERSION2: 2 0 0 0
// RUN: ens-export %s --entry=weight_grad --target=cuda --emulator --cuda-gemm=generated -o %t/generated.ens
// RUN: od -An -tu1 -j8 -N4 %t/generated.ens | FileCheck %s --check-prefix=VERSION1
// VERSION1: 1 0 0 0
// RUN: cp %t/weight_grad.ens %t/marked1.ens
// RUN: printf '\001' | dd of=%t/marked1.ens bs=1 seek=8 conv=notrunc 2> /dev/null
// RUN: not ens-replay %t/marked1.ens 2>&1 | FileCheck %s --check-prefix=MARKED1
// MARKED1: marked1.ens: a version 1 artifact with vendor GEMM steps (corrupt?)
//
// The steps run in the plan's order on the emulator: --cuda-dump's plan
// lists the transpose's launch between the first two steps.
// RUN: ens-run %s --entry=transposed --random-inputs=7 --backend=cuda-emu --cuda-strategy=tiled --cuda-gemm=cublas --cuda-dump=%t/dump > /dev/null
// RUN: FileCheck %s --check-prefix=ORDER < %t/dump/plan.txt
// ORDER:      gemm sgemm strided batched: transa T
// ORDER-NEXT: launch k0_tiled
// ORDER-NEXT: gemm sgemm strided batched: transa N, transb N, m 13
// ORDER-NEXT: gemm sgemm strided batched: transa N, transb N, m 10

func.func @rem_member(%x: tensor<6x5xf32>, %w: tensor<5x7xf32>) -> tensor<6x7xf32> {
  %y = ens.matmul %x, %w : tensor<6x5xf32>, tensor<5x7xf32> -> tensor<6x7xf32>
  return %y : tensor<6x7xf32>
}
func.func @rem(%x: tensor<6x5xf32>, %w: tensor<3x5x7xf32>) -> tensor<3x6x7xf32> {
  %y = ens.vmap @rem_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<6x5xf32>, tensor<3x5x7xf32>) -> tensor<3x6x7xf32>
  return %y : tensor<3x6x7xf32>
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

func.func @k_one_member(%x: tensor<9x1xf32>, %w: tensor<1x11xf32>) -> tensor<9x11xf32> {
  %y = ens.matmul %x, %w : tensor<9x1xf32>, tensor<1x11xf32> -> tensor<9x11xf32>
  return %y : tensor<9x11xf32>
}
func.func @k_one(%x: tensor<9x1xf32>, %w: tensor<5x1x11xf32>) -> tensor<5x9x11xf32> {
  %y = ens.vmap @k_one_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 5 : i64}
      : (tensor<9x1xf32>, tensor<5x1x11xf32>) -> tensor<5x9x11xf32>
  return %y : tensor<5x9x11xf32>
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

func.func @many_member(%x: tensor<64x20xf32>, %w: tensor<20x72xf32>) -> tensor<64x72xf32> {
  %y = ens.matmul %x, %w : tensor<64x20xf32>, tensor<20x72xf32> -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}
func.func @many(%x: tensor<64x20xf32>, %w: tensor<133x20x72xf32>) -> tensor<133x64x72xf32> {
  %y = ens.vmap @many_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 133 : i64}
      : (tensor<64x20xf32>, tensor<133x20x72xf32>) -> tensor<133x64x72xf32>
  return %y : tensor<133x64x72xf32>
}

func.func @weight_grad_member(%x: tensor<9x4xf32>, %dy: tensor<9x5xf32>) -> tensor<4x5xf32> {
  %g = ens.einsum %x, %dy {spec = "bi,bo->io"} : tensor<9x4xf32>, tensor<9x5xf32> -> tensor<4x5xf32>
  return %g : tensor<4x5xf32>
}
func.func @weight_grad(%x: tensor<9x4xf32>, %dy: tensor<133x9x5xf32>) -> tensor<133x4x5xf32> {
  %g = ens.vmap @weight_grad_member(%x, %dy) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 133 : i64}
      : (tensor<9x4xf32>, tensor<133x9x5xf32>) -> tensor<133x4x5xf32>
  return %g : tensor<133x4x5xf32>
}

func.func @transposed_member(%x: tensor<10x6xf32>, %w: tensor<13x6xf32>, %v: tensor<6x10xf32>)
    -> (tensor<10x13xf32>, tensor<10x13xf32>, tensor<13x10xf32>) {
  %a = ens.einsum %x, %w {spec = "bi,oi->bo"} : tensor<10x6xf32>, tensor<13x6xf32> -> tensor<10x13xf32>
  %wt = ens.transpose %w {permutation = array<i64: 1, 0>} : tensor<13x6xf32> -> tensor<6x13xf32>
  %b = ens.matmul %x, %wt : tensor<10x6xf32>, tensor<6x13xf32> -> tensor<10x13xf32>
  %c = ens.einsum %v, %w {spec = "ib,oi->ob"} : tensor<6x10xf32>, tensor<13x6xf32> -> tensor<13x10xf32>
  return %a, %b, %c : tensor<10x13xf32>, tensor<10x13xf32>, tensor<13x10xf32>
}
func.func @transposed(%x: tensor<10x6xf32>, %w: tensor<3x13x6xf32>, %v: tensor<3x6x10xf32>)
    -> (tensor<3x10x13xf32>, tensor<3x10x13xf32>, tensor<3x13x10xf32>) {
  %a, %b, %c = ens.vmap @transposed_member(%x, %w, %v) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0, 0, 0>, size = 3 : i64}
      : (tensor<10x6xf32>, tensor<3x13x6xf32>, tensor<3x6x10xf32>) -> (tensor<3x10x13xf32>, tensor<3x10x13xf32>, tensor<3x13x10xf32>)
  return %a, %b, %c : tensor<3x10x13xf32>, tensor<3x10x13xf32>, tensor<3x13x10xf32>
}

func.func @one_member_member(%x: tensor<20x12xf32>, %w1: tensor<12x9xf32>, %w2: tensor<9x5xf32>) -> tensor<20x5xf32> {
  %a = ens.matmul %x, %w1 : tensor<20x12xf32>, tensor<12x9xf32> -> tensor<20x9xf32>
  %h = ens.tanh %a : tensor<20x9xf32>
  %y = ens.matmul %h, %w2 : tensor<20x9xf32>, tensor<9x5xf32> -> tensor<20x5xf32>
  return %y : tensor<20x5xf32>
}
func.func @one_member(%x: tensor<20x12xf32>, %w1: tensor<1x12x9xf32>, %w2: tensor<1x9x5xf32>) -> tensor<1x20x5xf32> {
  %y = ens.vmap @one_member_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 1 : i64}
      : (tensor<20x12xf32>, tensor<1x12x9xf32>, tensor<1x9x5xf32>) -> tensor<1x20x5xf32>
  return %y : tensor<1x20x5xf32>
}

func.func @chain_member(%x: tensor<11x7xf32>, %w1: tensor<7x9xf32>, %w2: tensor<9x5xf32>) -> (tensor<11x5xf32>, tensor<9xf32>) {
  %h = ens.matmul %x, %w1 : tensor<11x7xf32>, tensor<7x9xf32> -> tensor<11x9xf32>
  %y = ens.matmul %h, %w2 : tensor<11x9xf32>, tensor<9x5xf32> -> tensor<11x5xf32>
  %s = ens.reduce_sum %h {dims = array<i64: 0>} : tensor<11x9xf32> -> tensor<9xf32>
  return %y, %s : tensor<11x5xf32>, tensor<9xf32>
}
func.func @chain(%x: tensor<11x7xf32>, %w1: tensor<6x7x9xf32>, %w2: tensor<6x9x5xf32>) -> (tensor<6x11x5xf32>, tensor<6x9xf32>) {
  %y, %s = ens.vmap @chain_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0, 0>, size = 6 : i64}
      : (tensor<11x7xf32>, tensor<6x7x9xf32>, tensor<6x9x5xf32>) -> (tensor<6x11x5xf32>, tensor<6x9xf32>)
  return %y, %s : tensor<6x11x5xf32>, tensor<6x9xf32>
}

func.func @long_batch_member(%x: tensor<8192x32xf32>, %dy: tensor<8192x16xf32>) -> tensor<32x16xf32> {
  %g = ens.einsum %x, %dy {spec = "bi,bo->io"} : tensor<8192x32xf32>, tensor<8192x16xf32> -> tensor<32x16xf32>
  return %g : tensor<32x16xf32>
}
func.func @long_batch(%x: tensor<8192x32xf32>, %dy: tensor<1x8192x16xf32>) -> tensor<1x32x16xf32> {
  %g = ens.vmap @long_batch_member(%x, %dy) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 1 : i64}
      : (tensor<8192x32xf32>, tensor<1x8192x16xf32>) -> tensor<1x32x16xf32>
  return %g : tensor<1x32x16xf32>
}
