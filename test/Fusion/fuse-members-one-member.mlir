// RUN: ens-opt %s --split-input-file --ens-fuse-members=one-member-loops=true --canonicalize | FileCheck %s
// RUN: ens-opt %s --split-input-file --ens-fuse-members --canonicalize | FileCheck %s --check-prefix=WHOLE
// RUN: ens-opt %s --split-input-file --ens-fuse-members=one-member-loops=true | ens-opt --split-input-file | FileCheck %s --check-prefix=ROUND

// An ensemble of one member (a vmap of size 1): with one-member-loops (the
// CUDA backend's choice) its ops form one loop of one iteration, mapped to
// #ens.members, which canonicalization keeps (an unmapped loop of one
// iteration would fold into its body). Without it (the CPU backend's
// choice) the ops stay whole. The printed form parses back.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @one_member
// CHECK: scf.forall (%[[M:.*]]) in (1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x4xf32>)
// CHECK:   tensor.extract_slice %arg0[%[[M]], 0] [1, 4] [1, 1]
// CHECK:   math.tanh
// CHECK:   arith.mulf
// CHECK:   tensor.parallel_insert_slice
// CHECK: } {mapping = [#ens.members]}
// CHECK-NOT: scf.forall
// WHOLE-LABEL: func.func @one_member
// WHOLE-NOT: scf.forall
// WHOLE: math.tanh
// WHOLE: arith.mulf
// ROUND-LABEL: func.func @one_member
// ROUND: } {mapping = [#ens.members]}
func.func @one_member(%a: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %a : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.mulf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

// Loops over more members are not mapped: canonicalization keeps them
// anyway, and their printed form stays as it was.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @two_members
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK-NOT: mapping
// CHECK: return
// WHOLE-LABEL: func.func @two_members
// WHOLE: scf.forall (%{{.*}}) in (2)
// WHOLE-NOT: mapping
func.func @two_members(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %t : tensor<2x4xf32>
}
