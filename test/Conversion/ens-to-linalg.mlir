// RUN: ens-opt %s --convert-ens-to-linalg --split-input-file | FileCheck %s

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<4x3xf32>, tensor<4x3xf32>) outs(%[[E]] : tensor<4x3xf32>)
// CHECK:           arith.maximumf
// CHECK-NOT:     ens.
func.func @elementwise(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %c = ens.max %a, %b : tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

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

// A broadcast reads its operand through a projected map, no copy.
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast
// CHECK:         linalg.generic {indexing_maps = [#[[B]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3xf32>)
func.func @broadcast(%b: tensor<3xf32>) -> tensor<4x3xf32> {
  %y = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<3xf32> -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

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
