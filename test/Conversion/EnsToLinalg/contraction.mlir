// RUN: ens-opt %s --convert-ens-to-linalg --split-input-file | FileCheck %s

// Every contraction is one linalg.generic over its einsum labels: a
// parallel loop per output label, in output order, then a reduction loop
// per summed label (one missing from the output), in the order the
// operands name them. Products accumulate into zeros.

// A contraction is one generic: output labels parallel, summed labels
// reduction, the batch label of a batched einsum among the parallel ones.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @ensemble_layer
// CHECK:         %[[ZERO:.*]] = linalg.fill
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<256x64xf32>, tensor<128x64x32xf32>) outs(%[[ZERO]] : tensor<128x256x32xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @ensemble_layer(%x: tensor<256x64xf32>, %w: tensor<128x64x32xf32>) -> tensor<128x256x32xf32> {
  %y = ens.einsum %x, %w {spec = "bi,aih->abh"} : tensor<256x64xf32>, tensor<128x64x32xf32> -> tensor<128x256x32xf32>
  return %y : tensor<128x256x32xf32>
}

// -----

// "ij,jk->ik": loops (i, k, j).
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_matmul
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<3x5xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4x5xf32>) outs(%[[INIT]] : tensor<3x5xf32>)
// CHECK-NEXT:    ^bb0(%[[A:[^:]+]]: f32, %[[B:[^:]+]]: f32, %[[ACC:[^:]+]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @einsum_matmul(%x: tensor<3x4xf32>, %w: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = ens.einsum %x, %w {spec = "ij,jk->ik"} : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// "i,j->ij" sums nothing: all loops parallel. Integers wrap (no flags).
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_outer
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i32)
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      outs(%[[INIT]] : tensor<3x4xi32>)
// CHECK-NEXT:    ^bb0(%[[A:[^:]+]]: i32, %[[B:[^:]+]]: i32, %[[ACC:[^:]+]]: i32):
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[A]], %[[B]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
func.func @einsum_outer(%x: tensor<3xi32>, %w: tensor<4xi32>) -> tensor<3x4xi32> {
  %0 = ens.einsum %x, %w {spec = "i,j->ij"} : tensor<3xi32>, tensor<4xi32> -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

// lhs dims (a, b, c); rhs dim 0 pairs with lhs dim 2 (c), rhs dim 1 with
// lhs dim 0 (a), rhs dim 2 (f) is free. The result is the free dims b, f;
// loops (b, f, a, c).
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @tensordot
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<4x2x5xf32>) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @tensordot(%x: tensor<2x3x4xf32>, %w: tensor<4x2x5xf32>) -> tensor<3x5xf32> {
  %0 = ens.tensordot %x, %w {lhs_dims = array<i64: 2, 0>, rhs_dims = array<i64: 0, 1>} : tensor<2x3x4xf32>, tensor<4x2x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4x5xf32>) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @matmul(%x: tensor<3x4xf32>, %w: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = ens.matmul %x, %w : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A rank-1 lhs is a row vector whose added dim is removed: loops (n, k).
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @matmul_vector
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<4xf32>, tensor<4x5xf32>) outs(%{{.*}} : tensor<5xf32>)
func.func @matmul_vector(%v: tensor<4xf32>, %w: tensor<4x5xf32>) -> tensor<5xf32> {
  %0 = ens.matmul %v, %w : tensor<4xf32>, tensor<4x5xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Batch dims broadcast: the lhs's size-1 batch dim against the rhs's 5 is
// dropped by a reshape, and the rhs's missing leading batch dim is not
// read. Loops (b0, b1, m, n, k).
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : tensor<2x1x3x4xf32> into tensor<24xf32>
// CHECK:         %[[LHS3:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1, 2]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[LHS3]], %arg1 : tensor<2x3x4xf32>, tensor<5x4x2xf32>) outs(%{{.*}} : tensor<2x5x3x2xf32>)
func.func @matmul_broadcast(%x: tensor<2x1x3x4xf32>, %w: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %0 = ens.matmul %x, %w : tensor<2x1x3x4xf32>, tensor<5x4x2xf32> -> tensor<2x5x3x2xf32>
  return %0 : tensor<2x5x3x2xf32>
}
