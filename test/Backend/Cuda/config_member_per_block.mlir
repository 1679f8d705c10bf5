// The decisions of the member-per-block strategy (lib/Backend/Cuda/
// Planning.cpp), apart from the kernels that follow them (the other tests here):
// threads per block, where each temporary of a member lives, which
// operands each op stages in shared memory and at which offsets, and which
// reductions a block shares among its threads. Each expected value is
// worked out by hand from the heuristics, as the comments show.
//
// RUN: ens-run %s --entry=two_layers --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=LAYERS
// RUN: ens-run %s --entry=sum_squares --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=SUM
// RUN: ens-run %s --entry=spill --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=SPILL
// RUN: ens-run %s --entry=row_sums --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=ROWS
// RUN: ens-run %s --entry=odd_rows --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=ODD-ROWS
// RUN: ens-run %s --entry=column_sums --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=COLUMNS
//
// The warp reductions run on cuda-emu as the interpreter (the oracle)
// computes them: 16 elements over 8 warps (two rounds), 300 steps over 32
// lanes (9 or 10 each), tanh as the epilogue lane 0 applies. Inputs uniform in [-1, 1); sums of 300 squares (about
// 100) added in another order: absolute tolerance 1e-4.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=row_sums --random-inputs=3 --output-dir=%t/want
// RUN: ens-run %s --entry=row_sums --random-inputs=3 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/want/out0.npy --atol=1e-4 > %t/got.txt

// Per member: h = tanh(x w1) (64x16), y = h w2 (64x8); x is shared.
// Phase 0: x w1 has 64 * 16 * 32 = 32768 iterations; x (2048 elements,
// 8 KiB) is read 16 times per element and w1 (512 elements, 2 KiB) 64
// times: both are staged (at least 4 reads, at most 16 KiB), after the
// temporaries (h, 4 KiB at 0): x at 4096, w1 at 4096 + 8192. tanh is the
// epilogue, so x w1 stays in registers.
// Phase 1: h w2 has 64 * 8 * 16 = 8192 iterations; h is in shared memory
// already; w2 (128 elements, 512 bytes) is read 64 times: staged at 4096.
// Shared memory: 4096 + the most one phase stages, 8192 + 2048.
// Both are contractions of rows d1 (64) and columns d2 (the output's
// innermost loop): x and h follow d1 and not d2, w1 and w2 d2 and not d1,
// so each thread computes 4x4 tiles of points.
// LAYERS:      kernel k0_members: member-per-block, 8 members, 256 threads, 14336 bytes of shared memory
// LAYERS-NEXT:   temporary 0: memref<1x64x16xf32>, registers
// LAYERS-NEXT:   temporary 1: memref<1x64x16xf32>, 4096 bytes, shared at 0
// LAYERS-NEXT:   phase 0: points in 4x4 tiles of d1, d2, consecutive along d2 with fused epilogue; {{.*}}ens.tanh
// LAYERS-NEXT:     stage operand 0: 8192 bytes, shared at 4096
// LAYERS-NEXT:     stage operand 1: 2048 bytes, shared at 12288
// LAYERS-NEXT:   phase 1: points in 4x4 tiles of d1, d2, consecutive along d2; {{.+}}
// LAYERS-NEXT:     stage operand 1: 512 bytes, shared at 4096
// LAYERS-NOT: {{.}}

func.func @two_layers_member(%x: tensor<64x32xf32>, %w1: tensor<32x16xf32>,
                             %w2: tensor<16x8xf32>) -> tensor<64x8xf32> {
  %a = ens.matmul %x, %w1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  %h = ens.tanh %a : tensor<64x16xf32>
  %y = ens.matmul %h, %w2 : tensor<64x16xf32>, tensor<16x8xf32> -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}

func.func @two_layers(%x: tensor<64x32xf32>, %w1: tensor<8x32x16xf32>,
                      %w2: tensor<8x16x8xf32>) -> tensor<8x64x8xf32> {
  %y = ens.vmap @two_layers_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<64x32xf32>, tensor<8x32x16xf32>, tensor<8x16x8xf32>) -> tensor<8x64x8xf32>
  return %y : tensor<8x64x8xf32>
}

// Per member: the sum of 4096 squares, one output element. Whole elements
// per thread would take 4096 steps; shared among 256 threads, 4096 / 256 +
// 12 (the combination) = 28: the block shares them. Each element of x is
// read once, so nothing is staged; no temporary needs shared memory.
// SUM:      kernel k0_members: member-per-block, 6 members, 256 threads, 0 bytes of shared memory
// SUM-NEXT:   phase 0: block reduction (arith.addf); {{.*}}ens.reduce_sum
// SUM-NOT: {{.}}

func.func @sum_squares_member(%x: tensor<4096xf32>) -> tensor<f32> {
  %s = ens.mul %x, %x : tensor<4096xf32>
  %r = ens.reduce_sum %s {dims = array<i64: 0>} : tensor<4096xf32> -> tensor<f32>
  return %r : tensor<f32>
}

func.func @sum_squares(%x: tensor<6x4096xf32>) -> tensor<6xf32> {
  %r = ens.vmap @sum_squares_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 6 : i64}
      : (tensor<6x4096xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// Per member: t = tanh(x), 256x256 floats = 256 KiB, more than the 161 KiB
// budget: t moves to global memory, a buffer after the argument (0) and the
// result (1). t t reads t 256 times per element, but 256 KiB is more than
// the 16 KiB a staged operand may take. t t is a contraction: tiles of
// its rows d1 and columns d2 (t follows each without the other), 8x4
// (planTallTiles: 32 x 64 tiles, more than the 256 threads, over 256
// steps); its steps read t from global memory: 8 at a time (planUnroll).
// (Not consecutive: t is a global temporary, whose place the planner does
// not know.)
// SPILL:      kernel k0_members: member-per-block, 2 members, 256 threads, 0 bytes of shared memory
// SPILL-NEXT:   temporary 0: memref<1x256x256xf32>, 262144 bytes, global buffer 2
// SPILL-NEXT:   phase 0: points; {{.*}}ens.tanh
// SPILL-NEXT:   phase 1: points in 8x4 tiles of d1, d2, 8 steps at a time; {{.+}}
// SPILL-NOT: {{.}}

func.func @spill_member(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %t = ens.tanh %x : tensor<256x256xf32>
  %y = ens.matmul %t, %t : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}

func.func @spill(%x: tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
  %y = ens.vmap @spill_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  return %y : tensor<2x256x256xf32>
}

// Per member: the sums of squares of the 16 rows of x (16x300), then tanh.
// Whole elements per thread: 300 steps; the block sharing each element:
// 16 * (ceil(300 / 256) + 12) = 224; each warp sharing whole elements,
// the block's 8 warps at once: 16 / 8 * (ceil(300 / 32) + 5) = 30, the
// cheapest: a warp reduction, tanh its fused epilogue. With 13 rows
// (@odd_rows) the warps would take 2 or 1 elements: the block shares each.
// ROWS:      kernel k0_members: member-per-block, 5 members, 256 threads, 0 bytes of shared memory
// ROWS-NEXT:   temporary 0: memref<1x16xf32>, registers
// ROWS-NEXT:   phase 0: warp reduction (arith.addf) with fused epilogue; {{.*}}ens.reduce_sum, ens.tanh
// ROWS-NOT: {{.}}

func.func @row_sums_member(%x: tensor<16x300xf32>) -> tensor<16xf32> {
  %s = ens.mul %x, %x : tensor<16x300xf32>
  %r = ens.reduce_sum %s {dims = array<i64: 1>} : tensor<16x300xf32> -> tensor<16xf32>
  %t = ens.tanh %r : tensor<16xf32>
  return %t : tensor<16xf32>
}

func.func @row_sums(%x: tensor<5x16x300xf32>) -> tensor<5x16xf32> {
  %r = ens.vmap @row_sums_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 5 : i64}
      : (tensor<5x16x300xf32>) -> tensor<5x16xf32>
  return %r : tensor<5x16xf32>
}

// ODD-ROWS:      kernel k0_members: member-per-block, 5 members, 256 threads, 0 bytes of shared memory
// ODD-ROWS-NEXT:   temporary 0: memref<1x13xf32>, registers
// ODD-ROWS-NEXT:   phase 0: block reduction (arith.addf) with fused epilogue; {{.*}}ens.reduce_sum, ens.tanh
// ODD-ROWS-NOT: {{.}}

func.func @odd_rows_member(%x: tensor<13x300xf32>) -> tensor<13xf32> {
  %s = ens.mul %x, %x : tensor<13x300xf32>
  %r = ens.reduce_sum %s {dims = array<i64: 1>} : tensor<13x300xf32> -> tensor<13xf32>
  %t = ens.tanh %r : tensor<13xf32>
  return %t : tensor<13xf32>
}

func.func @odd_rows(%x: tensor<5x13x300xf32>) -> tensor<5x13xf32> {
  %r = ens.vmap @odd_rows_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 5 : i64}
      : (tensor<5x13x300xf32>) -> tensor<5x13xf32>
  return %r : tensor<5x13xf32>
}

// Per member: the sums of the 32 columns of x (256x32), a bias gradient's
// shape. Whole elements per thread: 256 steps, against 32 * (1 + 12) = 416
// for the block sharing each element: a thread per element, whose lanes
// read consecutive words (warps sharing an element's steps would read a
// column, 32 words apart: one bank).
// COLUMNS:      kernel k0_members: member-per-block, 5 members, 256 threads, 0 bytes of shared memory
// COLUMNS-NEXT:   phase 0: points; {{.*}}ens.reduce_sum
// COLUMNS-NOT: {{.}}

func.func @column_sums_member(%x: tensor<256x32xf32>) -> tensor<32xf32> {
  %r = ens.reduce_sum %x {dims = array<i64: 0>} : tensor<256x32xf32> -> tensor<32xf32>
  return %r : tensor<32xf32>
}

func.func @column_sums(%x: tensor<5x256x32xf32>) -> tensor<5x32xf32> {
  %r = ens.vmap @column_sums_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 5 : i64}
      : (tensor<5x256x32xf32>) -> tensor<5x32xf32>
  return %r : tensor<5x32xf32>
}
