// RUN: ens-opt %s --convert-ens-to-linalg --split-input-file | FileCheck %s

// A convolution is one linalg.generic: a parallel loop per result dim, then
// reductions over a group's input features and the taps. Positive padding
// is an insert into zeros; each input read is position * stride + tap *
// rhs_dilation.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 * 2 + d6 * 2)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @nchw
// CHECK:         %[[PADDED:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [2, 3, 8, 8] [1, 1, 1, 1] : tensor<2x3x8x8xf32> into tensor<2x3x10x10xf32>
// CHECK:         %[[ZERO:.*]] = linalg.fill
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[PADDED]], %arg1 : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[ZERO]] : tensor<2x4x8x3xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @nchw(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x8x3xf32> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>, out_dims = array<i64: 0, 1, 2, 3>, window_strides = array<i64: 1, 2>, padding = array<i64: 1, 1, 1, 1>, rhs_dilation = array<i64: 1, 2>} : tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<2x4x8x3xf32>
  return %y : tensor<2x4x8x3xf32>
}

// -----

// Feature groups become a loop of their own: the input's feature, the
// filters' output-feature and the result's feature dims are split into
// (group, within group). Negative padding crops the input with a slice,
// so that the reads have no constant term.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3 * 2 + d5, d1, d4)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d4, d1, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @grouped
// CHECK:         %[[PAD:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0] [2, 5, 4] [1, 1, 1] : tensor<2x5x4xf32> into tensor<2x6x4xf32>
// CHECK:         %[[CROP:.*]] = tensor.extract_slice %[[PAD]][0, 1, 0] [2, 5, 4] [1, 1, 1] : tensor<2x6x4xf32> to tensor<2x5x4xf32>
// CHECK:         %[[X4:.*]] = tensor.expand_shape {{.*}} : tensor<40xf32> into tensor<2x5x2x2xf32>
// CHECK:         %[[W4:.*]] = tensor.expand_shape {{.*}} : tensor<36xf32> into tensor<3x2x2x3xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[X4]], %[[W4]] : tensor<2x5x2x2xf32>, tensor<3x2x2x3xf32>) outs(%{{.*}} : tensor<2x2x3x2xf32>)
// CHECK:         tensor.collapse_shape %[[G]]
// CHECK:         tensor.expand_shape {{.*}} : tensor<24xf32> into tensor<2x6x2xf32>
func.func @grouped(%x: tensor<2x5x4xf32>, %w: tensor<3x2x6xf32>) -> tensor<2x6x2xf32> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 2, 1>, rhs_dims = array<i64: 2, 1, 0>, out_dims = array<i64: 0, 1, 2>, window_strides = array<i64: 2>, padding = array<i64: -1, 1>, feature_group_count = 2 : i64} : tensor<2x5x4xf32>, tensor<3x2x6xf32> -> tensor<2x6x2xf32>
  return %y : tensor<2x6x2xf32>
}

// -----

// The batch loop leads and the feature loop follows, whatever the layout:
// a channels-last result is written through a permutation.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2 + d4, d3)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d3, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d1)>
// CHECK-LABEL: func.func @channels_last
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<2x7x3xf32>, tensor<3x3x4xf32>) outs(%{{.*}} : tensor<5x2x4xf32>)
func.func @channels_last(%x: tensor<2x7x3xf32>, %w: tensor<3x3x4xf32>) -> tensor<5x2x4xf32> {
  %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 2, 1>, rhs_dims = array<i64: 2, 1, 0>, out_dims = array<i64: 1, 2, 0>} : tensor<2x7x3xf32>, tensor<3x3x4xf32> -> tensor<5x2x4xf32>
  return %y : tensor<5x2x4xf32>
}

// -----

// A reduce_window is one linalg.generic: a parallel loop per result dim, a
// reduction loop per window dim, bounded by an unread window-shaped
// operand. Max pads with -inf and starts from -inf. The unpooled dim 1
// leads the loops.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d1 * 2 + d2, d0 + d3)>
// CHECK-DAG:   #[[WIN:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0)>
// CHECK-LABEL: func.func @max_pool
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[PAD:.*]] = linalg.fill ins(%[[NEGINF]] : f32) {{.*}} -> tensor<6x4xf32>
// CHECK:         %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[PAD]][1, 0] [5, 4] [1, 1]
// CHECK:         %[[TAPS:.*]] = tensor.empty() : tensor<2x1xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[PADDED]], %[[TAPS]] : tensor<6x4xf32>, tensor<2x1xf32>)
// CHECK:           arith.maximumf
func.func @max_pool(%x: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 0, 0>} : tensor<5x4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// Windows that tile the operand (no padding, each window its own size
// apart, every element in one) combine a strided slice of the operand per
// tap, in the window's row-major order from the identity, in one
// elementwise linalg.generic that reads through loops alone.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tiling_sum_pool
// CHECK-SAME:    (%[[X:.*]]: tensor<4x6xf32>)
// CHECK:         %[[T0:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
// CHECK:         %[[T1:.*]] = tensor.extract_slice %[[X]][0, 1] [2, 3] [2, 2]
// CHECK:         %[[T2:.*]] = tensor.extract_slice %[[X]][1, 0] [2, 3] [2, 2]
// CHECK:         %[[T3:.*]] = tensor.extract_slice %[[X]][1, 1] [2, 3] [2, 2]
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[T0]], %[[T1]], %[[T2]], %[[T3]] :
// CHECK:         ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %[[D:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[S0:.*]] = arith.addf %[[ZERO]], %[[A]]
// CHECK:           %[[S1:.*]] = arith.addf %[[S0]], %[[B]]
// CHECK:           %[[S2:.*]] = arith.addf %[[S1]], %[[C]]
// CHECK:           %[[S3:.*]] = arith.addf %[[S2]], %[[D]]
// CHECK:           linalg.yield %[[S3]]
func.func @tiling_sum_pool(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %y = ens.reduce_window add, %x {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : tensor<4x6xf32> -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// The dims a reduce_window does not pool lead the loops, so that the
// leading loop reads the operand at a plain index.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1 * 2 + d3, d2 + d4, d0 + d5)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d0)>
// CHECK-LABEL: func.func @pool_leading_dim
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #{{.*}}, #[[OUT]]]
func.func @pool_leading_dim(%x: tensor<6x5x3xf32>) -> tensor<3x3x3xf32> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 2, 3, 1>, window_strides = array<i64: 2, 1, 1>} : tensor<6x5x3xf32> -> tensor<3x3x3xf32>
  return %y : tensor<3x3x3xf32>
}
