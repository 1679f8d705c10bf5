// The CUDA planner's trace (-debug-only=ens-cuda-plan, in a build with
// assertions): the performance model's pick of a strategy for each loop
// over members, with the H100 estimate of each, and its verdict on a
// planned split of a contraction. @split_k is tiled-boundaries.mlir's
// case: 2 members whose 64x2048 @ 2048x640 contraction, tiled, gives 20
// blocks through 2048 steps, so planTile tiles it, planSplit plans 14
// chunks, and the model keeps the split (20.6 us against 37.6 us whole);
// 2 members' blocks leave most SMs idle under member-per-block, so the
// model picks tiled.
//
// REQUIRES: asserts
// It needs ens-run, which CI's sanitizer subset does not build, so it runs
// in the full sanitizer run (scripts/sanitize.sh) and any build with
// ENS_ENABLE_ASSERTIONS, not in the subset's `debug-output` tests.
// RUN: ens-run %s --entry=split_k --cuda-plan -debug-only=ens-cuda-plan 2>&1 | FileCheck %s
// CHECK: tile ens.einsum{{.*}} in 4x4 points over d1, d2
// CHECK: split the 2048 steps of each of the 40960 elements of ens.einsum, ens.add, ens.relu into 14 chunks
// CHECK: split ens.einsum, ens.add, ens.relu in 14 chunks: {{[0-9]+\.[0-9]}} us, whole: {{[0-9]+\.[0-9]}} us
// CHECK: the model picks tiled for {{.*}} (H100: member-per-block {{[0-9]+\.[0-9]}} us tiled {{[0-9]+\.[0-9]}} us)
// CHECK: loop: tiled, 2 members,

func.func @split_k_member(%x: tensor<64x2048xf32>, %w: tensor<2048x640xf32>, %b: tensor<640xf32>) -> tensor<64x640xf32> {
  %a = ens.matmul %x, %w : tensor<64x2048xf32>, tensor<2048x640xf32> -> tensor<64x640xf32>
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<640xf32> -> tensor<64x640xf32>
  %s = ens.add %a, %bb : tensor<64x640xf32>
  %y = ens.relu %s : tensor<64x640xf32>
  return %y : tensor<64x640xf32>
}
func.func @split_k(%x: tensor<64x2048xf32>, %w: tensor<2x2048x640xf32>, %b: tensor<2x640xf32>) -> tensor<2x64x640xf32> {
  %y = ens.vmap @split_k_member(%x, %w, %b) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<64x2048xf32>, tensor<2x2048x640xf32>, tensor<2x640xf32>) -> tensor<2x64x640xf32>
  return %y : tensor<2x64x640xf32>
}
