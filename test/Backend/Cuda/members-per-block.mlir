// The members-per-block strategy (--cuda-strategy=members-per-block,
// lib/Backend/Cuda/MemberKernelEmitter.cpp) at its edges: warp w of block b
// computes member b * P + w, so a member count that P does not divide
// leaves the last block's last warps without a member, which return before
// anything else (no barrier of the block waits for them). For each case
// the interpreter (the oracle, member by member) writes the results, and
// cuda-emu must agree with them; each case's plan (--cuda-plan) shows the
// edge it reaches. Inputs come from --random-inputs (floats uniform in
// [-1, 1)); the tolerances are ens-run's defaults (1e-5 relative, 1e-6
// absolute) but for the sums of 1000 steps (@sums).
// tiled-boundaries.mlir runs its cases (tiles that do not divide the dims,
// one row, K = 1, 133 members, transposed operands, split reductions) under
// this strategy too, and config_members_per_block.mlir checks the plans.
//
// @remainder (4100 members of a 4 -> 8 tanh -> 1 network, batch 32 shared):
//   16 members per block (the model's pick, as for 4096 members in
//   config_members_per_block.mlir), ceil(4100 / 16) = 257 blocks; the last
//   computes members 4096-4099 and its 12 other warps return.
// @odd (37x13 @ 13x29, tanh, @ 29x7; 301 members): odd sizes whose 4x4 tiles
//   divide nothing (rows 10 tiles, columns 8 then 2), each member's h
//   (37x29 floats, 4292 bytes) and staged operands in its slice of 7760
//   bytes (7748 rounded up to 16); 2 members per block (ceil(301 / 4) = 76
//   blocks would leave SMs idle), 151 blocks, the last with one member.
// @one (the same member, one of it): a vmap of size 1 is a loop of one
//   iteration (ens-fuse-members' one-member-loops), one block of one warp:
//   not 16 members a block, whose 15 other warps would return at once.
// @sums (301 members): a sum of 10 steps, which a warp shares (1 step a
//   thread and 5 shuffles against 10; member-per-block would not), and
//   sums of 1000 steps for 3 elements, whose warp adds each thread's 31 or 32
//   steps four at a time and then combines the threads' shares with
//   shuffles: another order than the interpreter's, up to about 5e-6 apart
//   on partial sums of about sqrt(1000 / 3) = 18; absolute tolerance 1e-4,
//   far below what one element left out (about 0.5) would change.
// @train_step (300 members, make_workloads.py: 5 -> 9 tanh -> 1, batch 33):
//   forward, MSE, backward and Adam in one kernel of 2 members per block,
//   150 blocks; the block reductions (the loss, the bias gradients) are
//   warp reductions.
//
// An exported artifact (ens-export) runs the same kernel through
// libens-runtime alone, and its plan carries each kernel's round trips per
// thread for the performance model: the 2 phases of @odd. An artifact
// written before that field (a fuzzing corpus entry) still reads, as one
// round trip per thread, and fails only for what it lacks.
//
// RUN: rm -rf %t && mkdir -p %t
//
// RUN: ens-run %s --entry=odd --random-inputs=2 --write-inputs=%t/export/in --output-dir=%t/export/want
// RUN: ens-export %s --entry=odd --target=cuda --emulator --cuda-strategy=members-per-block -o %t/export/odd.ens
// RUN: ens-replay %t/export/odd.ens --backend=cuda-emu --input=%t/export/in/in0.npy --input=%t/export/in/in1.npy --input=%t/export/in/in2.npy --expect=%t/export/want/out0.npy
// RUN: grep -a '"dependent_loads_per_thread"' %t/export/odd.ens | FileCheck %s --check-prefix=EXPORT
// EXPORT: "dependent_loads_per_thread": 2,
// RUN: not grep -a -q dependent_loads_per_thread %ens_src_root/test/fuzz/corpus/artifact/fma-sm_80.ens
// RUN: not ens-replay %ens_src_root/test/fuzz/corpus/artifact/fma-sm_80.ens --backend=cuda-emu 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: ens-replay: error: the artifact has no emulator section; export it with --emulator to run it on cuda-emu
//
// RUN: ens-run %s --entry=remainder --random-inputs=1 --output-dir=%t/remainder
// RUN: ens-run %s --entry=remainder --random-inputs=1 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/remainder/out0.npy
// RUN: ens-run %s --entry=remainder --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=REMAINDER
// REMAINDER:      kernel k0_members: members-per-block, 4100 members, 512 threads, 26624 bytes of shared memory
// REMAINDER-NEXT:   per block: 16 members; per member: 32 threads, 1664 bytes of shared memory
//
// RUN: ens-run %s --entry=odd --random-inputs=2 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=2 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=odd --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=ODD
// ODD:      kernel k0_members: members-per-block, 301 members, 64 threads, 15520 bytes of shared memory
// ODD-NEXT:   per block: 2 members; per member: 32 threads, 7760 bytes of shared memory
//
// RUN: ens-run %s --entry=one --random-inputs=3 --output-dir=%t/one
// RUN: ens-run %s --entry=one --random-inputs=3 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/one/out0.npy
// RUN: ens-run %s --entry=one --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=ONE
// ONE:      kernel k0_members: members-per-block, 1 members, 32 threads, 7760 bytes of shared memory
// ONE-NEXT:   per block: 1 members; per member: 32 threads, 7760 bytes of shared memory
//
// RUN: ens-run %s --entry=sums --random-inputs=4 --output-dir=%t/sums
// RUN: ens-run %s --entry=sums --random-inputs=4 --backend=cuda-emu --cuda-strategy=members-per-block --atol=1e-4 --expect=%t/sums/out0.npy --expect=%t/sums/out1.npy
// RUN: ens-run %s --entry=sums --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=SUMS
// SUMS:      kernel k0_members: members-per-block, 301 members, 64 threads, 0 bytes of shared memory
// SUMS-NEXT:   per block: 2 members; per member: 32 threads, 0 bytes of shared memory
// SUMS-NEXT:   phase 0: block reduction (arith.addf); ens.reduce_sum
// SUMS-NEXT:   phase 1: block reduction (arith.addf); ens.reduce_sum
//
// RUN: %python %ens_src_root/examples/workloads/make_workloads.py --members 300 --batch 33 --widths 5,9,1 --activation tanh -o %t/step.mlir
// RUN: ens-run %t/step.mlir --entry=random_state --random-inputs=5 --output-dir=%t/step-state
// RUN: ens-run %t/step.mlir --entry=train_step --input=%t/step-state/out0.npy --input=%t/step-state/out1.npy --input=%t/step-state/out2.npy --input=%t/step-state/out3.npy --input=%t/step-state/out4.npy --input=%t/step-state/out5.npy --input=%t/step-state/out6.npy --input=%t/step-state/out7.npy --input=%t/step-state/out8.npy --input=%t/step-state/out9.npy --input=%t/step-state/out10.npy --input=%t/step-state/out11.npy --input=%t/step-state/out12.npy --input=%t/step-state/out13.npy --input=%t/step-state/out14.npy --input=%t/step-state/out15.npy --output-dir=%t/step-interp
// RUN: ens-run %t/step.mlir --entry=train_step --backend=cuda-emu --cuda-strategy=members-per-block --input=%t/step-state/out0.npy --input=%t/step-state/out1.npy --input=%t/step-state/out2.npy --input=%t/step-state/out3.npy --input=%t/step-state/out4.npy --input=%t/step-state/out5.npy --input=%t/step-state/out6.npy --input=%t/step-state/out7.npy --input=%t/step-state/out8.npy --input=%t/step-state/out9.npy --input=%t/step-state/out10.npy --input=%t/step-state/out11.npy --input=%t/step-state/out12.npy --input=%t/step-state/out13.npy --input=%t/step-state/out14.npy --input=%t/step-state/out15.npy --expect=%t/step-interp/out0.npy --expect=%t/step-interp/out1.npy --expect=%t/step-interp/out2.npy --expect=%t/step-interp/out3.npy --expect=%t/step-interp/out4.npy --expect=%t/step-interp/out5.npy --expect=%t/step-interp/out6.npy --expect=%t/step-interp/out7.npy --expect=%t/step-interp/out8.npy --expect=%t/step-interp/out9.npy --expect=%t/step-interp/out10.npy --expect=%t/step-interp/out11.npy --expect=%t/step-interp/out12.npy
// RUN: ens-run %t/step.mlir --entry=train_step --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=STEP
// STEP:      kernel k0_members: members-per-block, 300 members, 64 threads, 7392 bytes of shared memory
// STEP-NEXT:   per block: 2 members; per member: 32 threads, 3696 bytes of shared memory
// STEP:        phase 2: block reduction (arith.addf) with fused epilogue; ens.reduce_mean

func.func @tiny_member(%x: tensor<32x4xf32>, %w1: tensor<4x8xf32>,
                       %w2: tensor<8x1xf32>) -> tensor<32x1xf32> {
  %a = ens.matmul %x, %w1 : tensor<32x4xf32>, tensor<4x8xf32> -> tensor<32x8xf32>
  %h = ens.tanh %a : tensor<32x8xf32>
  %y = ens.matmul %h, %w2 : tensor<32x8xf32>, tensor<8x1xf32> -> tensor<32x1xf32>
  return %y : tensor<32x1xf32>
}

func.func @remainder(%x: tensor<32x4xf32>, %w1: tensor<4100x4x8xf32>,
                     %w2: tensor<4100x8x1xf32>) -> tensor<4100x32x1xf32> {
  %y = ens.vmap @tiny_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 4100 : i64}
      : (tensor<32x4xf32>, tensor<4100x4x8xf32>, tensor<4100x8x1xf32>) -> tensor<4100x32x1xf32>
  return %y : tensor<4100x32x1xf32>
}

func.func @odd_member(%x: tensor<37x13xf32>, %w1: tensor<13x29xf32>,
                      %w2: tensor<29x7xf32>) -> tensor<37x7xf32> {
  %a = ens.matmul %x, %w1 : tensor<37x13xf32>, tensor<13x29xf32> -> tensor<37x29xf32>
  %h = ens.tanh %a : tensor<37x29xf32>
  %y = ens.matmul %h, %w2 : tensor<37x29xf32>, tensor<29x7xf32> -> tensor<37x7xf32>
  return %y : tensor<37x7xf32>
}

func.func @odd(%x: tensor<37x13xf32>, %w1: tensor<301x13x29xf32>,
               %w2: tensor<301x29x7xf32>) -> tensor<301x37x7xf32> {
  %y = ens.vmap @odd_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 301 : i64}
      : (tensor<37x13xf32>, tensor<301x13x29xf32>, tensor<301x29x7xf32>) -> tensor<301x37x7xf32>
  return %y : tensor<301x37x7xf32>
}

func.func @one(%x: tensor<37x13xf32>, %w1: tensor<1x13x29xf32>,
               %w2: tensor<1x29x7xf32>) -> tensor<1x37x7xf32> {
  %y = ens.vmap @odd_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 1 : i64}
      : (tensor<37x13xf32>, tensor<1x13x29xf32>, tensor<1x29x7xf32>) -> tensor<1x37x7xf32>
  return %y : tensor<1x37x7xf32>
}

func.func @sums_member(%x: tensor<10xf32>, %y: tensor<3x1000xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %s = ens.reduce_sum %x {dims = array<i64: 0>} : tensor<10xf32> -> tensor<f32>
  %r = ens.reduce_sum %y {dims = array<i64: 1>} : tensor<3x1000xf32> -> tensor<3xf32>
  return %s, %r : tensor<f32>, tensor<3xf32>
}

func.func @sums(%x: tensor<301x10xf32>, %y: tensor<301x3x1000xf32>) -> (tensor<301xf32>, tensor<301x3xf32>) {
  %s, %r = ens.vmap @sums_member(%x, %y) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0, 0>, size = 301 : i64}
      : (tensor<301x10xf32>, tensor<301x3x1000xf32>) -> (tensor<301xf32>, tensor<301x3xf32>)
  return %s, %r : tensor<301xf32>, tensor<301x3xf32>
}
