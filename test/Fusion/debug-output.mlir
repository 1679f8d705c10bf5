// With ENS_ENABLE_ASSERTIONS, -debug-only explains the decisions of the
// fusion, batching and autodiff passes. Threading is off: these passes run on
// each function in parallel, and their traces would interleave.
// REQUIRES: asserts
//
// RUN: ens-opt %s --ens-fuse-members=min-work=16 --mlir-disable-threading -debug-only=ens-fuse-members -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEMBERS
// RUN: ens-opt %s --ens-fuse-members=min-work=65 --mlir-disable-threading -debug-only=ens-fuse-members -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: ens-opt %s --ens-fuse-elementwise --mlir-disable-threading -debug-only=ens-fuse-elementwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=ELEMENTWISE
// RUN: ens-opt %s --ens-batch --mlir-disable-threading -debug-only=ens-batch -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: ens-opt %s --ens-autodiff --mlir-disable-threading -debug-only=ens-autodiff -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTODIFF
// RUN: ens-opt %s --ens-fuse-members -o /dev/null 2>&1 | count 0

// Two elementwise ops over 8 members of 4 elements: one group of 64
// iterations, a loop when the minimum is 16, left as is when it is 65.
// MEMBERS: [ens-fuse-members] group of 2 ops over 8 members, 64 iterations (minimum 16): one loop
// MEMBERS-NEXT: linalg.generic at {{.*}}debug-output.mlir":[[@LINE+13]]
// MEMBERS-NEXT: linalg.generic at {{.*}}debug-output.mlir":[[@LINE+18]]
// SMALL: group of 2 ops over 8 members, 64 iterations (minimum 65): left as is
// ELEMENTWISE: [ens-fuse-elementwise] a round of fusion
// ELEMENTWISE: [ens-fuse-elementwise] operand 0 of the op at {{.*}}debug-output.mlir":[[@LINE+15]]:{{[0-9]+}}): fuse its producer now
// BATCH: [ens-batch] ens.tanh at {{.*}}debug-output.mlir":[[@LINE+24]]:{{[0-9]+}}), operand axes (0)
// BATCH-NEXT: [ens-batch] ens.mul at {{.*}}, operand axes (0, shared)
// AUTODIFF: [ens-autodiff] the VJP of ens.reduce_sum
// AUTODIFF-NEXT: [ens-autodiff] the VJP of ens.mul
// AUTODIFF-NEXT: [ens-autodiff] the VJP of ens.tanh
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_ops(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

func.func @loss(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %t = ens.tanh %x : tensor<4xf32>
  %m = ens.mul %t, %w : tensor<4xf32>
  %s = ens.reduce_sum %m {dims = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @grad(%x: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %0:2 = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 0>}
      : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<f32>, tensor<4xf32>
}

func.func @batched(%x: tensor<3x4xf32>, %w: tensor<4xf32>) -> tensor<3xf32> {
  %0 = ens.vmap @loss(%x, %w) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
