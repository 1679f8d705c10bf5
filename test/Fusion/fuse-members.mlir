// RUN: ens-opt %s --split-input-file --ens-fuse-members | FileCheck %s
// RUN: ens-opt %s --split-input-file --ens-fuse-members=min-work=64 | FileCheck %s --check-prefix=SMALL
// RUN: ens-opt %s --split-input-file --ens-fuse-members=join-independent=false | FileCheck %s --check-prefix=SPLIT
// RUN: ens-opt %ens_src_root/examples/ensemble_train_step.mlir --ens-stdlib --ens-autodiff --ens-batch --convert-ens-to-linalg --ens-inline --symbol-dce --canonicalize --ens-fuse-elementwise --canonicalize --ens-fuse-members --canonicalize | FileCheck %s --check-prefix=STEP

// Member ops form loops over the 8 members; an op that reads the whole
// result of the first group (a reduction over the members) ends it. That
// reduction is a member op itself, over its first (parallel) loop.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1, d0)>
#sum = affine_map<(d0, d1) -> (d0)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @two_groups
// CHECK: %[[T:.*]] = scf.forall (%[[M:.*]]) in (8) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<8x4xf32>)
// CHECK:   tensor.extract_slice %arg0[%[[M]], 0] [1, 4] [1, 1]
// CHECK:   math.tanh
// CHECK:   tensor.parallel_insert_slice
// CHECK: %[[S:.*]] = scf.forall (%[[N:.*]]) in (4)
// CHECK:   tensor.extract_slice %[[T]][0, %[[N]]] [8, 1] [1, 1]
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK:   linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[S]] : tensor<1x4xf32>, tensor<4xf32>)
// CHECK:   arith.addf
// SMALL-LABEL: func.func @two_groups
// SMALL-NOT: scf.forall
func.func @two_groups(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#col, #sum], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<8x4xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %o, %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %s : tensor<8x4xf32>, tensor<4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// The 128-member training step (forward, MSE, backward, Adam) is one loop
// over the members, whose temporaries are one member's size.
// STEP-LABEL: func.func @train_step
// STEP-NOT: tensor<128x256
// STEP: scf.forall (%{{.*}}) in (128)
// STEP-NOT: tensor<128x256
// STEP-NOT: scf.forall (
// STEP: return

// -----

// Ops with a loop of no iterations stay whole: a member's contraction over
// K = 0 and an op over an empty tensor (upstream tiling crashed on them).
// Their neighbours still form loops.
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @zero_size
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
// CHECK-SAME: tensor<3x2x0xf32>, tensor<3x0x4xf32>
// CHECK: scf.forall
// CHECK: math.tanh
// CHECK: } -> tensor<1x2x4xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<3x0x4xf32>)
// CHECK-NOT: scf.forall
func.func @zero_size(%a: tensor<3x2x0xf32>, %b: tensor<3x0x4xf32>,
                     %init: tensor<3x2x4xf32>)
    -> (tensor<3x2x4xf32>, tensor<3x0x4xf32>) {
  %c = linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x2x0xf32>, tensor<3x0x4xf32>) outs(%init : tensor<3x2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x2x4xf32>
  %e = tensor.empty() : tensor<3x2x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<3x2x4xf32>) outs(%e : tensor<3x2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<3x2x4xf32>
  %e0 = tensor.empty() : tensor<3x0x4xf32>
  %n = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b : tensor<3x0x4xf32>) outs(%e0 : tensor<3x0x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<3x0x4xf32>
  return %t, %n : tensor<3x2x4xf32>, tensor<3x0x4xf32>
}

// -----

// A map with a constant term reads the slice that starts where the
// member's elements do (x[m, 0], y[m, 0]: a stride of 1 along the member
// dimension, y one row shorter), not at the map's value at the member,
// which the kept map would add to again.
#id = affine_map<(d0, d1) -> (d0, d1)>
#right = affine_map<(d0, d1) -> (d0, d1 + 1)>
#down_right = affine_map<(d0, d1) -> (d0 + 1, d1 + 1)>
// CHECK-DAG: #[[RIGHT:.*]] = affine_map<(d0, d1) -> (d0, d1 + 1)>
// CHECK-DAG: #[[DOWN:.*]] = affine_map<(d0, d1) -> (d0 + 1, d1 + 1)>
// CHECK-LABEL: func.func @constant_term
// SMALL-LABEL: func.func @constant_term
// CHECK:   scf.forall (%[[M:.*]]) in (4)
// CHECK:     %[[X:.*]] = tensor.extract_slice %arg0[%[[M]], 0] [1, 9] [1, 1] : tensor<4x9xf32> to tensor<1x9xf32>
// CHECK:     %[[R:.*]] = linalg.generic {indexing_maps = [#[[RIGHT]], {{.*}}]} ins(%[[X]] :
// CHECK:     %[[Y:.*]] = tensor.extract_slice %arg1[%[[M]], 0] [2, 9] [1, 1] : tensor<5x9xf32> to tensor<2x9xf32>
// CHECK:     linalg.generic {indexing_maps = [{{.*}}, #[[DOWN]], {{.*}}]} ins(%[[R]], %[[Y]] :
func.func @constant_term(%x: tensor<4x9xf32>, %y: tensor<5x9xf32>)
    -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %right = linalg.generic {indexing_maps = [#right, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x9xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %down = linalg.generic {indexing_maps = [#id, #down_right, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%right, %y : tensor<4x8xf32>, tensor<5x9xf32>)
      outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %b, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %down : tensor<4x8xf32>
}

// -----

// Two groups of members over different model axes (a heterogeneous
// ensemble: 8 members of one architecture, 4 of another), their ops
// interleaved, each reading its own parameters and the shared input %x:
// each group becomes a loop of its own (issue #30: the second group's ops
// used to stay whole, as generic kernels on CUDA). Each loop takes the
// place of its group's last op.
#id = affine_map<(d0, d1) -> (d0, d1)>
#shared = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @interleaved_groups
// CHECK:      %[[A:.*]] = scf.forall (%[[M:.*]]) in (8)
// CHECK:        tensor.extract_slice %arg1[%[[M]], 0] [1, 2] [1, 1]
// CHECK:        math.exp
// CHECK:        arith.negf
// CHECK:      %[[B:.*]] = scf.forall (%[[N:.*]]) in (4)
// CHECK:        tensor.extract_slice %arg2[%[[N]], 0] [1, 2] [1, 1]
// CHECK:        math.tanh
// CHECK:        arith.mulf
// CHECK-NOT:  linalg.generic
// CHECK:      return %[[A]], %[[B]]
// SMALL-LABEL: func.func @interleaved_groups
// SMALL-NOT: scf.forall
func.func @interleaved_groups(%x: tensor<2xf32>, %p: tensor<8x2xf32>,
                              %q: tensor<4x2xf32>)
    -> (tensor<8x2xf32>, tensor<4x2xf32>) {
  %e8 = tensor.empty() : tensor<8x2xf32>
  %e4 = tensor.empty() : tensor<4x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #shared, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %x : tensor<8x2xf32>, tensor<2xf32>) outs(%e8 : tensor<8x2xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.addf %v, %s : f32
    %t = math.exp %r : f32
    linalg.yield %t : f32
  } -> tensor<8x2xf32>
  %b = linalg.generic {indexing_maps = [#id, #shared, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q, %x : tensor<4x2xf32>, tensor<2xf32>) outs(%e4 : tensor<4x2xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.addf %v, %s : f32
    %t = math.tanh %r : f32
    linalg.yield %t : f32
  } -> tensor<4x2xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x2xf32>) outs(%e8 : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4x2xf32>) outs(%e4 : tensor<4x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %c, %d : tensor<8x2xf32>, tensor<4x2xf32>
}

// -----

// Two groups of as many members (a heterogeneous ensemble of two
// architectures, 8 members each) that share only the input %x: by default
// they join one loop, which on CUDA is one kernel; with join-independent=false
// (the CPU's choice, issue #30) each is a loop of its own, whose body holds
// that group's temporaries alone. An op that uses both groups makes them one
// again.
#id = affine_map<(d0, d1) -> (d0, d1)>
#shared = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @independent_groups
// CHECK:      %[[AB:.*]]:2 = scf.forall (%[[M:.*]]) in (8)
// CHECK:        tensor.extract_slice %arg1[%[[M]], 0] [1, 2] [1, 1]
// CHECK:        math.exp
// CHECK:        tensor.extract_slice %arg2[%[[M]], 0] [1, 2] [1, 1]
// CHECK:        math.tanh
// CHECK:        arith.negf
// CHECK:        arith.mulf
// CHECK-NOT:  scf.forall (
// CHECK:      return %[[AB]]#0, %[[AB]]#1
// SMALL-LABEL: func.func @independent_groups
// SPLIT-LABEL: func.func @independent_groups
// SPLIT:      %[[A:.*]] = scf.forall (%[[M:.*]]) in (8)
// SPLIT:        tensor.extract_slice %arg1[%[[M]], 0] [1, 2] [1, 1]
// SPLIT:        math.exp
// SPLIT-NOT:    math.tanh
// SPLIT:        arith.negf
// SPLIT:      %[[B:.*]] = scf.forall (%[[N:.*]]) in (8)
// SPLIT:        tensor.extract_slice %arg2[%[[N]], 0] [1, 2] [1, 1]
// SPLIT:        math.tanh
// SPLIT:        arith.mulf
// SPLIT-NOT:  scf.forall (
// SPLIT:      return %[[A]], %[[B]]
func.func @independent_groups(%x: tensor<2xf32>, %p: tensor<8x2xf32>,
                              %q: tensor<8x2xf32>)
    -> (tensor<8x2xf32>, tensor<8x2xf32>) {
  %e = tensor.empty() : tensor<8x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #shared, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %x : tensor<8x2xf32>, tensor<2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.addf %v, %s : f32
    %t = math.exp %r : f32
    linalg.yield %t : f32
  } -> tensor<8x2xf32>
  %b = linalg.generic {indexing_maps = [#id, #shared, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q, %x : tensor<8x2xf32>, tensor<2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.addf %v, %s : f32
    %t = math.tanh %r : f32
    linalg.yield %t : f32
  } -> tensor<8x2xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %c, %d : tensor<8x2xf32>, tensor<8x2xf32>
}

// -----

// Without join-independent, ops that share no data start loops of their own
// (a bias broadcast %c, the product %z) until an op (%s) uses both: then the
// two groups are one loop, in program order.
#id = affine_map<(d0, d1) -> (d0, d1)>
#shared = affine_map<(d0, d1) -> (d1)>
#bias = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @connected_later
// SPLIT-LABEL: func.func @connected_later
// SPLIT:      %[[S:.*]] = scf.forall (%[[M:.*]]) in (8)
// SPLIT:        tensor.extract_slice %arg1[%[[M]], 0] [1, 2] [1, 1]
// SPLIT:        arith.mulf
// SPLIT:        tensor.extract_slice %arg2[%[[M]]] [1] [1]
// SPLIT:        math.exp
// SPLIT:        arith.addf
// SPLIT-NOT:  scf.forall (
// SPLIT:      return %[[S]]
func.func @connected_later(%x: tensor<2xf32>, %w: tensor<8x2xf32>,
                           %b: tensor<8xf32>) -> tensor<8x2xf32> {
  %e = tensor.empty() : tensor<8x2xf32>
  %z = linalg.generic {indexing_maps = [#id, #shared, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w, %x : tensor<8x2xf32>, tensor<2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %c = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z, %c : tensor<8x2xf32>, tensor<8x2xf32>) outs(%e : tensor<8x2xf32>) {
  ^bb0(%v: f32, %u: f32, %o: f32):
    %r = arith.addf %v, %u : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %s : tensor<8x2xf32>
}

// -----

// A reshape of a member op's result, used after the loop (a pooling
// adjoint computed in the windows' shape and read back in the image's), is
// redone after the loop on the loop's result: the loop returns the value in
// one shape, not one tensor per shape. A reshape used only inside the loop
// (%f) stays there.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @reshape_after
// CHECK: %[[L:.*]]:2 = scf.forall (%{{.*}}) in (8) shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<8x3x2xf32>, tensor<8x6xf32>)
// CHECK:   math.tanh
// CHECK:   tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<1x3x2xf32> into tensor<1x6xf32>
// CHECK:   math.exp
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[L]]#0 {{\[\[}}0], [1, 2]] : tensor<8x3x2xf32> into tensor<8x6xf32>
// CHECK: return %[[C]], %[[L]]#1
func.func @reshape_after(%a: tensor<8x3x2xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>) {
  %e3 = tensor.empty() : tensor<8x3x2xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<8x3x2xf32>) outs(%e3 : tensor<8x3x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.tanh %x : f32
    linalg.yield %v : f32
  } -> tensor<8x3x2xf32>
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<8x3x2xf32> into tensor<8x6xf32>
  %f = tensor.collapse_shape %t [[0], [1, 2]] : tensor<8x3x2xf32> into tensor<8x6xf32>
  %e2 = tensor.empty() : tensor<8x6xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%f : tensor<8x6xf32>) outs(%e2 : tensor<8x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.exp %x : f32
    linalg.yield %v : f32
  } -> tensor<8x6xf32>
  return %c, %y : tensor<8x6xf32>, tensor<8x6xf32>
}
