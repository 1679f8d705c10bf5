// RUN: ens-opt %s --split-input-file --ens-cpu-split-reductions | FileCheck %s

// A filter gradient: the window (the 8x8 output gradient) is wider than the
// 3x3 result. The innermost tap loop `x` becomes parallel, with a partial
// result per tap, and a reduction adds the partial results into the
// original accumulator.

#image = affine_map<(f, c, i, j, n, y, x) -> (n, c, i + y, j + x)>
#grad = affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>
#out = affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>
func.func @filter_gradient(%image: tensor<4x2x10x10xf32>, %dy: tensor<4x8x8x8xf32>,
                           %init: tensor<8x2x3x3xf32>) -> tensor<8x2x3x3xf32> {
  %g = linalg.generic {indexing_maps = [#image, #grad, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %dy : tensor<4x2x10x10xf32>, tensor<4x8x8x8xf32>)
      outs(%init : tensor<8x2x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x2x3x3xf32>
  return %g : tensor<8x2x3x3xf32>
}
// CHECK-DAG:   #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d2 + d5, d3 + d6)>
// CHECK-DAG:   #[[GRAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d5, d6)>
// CHECK-DAG:   #[[PARTIAL:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d6)>
// CHECK-DAG:   #[[ALL:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG:   #[[SUM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @filter_gradient(
// CHECK-SAME:    %[[IMG:[^:]*]]: tensor<4x2x10x10xf32>, %[[DY:[^:]*]]: tensor<4x8x8x8xf32>, %[[INIT:[^:]*]]: tensor<8x2x3x3xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<8x2x3x3x8xf32>
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<8x2x3x3x8xf32>)
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [#[[IMAGE]], #[[GRAD]], #[[PARTIAL]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
// CHECK-SAME:        ins(%[[IMG]], %[[DY]] : {{.*}}) outs(%[[ZEROS]] : tensor<8x2x3x3x8xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[SUM]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[P]] : tensor<8x2x3x3x8xf32>) outs(%[[INIT]] : tensor<8x2x3x3xf32>)
// CHECK:           %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           linalg.yield %[[S]]
// CHECK:         return %[[G]]

// -----

// A forward convolution: its 3-tap window is narrower than the 8 columns of
// its result, along which the tile vectorizes; nothing changes.

#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @forward(%image: tensor<4x2x10x10xf32>, %w: tensor<8x2x3x3xf32>,
                   %init: tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<4x2x10x10xf32>, tensor<8x2x3x3xf32>)
      outs(%init : tensor<4x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8x8xf32>
  return %g : tensor<4x8x8x8xf32>
}
// CHECK-LABEL: func.func @forward(
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic

// -----

// A dilated window (tap * 2) reads the image two apart: a vector along the
// taps would not be contiguous, so nothing changes.

#image = affine_map<(f, c, i, j, n, y, x) -> (n, c, i + y * 2, j + x * 2)>
#grad = affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>
#out = affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>
func.func @dilated(%image: tensor<4x2x17x17xf32>, %dy: tensor<4x8x8x8xf32>,
                   %init: tensor<8x2x3x3xf32>) -> tensor<8x2x3x3xf32> {
  %g = linalg.generic {indexing_maps = [#image, #grad, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %dy : tensor<4x2x17x17xf32>, tensor<4x8x8x8xf32>)
      outs(%init : tensor<8x2x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x2x3x3xf32>
  return %g : tensor<8x2x3x3xf32>
}
// CHECK-LABEL: func.func @dilated(
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic

// -----

// Max pooling has a window but no multiply-accumulate, and its reduction
// loop (of 8 steps, two vectors of 4 lanes) is not what a vector runs along
// (the operand's innermost dimension is read at `i * 2 + y`): nothing
// changes.

#image = affine_map<(i, y) -> (i * 2 + y)>
#taps = affine_map<(i, y) -> (y)>
#out = affine_map<(i, y) -> (i)>
func.func @pooling(%x: tensor<16xf32>, %taps: tensor<8xf32>,
                   %init: tensor<5xf32>) -> tensor<5xf32> {
  %g = linalg.generic {indexing_maps = [#image, #taps, #out],
        iterator_types = ["parallel", "reduction"]}
      ins(%x, %taps : tensor<16xf32>, tensor<8xf32>) outs(%init : tensor<5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %g : tensor<5xf32>
}
// CHECK-LABEL: func.func @pooling(
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic

// -----

// A row sum reduces along the rows' contiguous dimension, 32 = 8 vectors of
// 4 lanes (vector-bytes=16): a partial sum per lane, the lanes innermost
// and parallel, then a sum of the 4 partial sums into the accumulator.
// CHECK-DAG:   #[[ALL3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[LANES:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[ALL2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROWS:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sums(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<3x32xf32>, %[[INIT:[^:]*]]: tensor<3xf32>)
// CHECK:         %[[STEPS:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [3, 8, 4]
// CHECK:         %[[ZEROS:.*]] = linalg.fill {{.*}} -> tensor<3x4xf32>
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [#[[ALL3]], #[[LANES]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME:        ins(%[[STEPS]] : tensor<3x8x4xf32>) outs(%[[ZEROS]] : tensor<3x4xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ALL2]], #[[ROWS]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins(%[[P]] : tensor<3x4xf32>) outs(%[[INIT]] : tensor<3xf32>)
// CHECK:         return %[[R]]
func.func @row_sums(%x: tensor<3x32xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                        affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x32xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Rows of 6 are no whole number of vectors of 4 lanes, and a column sum
// reduces across the contiguous dimension, which a vector runs along
// without summing its lanes: nothing changes.
// CHECK-LABEL: func.func @not_split(
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @not_split(%x: tensor<3x6xf32>, %rows: tensor<3xf32>,
                     %y: tensor<32x8xf32>, %columns: tensor<8xf32>)
    -> (tensor<3xf32>, tensor<8xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                        affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x6xf32>) outs(%rows : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>,
                                        affine_map<(k, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%y : tensor<32x8xf32>) outs(%columns : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r, %c : tensor<3xf32>, tensor<8xf32>
}

// -----

// A bias gradient sums over the batch and the image's rows and columns.
// The vector would run along the columns (8 = two vectors of 4 lanes,
// vector-bytes=16), a reduction loop among three: the columns become
// parallel, a partial sum per column innermost, then a sum of the partial
// sums into the accumulator.
// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[PART:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG:   #[[ALL2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[CHANNELS:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @bias_gradient(
// CHECK-SAME:    %[[DY:[^:]*]]: tensor<4x3x5x8xf32>, %[[INIT:[^:]*]]: tensor<3xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : f32) {{.*}} -> tensor<3x8xf32>
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[PART]]], iterator_types = ["reduction", "parallel", "reduction", "parallel"]}
// CHECK-SAME:        ins(%[[DY]] : tensor<4x3x5x8xf32>) outs(%[[ZEROS]] : tensor<3x8xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ALL2]], #[[CHANNELS]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins(%[[P]] : tensor<3x8xf32>) outs(%[[INIT]] : tensor<3xf32>)
// CHECK:           %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           linalg.yield %[[S]]
// CHECK:         return %[[R]]
func.func @bias_gradient(%dy: tensor<4x3x5x8xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, y, x) -> (n, c, y, x)>,
                                        affine_map<(n, c, y, x) -> (c)>],
                       iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%dy : tensor<4x3x5x8xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A max over two loops starts its partial maxima from the max's neutral
// element, -inf, and combines them with the same max.
// CHECK-LABEL: func.func @max_over_rows_and_columns(
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill ins(%[[NEG_INF]] : f32) {{.*}} -> tensor<2x6xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:           %[[M:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK:           linalg.yield %[[M]]
func.func @max_over_rows_and_columns(%x: tensor<2x5x6xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, y, x) -> (b, y, x)>,
                                        affine_map<(b, y, x) -> (b)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x5x6xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// A sum of every element: partial sums per column, then their sum into the
// scalar accumulator, through a map of no results.
// CHECK-DAG:   #[[COLUMNS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[NONE:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @total(
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[COLUMNS]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME:        outs(%{{.*}} : tensor<6xf32>)
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[NONE]]], iterator_types = ["reduction"]}
// CHECK-SAME:        ins(%[[P]] : tensor<6xf32>) outs(%{{.*}} : tensor<f32>)
func.func @total(%x: tensor<5x6xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(y, x) -> (y, x)>,
                                        affine_map<(y, x) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<5x6xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Columns of 20 are more than four vectors of 4 lanes, and a combiner
// without a neutral element (a sum of squares written as fma) has nothing
// to start partial results from: nothing changes.
// CHECK-LABEL: func.func @not_split_over_loops(
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @not_split_over_loops(%x: tensor<3x5x20xf32>, %init: tensor<3xf32>,
                                %y: tensor<3x5x8xf32>, %squares: tensor<3xf32>)
    -> (tensor<3xf32>, tensor<3xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(b, y, x) -> (b, y, x)>,
                                        affine_map<(b, y, x) -> (b)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<3x5x20xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(b, y, x) -> (b, y, x)>,
                                        affine_map<(b, y, x) -> (b)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%y : tensor<3x5x8xf32>) outs(%squares : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = math.fma %a, %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r, %q : tensor<3xf32>, tensor<3xf32>
}

// -----

// A filter gradient with 8 input channels and 8 output channels (two
// vectors of 4 lanes, vector-bytes=16): rather than partial results per
// tap, it reads the output gradient and writes its result with the output
// channels innermost, through transposed copies, so that a vector runs
// along them; a transpose puts the result back.
// CHECK-DAG:   #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d2 + d5, d3 + d6)>
// CHECK-DAG:   #[[GRAD_T:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d0)>
// CHECK-DAG:   #[[OUT_T:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2, d3, d0)>
// CHECK-LABEL: func.func @filter_gradient_channels(
// CHECK-SAME:    %[[IMG:[^:]*]]: tensor<4x8x10x10xf32>, %[[DY:[^:]*]]: tensor<4x8x8x8xf32>, %[[INIT:[^:]*]]: tensor<8x8x3x3xf32>)
// CHECK-DAG:     %[[DY_T:.*]] = linalg.transpose ins(%[[DY]] : tensor<4x8x8x8xf32>) outs(%{{.*}} : tensor<4x8x8x8xf32>) permutation = [0, 2, 3, 1]
// CHECK-DAG:     %[[INIT_T:.*]] = linalg.transpose ins(%[[INIT]] : tensor<8x8x3x3xf32>) outs(%{{.*}} : tensor<8x3x3x8xf32>) permutation = [1, 2, 3, 0]
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[IMAGE]], #[[GRAD_T]], #[[OUT_T]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[IMG]], %[[DY_T]] : {{.*}}) outs(%[[INIT_T]] : tensor<8x3x3x8xf32>)
// CHECK:         %[[BACK:.*]] = linalg.transpose ins(%[[G]] : tensor<8x3x3x8xf32>) outs(%{{.*}} : tensor<8x8x3x3xf32>) permutation = [3, 0, 1, 2]
// CHECK:         return %[[BACK]]

#image = affine_map<(f, c, i, j, n, y, x) -> (n, c, i + y, j + x)>
#grad = affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>
#out = affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>
func.func @filter_gradient_channels(%image: tensor<4x8x10x10xf32>, %dy: tensor<4x8x8x8xf32>,
                                    %init: tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32> {
  %g = linalg.generic {indexing_maps = [#image, #grad, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %dy : tensor<4x8x10x10xf32>, tensor<4x8x8x8xf32>)
      outs(%init : tensor<8x8x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x8x3x3xf32>
  return %g : tensor<8x8x3x3xf32>
}

// -----

// 6 output channels are no whole number of vectors of 4 lanes: partial
// results per tap, as with too few input channels (@filter_gradient).
// CHECK-LABEL: func.func @filter_gradient_odd_channels(
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]

#image = affine_map<(f, c, i, j, n, y, x) -> (n, c, i + y, j + x)>
#grad = affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>
#out = affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>
func.func @filter_gradient_odd_channels(%image: tensor<4x8x10x10xf32>, %dy: tensor<4x6x8x8xf32>,
                                        %init: tensor<6x8x3x3xf32>) -> tensor<6x8x3x3xf32> {
  %g = linalg.generic {indexing_maps = [#image, #grad, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %dy : tensor<4x8x10x10xf32>, tensor<4x6x8x8xf32>)
      outs(%init : tensor<6x8x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<6x8x3x3xf32>
  return %g : tensor<6x8x3x3xf32>
}
