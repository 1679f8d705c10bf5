// The target a module names (ens_cuda.target, as ens-cuda-plan writes it)
// is the one the CUDA code generator plans for: the same tiny network of
// 240 members (config_plan_members_per_block.mlir) gets 1 member per block
// for an H100 (132 SMs: 120 blocks of 2 would leave SMs idle) and 2 for an
// A100 (108 SMs), and the plan names the GPU whose estimates it weighed.
// The A100's kernels agree with the interpreter on cuda-emu; a target the
// table lacks is an error that lists the known ones.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=tiny_many --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=A100
// RUN: sed 's/"a100"/"h100-sxm"/' %s > %t/h100.mlir
// RUN: ens-run %t/h100.mlir --entry=tiny_many --cuda-plan --cuda-strategy=members-per-block | FileCheck %s --check-prefix=H100
// RUN: ens-run %s --entry=tiny_many --random-inputs=3 --output-dir=%t/want
// RUN: ens-run %s --entry=tiny_many --random-inputs=3 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/want/out0.npy
// RUN: sed 's/"a100"/"b200"/' %s > %t/b200.mlir
// RUN: not ens-run %t/b200.mlir --entry=tiny_many --cuda-plan 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// A100:      kernel k0_members: members-per-block, 240 members, 64 threads, 3328 bytes of shared memory
// A100-NEXT:   per block: 2 members; per member: 32 threads, 1664 bytes of shared memory
// H100:      kernel k0_members: members-per-block, 240 members, 32 threads, 1664 bytes of shared memory
// H100-NEXT:   per block: 1 members; per member: 32 threads, 1664 bytes of shared memory
// UNKNOWN: ens_cuda.target must name a GPU (known: h100-sxm, h200, a100, a100-80gb, a6000)

module attributes {ens_cuda.target = "a100"} {
func.func @tiny_member(%x: tensor<32x4xf32>, %w1: tensor<4x8xf32>,
                       %w2: tensor<8x1xf32>) -> tensor<32x1xf32> {
  %a = ens.matmul %x, %w1 : tensor<32x4xf32>, tensor<4x8xf32> -> tensor<32x8xf32>
  %h = ens.tanh %a : tensor<32x8xf32>
  %y = ens.matmul %h, %w2 : tensor<32x8xf32>, tensor<8x1xf32> -> tensor<32x1xf32>
  return %y : tensor<32x1xf32>
}

func.func @tiny_many(%x: tensor<32x4xf32>, %w1: tensor<240x4x8xf32>,
                     %w2: tensor<240x8x1xf32>) -> tensor<240x32x1xf32> {
  %y = ens.vmap @tiny_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 240 : i64}
      : (tensor<32x4xf32>, tensor<240x4x8xf32>, tensor<240x8x1xf32>) -> tensor<240x32x1xf32>
  return %y : tensor<240x32x1xf32>
}
}
