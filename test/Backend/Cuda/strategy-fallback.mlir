// The performance model picks among the strategies that can compile a loop
// over members. Here each member's hidden layer (64x64 floats, 16 KiB)
// fits in a member-per-block kernel's shared memory, but the tiled
// strategy keeps it in global memory, one slice per member: 2 * 16 KiB =
// 32 KiB, over a buffer limit of 20000 bytes. The arguments and result
// (x 4 KiB, w1 8 KiB, w2 2 KiB, y 2 KiB: 16 KiB) fit. So the model takes
// member-per-block, the plan says why, and the program runs and agrees with
// the interpreter; forcing tiled is the buffer limit's error, exit 1.
//
// RUN: ens-run %s --entry=two_layers --cuda-plan --max-buffer-bytes=20000 | FileCheck %s --check-prefix=PLAN
// PLAN:      kernel k0_members: member-per-block, 2 members,
// PLAN-NEXT:   chosen by the H100 estimates: member-per-block {{[0-9]+\.[0-9]}} us, tiled cannot compile the loop, members-per-block {{[0-9]+\.[0-9]}} us
//
// Without the limit, both compile and the plan shows both estimates.
// RUN: ens-run %s --entry=two_layers --cuda-plan | FileCheck %s --check-prefix=BOTH
// BOTH: chosen by the H100 estimates: member-per-block {{[0-9]+\.[0-9]}} us, tiled {{[0-9]+\.[0-9]}} us, members-per-block {{[0-9]+\.[0-9]}} us
//
// RUN: not ens-run %s --entry=two_layers --cuda-plan --max-buffer-bytes=20000 --cuda-strategy=tiled 2>&1 | FileCheck %s --check-prefix=TILED
// TILED: ens-run: error: the temporary buffer memref<2x1x64x64xf32> needs 32.8 kB (32768 bytes), over the buffer limit of 20.0 kB (20000 bytes)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=two_layers --random-inputs=3 --output-dir=%t/ref
// RUN: ens-run %s --entry=two_layers --random-inputs=3 --backend=cuda-emu --max-buffer-bytes=20000 --expect=%t/ref/out0.npy

func.func @two_layers_member(%x: tensor<64x16xf32>, %w1: tensor<16x64xf32>,
                             %w2: tensor<64x4xf32>) -> tensor<64x4xf32> {
  %a = ens.matmul %x, %w1 : tensor<64x16xf32>, tensor<16x64xf32> -> tensor<64x64xf32>
  %h = ens.tanh %a : tensor<64x64xf32>
  %y = ens.matmul %h, %w2 : tensor<64x64xf32>, tensor<64x4xf32> -> tensor<64x4xf32>
  return %y : tensor<64x4xf32>
}

func.func @two_layers(%x: tensor<64x16xf32>, %w1: tensor<2x16x64xf32>,
                      %w2: tensor<2x64x4xf32>) -> tensor<2x64x4xf32> {
  %y = ens.vmap @two_layers_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<64x16xf32>, tensor<2x16x64xf32>, tensor<2x64x4xf32>) -> tensor<2x64x4xf32>
  return %y : tensor<2x64x4xf32>
}
