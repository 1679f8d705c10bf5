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

// -----

// A result computed in another shape (a pooling adjoint's windows) and
// copied out through a reshape is computed in the caller's buffer seen in
// that shape.
// CHECK-LABEL: func.func @reshaped
// CHECK-SAME: (%[[A:.*]]: memref<2x2xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %[[VIEW:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<2x2xf32>) outs(%[[VIEW]] : memref<2x2xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @reshaped(%a: memref<2x2xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<2x2xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<2x2xf32>) outs(%t : memref<2x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  }
  %flat = memref.collapse_shape %t [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  memref.copy %flat, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A copy out of a strided view of the allocation (a slice, not a reshape)
// stays.
// CHECK-LABEL: func.func @sliced
// CHECK: memref.alloc
// CHECK: memref.subview
// CHECK: memref.copy
#id = affine_map<(d0) -> (d0)>
func.func @sliced(%a: memref<8xf32>, %out: memref<4xf32, strided<[2]>>) {
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  }
  %even = memref.subview %t[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  memref.copy %even, %out : memref<4xf32, strided<[2]>> to memref<4xf32, strided<[2]>>
  return
}
