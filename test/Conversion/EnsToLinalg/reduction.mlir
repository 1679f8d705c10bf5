// RUN: ens-opt %s --convert-ens-to-linalg --split-input-file | FileCheck %s

// A reduction is a linalg.generic whose reduced dims are reduction loops,
// read through the identity and written through the map that drops them,
// into a tensor filled with the combiner's identity: 0 for a sum, -inf (or
// INT32_MIN) for a maximum. The maximum propagates NaN (maximumf).

// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @reduce_sum
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK-SAME:      ins(%arg0 : tensor<3x4x5xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %[[ACC:[^:]+]]: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @reduce_sum(%x: tensor<3x4x5xf32>) -> tensor<4xf32> {
  %0 = ens.reduce_sum %x {dims = array<i64: 0, 2>} : tensor<3x4x5xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_sum_i32
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i32)
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      outs(%[[INIT]] : tensor<3xi32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: i32, %[[ACC:[^:]+]]: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @reduce_sum_i32(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  %0 = ens.reduce_sum %x {dims = array<i64: 1>} : tensor<3x4xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @reduce_max
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME:      outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %[[ACC:[^:]+]]: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @reduce_max(%x: tensor<3x4xf32>) -> tensor<4xf32> {
  %0 = ens.reduce_max %x {dims = array<i64: 0>} : tensor<3x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @reduce_max_i32
// CHECK:         %[[LOWEST:.*]] = arith.constant -2147483648 : i32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[LOWEST]] : i32)
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%[[INIT]] : tensor<4xi32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: i32, %[[ACC:[^:]+]]: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.maxsi %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @reduce_max_i32(%x: tensor<3x4xi32>) -> tensor<4xi32> {
  %0 = ens.reduce_max %x {dims = array<i64: 0>} : tensor<3x4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The mean is the sum divided by the 3 * 5 = 15 elements of each group.
// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @reduce_mean
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK:           arith.addf
// CHECK:         %[[MEAN:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[S:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[COUNT:.*]] = arith.constant 1.500000e+01 : f32
// CHECK-NEXT:      %[[R:.*]] = arith.divf %[[S]], %[[COUNT]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK:         return %[[MEAN]]
func.func @reduce_mean(%x: tensor<3x4x5xf32>) -> tensor<4xf32> {
  %0 = ens.reduce_mean %x {dims = array<i64: 0, 2>} : tensor<3x4x5xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// logsumexp = m + log(sum(exp(x - m))) with m the maximum, or m itself
// where m is infinite (so that all -inf gives -inf, not NaN).
// CHECK-DAG:   #[[X2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @logsumexp
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[MAX_INIT:.*]] = linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK:         %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<3x4xf32>) outs(%[[MAX_INIT]] : tensor<3xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[SHIFTED:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[ROW]], #[[X2]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[MAX]] : tensor<3x4xf32>, tensor<3xf32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %[[M:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:      linalg.yield %[[EXP]] : f32
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SUM_INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[SHIFTED]] : tensor<3x4xf32>) outs(%[[SUM_INIT]] : tensor<3xf32>)
// CHECK:           arith.addf
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[MAX]], %[[SUM]] : tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:    ^bb0(%[[M:[^:]+]]: f32, %[[S:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-DAG:       %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:       %[[ABS:.*]] = math.absf %[[M]] : f32
// CHECK-DAG:       %[[IS_INF:.*]] = arith.cmpf oeq, %[[ABS]], %[[INF]] : f32
// CHECK-DAG:       %[[LOG:.*]] = math.log %[[S]] : f32
// CHECK-DAG:       %[[FINITE:.*]] = arith.addf %[[M]], %[[LOG]] : f32
// CHECK:           %[[V:.*]] = arith.select %[[IS_INF]], %[[M]], %[[FINITE]] : f32
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK:         return %[[R]]
func.func @logsumexp(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %0 = ens.logsumexp %x {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// softmax along dim 0: exp(x - max) / sum, with max and sum over dim 0
// read back through the map that drops d0.
// CHECK-DAG:   #[[X2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @softmax
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[MAX_INIT:.*]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK:         %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[COL]]], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<3x4xf32>) outs(%[[MAX_INIT]] : tensor<4xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[SHIFTED:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[COL]], #[[X2]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[MAX]] : tensor<3x4xf32>, tensor<4xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SUM_INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[COL]]], iterator_types = ["reduction", "parallel"]} ins(%[[SHIFTED]] : tensor<3x4xf32>) outs(%[[SUM_INIT]] : tensor<4xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic {indexing_maps = [#[[X2]], #[[COL]], #[[COL]], #[[X2]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[MAX]], %[[SUM]] : tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %[[M:[^:]+]]: f32, %[[S:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.divf %[[EXP]], %[[S]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @softmax(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = ens.softmax %x {dim = 0 : i64} : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// log_softmax along dim 1: x - max - log(sum).
// CHECK-DAG:   #[[X2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @log_softmax
// CHECK:         %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<3x4xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[X2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK:           arith.addf
// CHECK:         linalg.generic {indexing_maps = [#[[X2]], #[[ROW]], #[[ROW]], #[[X2]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[MAX]], %[[SUM]] : tensor<3x4xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %[[M:[^:]+]]: f32, %[[S:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT:      %[[LOG:.*]] = math.log %[[S]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.subf %[[D]], %[[LOG]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @log_softmax(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = ens.log_softmax %x {dim = 1 : i64} : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
