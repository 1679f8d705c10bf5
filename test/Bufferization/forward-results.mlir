// RUN: ens-opt %s --split-input-file --ens-forward-results | FileCheck %s

// A result computed in a buffer of the function's own and copied out at
// the end is computed in the caller's buffer instead.
// CHECK-LABEL: func.func @forwarded
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
#id = affine_map<(d0) -> (d0)>
func.func @forwarded(%a: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  }
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// The same buffer returned twice: the first result takes its place, the
// second is copied from the first.
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT0:.*]]: memref<4xf32>, %[[OUT1:.*]]: memref<4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: outs(%[[OUT0]] : memref<4xf32>)
// CHECK: memref.copy %[[OUT0]], %[[OUT1]]
#id = affine_map<(d0) -> (d0)>
func.func @twice(%a: memref<4xf32>, %out0: memref<4xf32>, %out1: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  }
  memref.copy %t, %out0 : memref<4xf32> to memref<4xf32>
  memref.copy %t, %out1 : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A copy that is not at the end, or into a buffer the function also reads,
// stays.
// CHECK-LABEL: func.func @kept
// CHECK: memref.alloc
// CHECK: memref.copy
// CHECK: memref.copy
#id = affine_map<(d0) -> (d0)>
func.func @kept(%a: memref<4xf32>, %out: memref<4xf32>, %log: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%out : memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  memref.copy %a, %log : memref<4xf32> to memref<4xf32>
  return
}
