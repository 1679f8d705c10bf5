// With ENS_ENABLE_ASSERTIONS, -debug-only=ens-fuse-members says why
// independent groups of as many members share a loop or not (issue #30):
// the second group's first op shares no data with the open group, and joins
// it by default (CUDA) or starts a group of its own with
// join-independent=false (the CPU). Threading is off so that the trace
// follows the program.
// REQUIRES: asserts
//
// RUN: ens-opt %s --ens-fuse-members --mlir-disable-threading -debug-only=ens-fuse-members -o %t.join.mlir 2>&1 | FileCheck %s --check-prefix=JOIN
// RUN: ens-opt %s --ens-fuse-members=join-independent=false --mlir-disable-threading -debug-only=ens-fuse-members -o %t.split.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT

// JOIN: [ens-fuse-members] linalg.generic at {{.*}}independent-groups-debug.mlir":[[@LINE+18]]:{{[0-9]+}}) shares no data with the open group over 8 members: joins it
// JOIN: [ens-fuse-members] group of 2 ops over 8 members, 32 iterations (minimum 0): one loop
// JOIN-NOT: group of
// SPLIT: [ens-fuse-members] linalg.generic at {{.*}}independent-groups-debug.mlir":[[@LINE+15]]:{{[0-9]+}}) shares no data with the open group over 8 members: a group of its own
// SPLIT: [ens-fuse-members] group of 1 ops over 8 members, 16 iterations (minimum 0): one loop
// SPLIT: [ens-fuse-members] group of 1 ops over 8 members, 16 iterations (minimum 0): one loop
#id = affine_map<(d0, d1) -> (d0, d1)>
#shared = affine_map<(d0, d1) -> (d1)>
func.func @independent_groups(%x: tensor<2xf32>, %p: tensor<8x2xf32>,
                              %q: tensor<8x2xf32>)
    -> (tensor<8x2xf32>, tensor<8x2xf32>) {
  %e = tensor.empty() : tensor<8x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #shared, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %x : tensor<8x2xf32>, tensor<2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %b = linalg.generic {indexing_maps = [#id, #shared, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q, %x : tensor<8x2xf32>, tensor<2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %a, %b : tensor<8x2xf32>, tensor<8x2xf32>
}
