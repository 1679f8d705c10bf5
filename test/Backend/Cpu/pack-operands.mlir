// RUN: ens-opt %s --split-input-file --ens-cpu-pack-operands=vector-bytes=16 | FileCheck %s

// `bi,io->bo` with 4 lanes: the vector loop `o` (64) becomes 16 panels of
// 4 lanes. Each of the 64 rows reads every weight element, and the weight
// (64 KiB) is larger than an L1 cache, so it is packed (panel, i, lanes);
// the result is expanded alike and collapsed after. The input `x`, which
// `o` does not index, stays as it is.

#x = affine_map<(b, o, i) -> (b, i)>
#w = affine_map<(b, o, i) -> (i, o)>
#y = affine_map<(b, o, i) -> (b, o)>
func.func @weight(%x: tensor<64x256xf32>, %w: tensor<256x64xf32>,
                  %init: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x256xf32>, tensor<256x64xf32>)
      outs(%init : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
// CHECK-DAG:   #[[PANELS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-DAG:   #[[Y:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @weight(
// CHECK-SAME:      %[[XV:.*]]: tensor<64x256xf32>, %[[WV:.*]]: tensor<256x64xf32>, %[[INIT:.*]]: tensor<64x64xf32>
// CHECK:         %[[WE:.*]] = tensor.expand_shape %[[WV]] {{\[}}[0], [1, 2]] output_shape [256, 16, 4] : tensor<256x64xf32> into tensor<256x16x4xf32>
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<16x256x4xf32>
// CHECK:         %[[P:.*]] = linalg.transpose ins(%[[WE]] : tensor<256x16x4xf32>) outs(%[[EMPTY]] : tensor<16x256x4xf32>) permutation = [1, 0, 2]
// CHECK:         %[[YE:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0], [1, 2]] output_shape [64, 16, 4] : tensor<64x64xf32> into tensor<64x16x4xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[PANELS]], #[[Y]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK-SAME:        ins(%[[XV]], %[[P]] : tensor<64x256xf32>, tensor<16x256x4xf32>) outs(%[[YE]] : tensor<64x16x4xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0], [1, 2]] : tensor<64x16x4xf32> into tensor<64x64xf32>
// CHECK:         return %[[C]]

// -----

// `bi,oi->bo`: the transposed weight, read along its outer dimension `o`,
// becomes panels (panel, i, lanes) too, however small: in place, each of
// its vectors would be a gather.

#x = affine_map<(b, o, i) -> (b, i)>
#w = affine_map<(b, o, i) -> (o, i)>
#y = affine_map<(b, o, i) -> (b, o)>
func.func @transposed_weight(%x: tensor<64x32xf32>, %w: tensor<16x32xf32>,
                             %init: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x32xf32>, tensor<16x32xf32>)
      outs(%init : tensor<64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
// CHECK-DAG:   #[[PANELS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-LABEL: func.func @transposed_weight(
// CHECK-SAME:      %{{.*}}: tensor<64x32xf32>, %[[WV:.*]]: tensor<16x32xf32>
// CHECK:         %[[WE:.*]] = tensor.expand_shape %[[WV]] {{\[}}[0, 1], [2]] output_shape [4, 4, 32] : tensor<16x32xf32> into tensor<4x4x32xf32>
// CHECK:         %[[P:.*]] = linalg.transpose ins(%[[WE]] : tensor<4x4x32xf32>) outs(%{{.*}} : tensor<4x32x4xf32>) permutation = [0, 2, 1]
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[PANELS]], #{{.*}}]
// CHECK-SAME:        ins(%{{.*}}, %[[P]] : tensor<64x32xf32>, tensor<4x32x4xf32>)

// -----

// Members: `mbi,moi->mbo`. The member dimension, a parallel loop the
// weight reads, stays first: (m, panel, i, lanes).

#x = affine_map<(m, b, o, i) -> (m, b, i)>
#w = affine_map<(m, b, o, i) -> (m, o, i)>
#y = affine_map<(m, b, o, i) -> (m, b, o)>
func.func @members(%x: tensor<4x8x32xf32>, %w: tensor<4x16x32xf32>,
                   %init: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x8x32xf32>, tensor<4x16x32xf32>)
      outs(%init : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  return %r : tensor<4x8x16xf32>
}
// CHECK-DAG:   #[[PANELS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>
// CHECK-DAG:   #[[Y:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-LABEL: func.func @members(
// CHECK:         %[[P:.*]] = linalg.transpose ins(%{{.*}} : tensor<4x4x4x32xf32>) outs(%{{.*}} : tensor<4x4x32x4xf32>) permutation = [0, 1, 3, 2]
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[PANELS]], #[[Y]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
// CHECK-SAME:        ins(%{{.*}}, %[[P]] : tensor<4x8x32xf32>, tensor<4x4x32x4xf32>) outs(%{{.*}} : tensor<4x8x4x4xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<4x8x4x4xf32> into tensor<4x8x16xf32>

// -----

// Left alone: only 3 rows read each weight element (the copy would cost
// more than the strided reads it saves); a vector loop of 18, not a whole
// number of vectors; a weight that is one panel already (`o` innermost and
// one vector wide); a weight read along its innermost dimension that fits
// in an L1 cache (2 KiB).

#x = affine_map<(b, o, i) -> (b, i)>
#w = affine_map<(b, o, i) -> (o, i)>
#wio = affine_map<(b, o, i) -> (i, o)>
#y = affine_map<(b, o, i) -> (b, o)>
func.func @left_alone(%x3: tensor<3x32xf32>, %w16: tensor<16x32xf32>,
                      %y3: tensor<3x16xf32>, %x64: tensor<64x32xf32>,
                      %w18: tensor<18x32xf32>, %y18: tensor<64x18xf32>,
                      %w4: tensor<32x4xf32>, %y4: tensor<64x4xf32>,
                      %w16io: tensor<32x16xf32>, %y16: tensor<64x16xf32>)
    -> (tensor<3x16xf32>, tensor<64x18xf32>, tensor<64x4xf32>,
        tensor<64x16xf32>) {
  %few = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3, %w16 : tensor<3x32xf32>, tensor<16x32xf32>)
      outs(%y3 : tensor<3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x16xf32>
  %odd = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x64, %w18 : tensor<64x32xf32>, tensor<18x32xf32>)
      outs(%y18 : tensor<64x18xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x18xf32>
  %one = linalg.generic {indexing_maps = [#x, #wio, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x64, %w4 : tensor<64x32xf32>, tensor<32x4xf32>)
      outs(%y4 : tensor<64x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x4xf32>
  %small = linalg.generic {indexing_maps = [#x, #wio, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x64, %w16io : tensor<64x32xf32>, tensor<32x16xf32>)
      outs(%y16 : tensor<64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %few, %odd, %one, %small
      : tensor<3x16xf32>, tensor<64x18xf32>, tensor<64x4xf32>, tensor<64x16xf32>
}
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return

// -----

// A named contraction, `linalg.matmul_transpose_b`, is generalized and its
// second operand packed.

func.func @named(%a: tensor<64x32xf32>, %b: tensor<16x32xf32>,
                 %init: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul_transpose_b ins(%a, %b : tensor<64x32xf32>, tensor<16x32xf32>)
      outs(%init : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
// CHECK-LABEL: func.func @named(
// CHECK-NOT:     linalg.matmul_transpose_b
// CHECK:         %[[P:.*]] = linalg.transpose ins(%{{.*}} : tensor<4x4x32xf32>) outs(%{{.*}} : tensor<4x32x4xf32>) permutation = [0, 2, 1]
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %[[P]] : tensor<64x32xf32>, tensor<4x32x4xf32>)
// CHECK-NOT:     linalg.matmul_transpose_b
