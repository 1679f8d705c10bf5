// RUN: ens-opt %s --convert-ens-to-linalg --split-input-file | FileCheck %s

// Ops that address elements by index. take and scatter_add clamp an index
// to [0, size - 1]; one_hot gives a row of zeros for an index out of range
// (docs/semantics.md).

// A gather reads the table through tensor.extract at clamped rows.
// CHECK-LABEL: func.func @take
// CHECK:         linalg.generic
// CHECK:           linalg.index 0
// CHECK:           %[[ROW:.*]] = tensor.extract %arg1
// CHECK:           arith.maxsi
// CHECK:           arith.minsi
// CHECK:           tensor.extract %arg0
func.func @take(%table: tensor<10x4xf32>, %ids: tensor<6xi32>) -> tensor<6x4xf32> {
  %y = ens.take %table, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<6xi32> -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

// The result is table.shape[:1] + ids.shape + table.shape[2:]; element
// (i0, i1, i2, i3) is table[i0, clamp(ids[i1, i2], 0, 4), i3].
// CHECK:       #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @take_axis1
// CHECK-SAME:      (%[[TABLE:.*]]: tensor<3x5x2xf32>, %[[IDS:.*]]: tensor<2x3xi32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x2x3x2xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[E]] : tensor<3x2x3x2xf32>)
// CHECK-DAG:       %[[I0:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[I1:.*]] = linalg.index 1 : index
// CHECK-DAG:       %[[I2:.*]] = linalg.index 2 : index
// CHECK-DAG:       %[[I3:.*]] = linalg.index 3 : index
// CHECK:           %[[ID32:.*]] = tensor.extract %[[IDS]][%[[I1]], %[[I2]]] : tensor<2x3xi32>
// CHECK:           %[[IDX:.*]] = arith.index_cast %[[ID32]] : i32 to index
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[LOW:.*]] = arith.maxsi %[[IDX]], %[[ZERO]] : index
// CHECK-DAG:       %[[LAST:.*]] = arith.constant 4 : index
// CHECK:           %[[ROW:.*]] = arith.minsi %[[LOW]], %[[LAST]] : index
// CHECK:           %[[V:.*]] = tensor.extract %[[TABLE]][%[[I0]], %[[ROW]], %[[I3]]] : tensor<3x5x2xf32>
// CHECK:           linalg.yield %[[V]] : f32
func.func @take_axis1(%table: tensor<3x5x2xf32>, %ids: tensor<2x3xi32>) -> tensor<3x2x3x2xf32> {
  %0 = ens.take %table, %ids {axis = 1 : i64} : tensor<3x5x2xf32>, tensor<2x3xi32> -> tensor<3x2x3x2xf32>
  return %0 : tensor<3x2x3x2xf32>
}

// -----

// Repeated indices accumulate, so scatter_add is a sequential scf.for nest
// over the updates (i, j) that adds updates[i, j] into zeros at
// [i, clamp(ids[j], 0, 4)].
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME:      (%[[UPD:.*]]: tensor<2x3xf32>, %[[IDS:.*]]: tensor<3xi32>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x5xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<2x5xf32>)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[C2]] step %{{.*}} iter_args(%[[A0:.*]] = %[[ZEROS]]) -> (tensor<2x5xf32>)
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %[[C3]] step %{{.*}} iter_args(%[[A:.*]] = %[[A0]]) -> (tensor<2x5xf32>)
// CHECK:             %[[ID32:.*]] = tensor.extract %[[IDS]][%[[J]]] : tensor<3xi32>
// CHECK:             %[[IDX:.*]] = arith.index_cast %[[ID32]] : i32 to index
// CHECK:             %[[LOW:.*]] = arith.maxsi %[[IDX]], %{{.*}} : index
// CHECK:             %[[LAST:.*]] = arith.constant 4 : index
// CHECK:             %[[ROW:.*]] = arith.minsi %[[LOW]], %[[LAST]] : index
// CHECK-DAG:         %[[U:.*]] = tensor.extract %[[UPD]][%[[I]], %[[J]]] : tensor<2x3xf32>
// CHECK-DAG:         %[[OLD:.*]] = tensor.extract %[[A]][%[[I]], %[[ROW]]] : tensor<2x5xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[OLD]], %[[U]] : f32
// CHECK:             %[[NEW:.*]] = tensor.insert %[[SUM]] into %[[A]][%[[I]], %[[ROW]]] : tensor<2x5xf32>
// CHECK:             scf.yield %[[NEW]] : tensor<2x5xf32>
func.func @scatter_add(%upd: tensor<2x3xf32>, %ids: tensor<3xi32>) -> tensor<2x5xf32> {
  %0 = ens.scatter_add %upd, %ids {axis = 1 : i64} : tensor<2x3xf32>, tensor<3xi32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// Integer updates add with wrapping addi into i32 zeros.
// CHECK-LABEL: func.func @scatter_add_i32
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         linalg.fill ins(%[[ZERO]] : i32)
// CHECK:         scf.for
// CHECK-NOT:       scf.for
// CHECK:           arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:           arith.addi %{{.*}}, %{{.*}} : i32
func.func @scatter_add_i32(%upd: tensor<3xi32>, %ids: tensor<3xi32>) -> tensor<4xi32> {
  %0 = ens.scatter_add %upd, %ids {axis = 0 : i64} : tensor<3xi32>, tensor<3xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// result[i, j, k] = ids[i, j] == k ? 1 : 0; the index is not clamped, so an
// out-of-range one equals no k and gives a row of zeros.
// CHECK-DAG:   #[[IDS_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[OUT_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @one_hot
// CHECK:         linalg.generic {indexing_maps = [#[[IDS_MAP]], #[[OUT_MAP]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%arg0 : tensor<2x3xi32>) outs(%{{.*}} : tensor<2x3x4xf32>)
// CHECK-NEXT:    ^bb0(%[[ID32:[^:]+]]: i32, %{{[^:]+}}: f32):
// CHECK-NOT:       arith.maxsi
// CHECK-NOT:       arith.minsi
// CHECK-DAG:       %[[IDX:.*]] = arith.index_cast %[[ID32]] : i32 to index
// CHECK-DAG:       %[[K:.*]] = linalg.index 2 : index
// CHECK-DAG:       %[[HOT:.*]] = arith.cmpi eq, %[[IDX]], %[[K]] : index
// CHECK-DAG:       %[[R:.*]] = arith.select %[[HOT]], %[[ONE:[^,]+]], %[[ZERO:[^ ]+]] : f32
// CHECK-DAG:       %[[ONE]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:       %[[ZERO]] = arith.constant 0.000000e+00 : f32
// CHECK:           linalg.yield %[[R]] : f32
func.func @one_hot(%ids: tensor<2x3xi32>) -> tensor<2x3x4xf32> {
  %0 = ens.one_hot %ids : tensor<2x3xi32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
