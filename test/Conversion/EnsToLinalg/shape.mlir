// RUN: ens-opt %s --convert-ens-to-linalg --split-input-file | FileCheck %s

// Constants and the ops that move elements without computing on them.

// CHECK-LABEL: func.func @constant
// CHECK-DAG:     %[[F:.*]] = arith.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[I:.*]] = arith.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK:         return %[[F]], %[[I]]
func.func @constant() -> (tensor<2xf32>, tensor<2x2xi32>) {
  %0 = ens.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %1 = ens.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  return %0, %1 : tensor<2xf32>, tensor<2x2xi32>
}

// -----

// A broadcast reads its operand through a projected map, no copy.
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast
// CHECK:         linalg.generic {indexing_maps = [#[[B]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3xf32>)
func.func @broadcast(%b: tensor<3xf32>) -> tensor<4x3xf32> {
  %y = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<3xf32> -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// Operand dim 0 goes to result dim 2 and operand dim 1, of size 1, to
// result dim 0 of size 4, which it fills by repetition: it is read at 0.
// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d2, 0)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_expand
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%arg0 : tensor<3x1xf32>) outs(%[[E]] : tensor<4x2x3xf32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      linalg.yield %[[X]] : f32
func.func @broadcast_expand(%x: tensor<3x1xf32>) -> tensor<4x2x3xf32> {
  %0 = ens.broadcast_in_dim %x {dims = array<i64: 2, 0>} : tensor<3x1xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// A size-1 dim going to a size-1 dim is not expanded: it is read at d0.
// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @broadcast_unit
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #{{.*}}], iterator_types = ["parallel", "parallel"]}
func.func @broadcast_unit(%x: tensor<1xf32>) -> tensor<1x5xf32> {
  %0 = ens.broadcast_in_dim %x {dims = array<i64: 0>} : tensor<1xf32> -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

// A row-major reshape collapses to one dimension, then expands.
// CHECK-LABEL: func.func @reshape
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
// CHECK:         return %[[R]]
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = ens.reshape %x : tensor<2x3x4xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @reshape_scalar
// CHECK:         %[[S:.*]] = tensor.collapse_shape %arg0 [] : tensor<1x1xf32> into tensor<f32>
// CHECK:         %[[V:.*]] = tensor.expand_shape %arg1 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:         return %[[S]], %[[V]]
func.func @reshape_scalar(%x: tensor<1x1xf32>, %s: tensor<f32>) -> (tensor<f32>, tensor<1xf32>) {
  %0 = ens.reshape %x : tensor<1x1xf32> -> tensor<f32>
  %1 = ens.reshape %s : tensor<f32> -> tensor<1xf32>
  return %0, %1 : tensor<f32>, tensor<1xf32>
}

// A rank-1 operand needs no collapse.
// CHECK-LABEL: func.func @reshape_vector
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         tensor.expand_shape %arg0 {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
func.func @reshape_vector(%x: tensor<6xf32>) -> tensor<2x3xf32> {
  %0 = ens.reshape %x : tensor<6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Result dim i is operand dim permutation[i], which is linalg.transpose's
// convention too.
// CHECK-LABEL: func.func @transpose
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK:         linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Slices and pads are tensor slice ops; a strided slice's adjoint pads
// with interior zeros as a strided insert.
// CHECK-LABEL: func.func @slice_pad
// CHECK:         %[[S:.*]] = tensor.extract_slice %arg0[1] [3] [2] : tensor<8xf32> to tensor<3xf32>
// CHECK:         tensor.insert_slice %[[S]] into %{{.*}}[1] [3] [2] : tensor<3xf32> into tensor<8xf32>
func.func @slice_pad(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = ens.slice %x {start = array<i64: 1>, limit = array<i64: 7>, stride = array<i64: 2>} : tensor<8xf32> -> tensor<3xf32>
  %p = ens.pad %s {low = array<i64: 1>, high = array<i64: 2>, interior = array<i64: 1>} : tensor<3xf32> -> tensor<8xf32>
  return %p : tensor<8xf32>
}

// -----

// Rows 1, 3, 5 and columns 2, 5 of a 7x9 tensor: offsets are the starts,
// strides the strides, sizes the result's shape.
// CHECK-LABEL: func.func @slice_2d
// CHECK:         tensor.extract_slice %arg0[1, 2] [3, 2] [2, 3] : tensor<7x9xf32> to tensor<3x2xf32>
func.func @slice_2d(%x: tensor<7x9xf32>) -> tensor<3x2xf32> {
  %0 = ens.slice %x {start = array<i64: 1, 2>, limit = array<i64: 6, 8>, stride = array<i64: 2, 3>} : tensor<7x9xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// The operand goes into zeros at offset `low` with stride `interior + 1`;
// `high` is what the 8x11 result leaves after it.
// CHECK-LABEL: func.func @pad_2d
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<8x11xi32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%[[E]] : tensor<8x11xi32>)
// CHECK:         tensor.insert_slice %arg0 into %[[ZEROS]][1, 0] [3, 4] [2, 3] : tensor<3x4xi32> into tensor<8x11xi32>
func.func @pad_2d(%x: tensor<3x4xi32>) -> tensor<8x11xi32> {
  %0 = ens.pad %x {low = array<i64: 1, 0>, high = array<i64: 2, 1>, interior = array<i64: 1, 2>} : tensor<3x4xi32> -> tensor<8x11xi32>
  return %0 : tensor<8x11xi32>
}

// -----

// Each input is inserted at the sum of the earlier inputs' sizes along dim.
// CHECK-LABEL: func.func @concat
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x6xf32>
// CHECK:         %[[R0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x6xf32>
// CHECK:         %[[R1:.*]] = tensor.insert_slice %arg1 into %[[R0]][0, 1] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x6xf32>
// CHECK:         %[[R2:.*]] = tensor.insert_slice %arg2 into %[[R1]][0, 4] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<2x6xf32>
// CHECK:         return %[[R2]]
func.func @concat(%a: tensor<2x1xf32>, %b: tensor<2x3xf32>, %c: tensor<2x2xf32>) -> tensor<2x6xf32> {
  %0 = ens.concat %a, %b, %c {dim = 1 : i64} : tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x2xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
