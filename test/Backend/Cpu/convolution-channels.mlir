// Forward convolutions whose images are narrower than a vector
// (ens-cpu-split-reductions, then ens-cpu-tile-and-vectorize): where the
// output channels are a whole number of vectors and some loop of the
// result that the filter does not read has at least 8 iterations, the
// convolution reads a copy of its filter with the output channels
// innermost and writes its result so, and a transpose puts the result
// back. The tile then runs its vector along the output channels (16 lanes
// with AVX-512, where a vector along cnn-wide's 8 image columns had 8) and
// its rows along the image's columns, each an image element broadcast. The
// filter is transposed once, before the loop over the batch that it is
// read in, and the accumulator's zeros are filled in the new shape rather
// than transposed. Where the output channels are no whole number of
// vectors (an input gradient's 8), the image rows are flattened instead
// (@flattened_rows).
//
// RUN: ens-opt %s --split-input-file \
// RUN:   --ens-cpu-split-reductions="vector-bytes=64" -o %t.split.mlir
// RUN: FileCheck %s --input-file=%t.split.mlir
// RUN: ens-opt %t.split.mlir --split-input-file \
// RUN:   --ens-cpu-tile-and-vectorize="vector-bytes=64" -o %t.tiled.mlir
// RUN: FileCheck %s --check-prefix=TILE --input-file=%t.tiled.mlir

// cnn-wide's second convolution, grouped (2 groups here) and inside the
// loop over the batch that fusion makes.
// CHECK-DAG:   #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
// CHECK-DAG:   #[[FILTER_T:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d6, d7, d2)>
// CHECK-DAG:   #[[OUT_T:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d3, d4, d2)>
// CHECK-LABEL: func.func @forward_channels(
// CHECK-SAME:    %{{[^:]*}}: tensor<4x2x8x10x10xf32>, %[[W:[^:]*]]: tensor<2x16x8x3x3xf32>)
// CHECK:         %[[W_T:.*]] = linalg.transpose ins(%[[W]] : tensor<2x16x8x3x3xf32>) outs(%{{.*}} : tensor<2x8x3x3x16xf32>) permutation = [0, 2, 3, 4, 1]
// CHECK:         scf.forall
// CHECK-NOT:       linalg.transpose ins(%[[W]]
// CHECK:           %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x8x8x16xf32>)
// CHECK:           %[[G:.*]] = linalg.generic {indexing_maps = [#[[IMAGE]], #[[FILTER_T]], #[[OUT_T]]]
// CHECK-SAME:          ins(%{{.*}}, %[[W_T]] : tensor<1x2x8x10x10xf32>, tensor<2x8x3x3x16xf32>) outs(%[[ZEROS]] : tensor<1x2x8x8x16xf32>)
// CHECK:           linalg.transpose ins(%[[G]] : tensor<1x2x8x8x16xf32>) outs(%{{.*}} : tensor<1x2x16x8x8xf32>) permutation = [0, 1, 4, 2, 3]
// The tile: 8 image columns (rows of accumulators) by 16 output channels,
// one broadcast image element per column and one filter vector per step;
// every other loop (groups, image rows, input channels, taps) of one
// iteration.
// TILE-LABEL: func.func @forward_channels(
// TILE:         scf.forall
// TILE:                   scf.for %{{.*}} = %c0 to %c3 step %c1
// TILE-NEXT:                scf.for %{{.*}} = %c0 to %c3 step %c1
// TILE:                     vector.contract {{.*}} : vector<1x1x1x1x8xf32>, vector<1x1x16xf32> into vector<1x1x1x8x16xf32>
// TILE-NOT:                 vector.contract
#image = affine_map<(n, g, f, i, j, c, y, x) -> (n, g, c, i + y, j + x)>
#filter = affine_map<(n, g, f, i, j, c, y, x) -> (g, f, c, y, x)>
#out = affine_map<(n, g, f, i, j, c, y, x) -> (n, g, f, i, j)>
func.func @forward_channels(%image: tensor<4x2x8x10x10xf32>, %w: tensor<2x16x8x3x3xf32>) -> tensor<4x2x16x8x8xf32> {
  %empty = tensor.empty() : tensor<4x2x16x8x8xf32>
  %r = scf.forall (%n) in (4) shared_outs(%out = %empty) -> (tensor<4x2x16x8x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x2x16x8x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x16x8x8xf32>) -> tensor<1x2x16x8x8xf32>
    %x = tensor.extract_slice %image[%n, 0, 0, 0, 0] [1, 2, 8, 10, 10] [1, 1, 1, 1, 1]
        : tensor<4x2x8x10x10xf32> to tensor<1x2x8x10x10xf32>
    %g = linalg.generic {indexing_maps = [#image, #filter, #out],
          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel",
                            "reduction", "reduction", "reduction"]}
        ins(%x, %w : tensor<1x2x8x10x10xf32>, tensor<2x16x8x3x3xf32>)
        outs(%init : tensor<1x2x16x8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<1x2x16x8x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %out[%n, 0, 0, 0, 0] [1, 2, 16, 8, 8] [1, 1, 1, 1, 1]
          : tensor<1x2x16x8x8xf32> into tensor<4x2x16x8x8xf32>
    }
  }
  return %r : tensor<4x2x16x8x8xf32>
}

// -----

// 9 images of 5x7 pixels and 32 output channels (two vectors): the same
// form; its rows run along the 9 images, the longest loop that the filter
// does not read, 3 at a time (the largest divisor up to 8).
// CHECK-LABEL: func.func @forward_odd_sizes(
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<32x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x32xf32>) permutation = [1, 2, 3, 0]
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK:         } -> tensor<9x5x7x32xf32>
// CHECK:         linalg.transpose ins(%[[G]] : tensor<9x5x7x32xf32>) outs(%{{.*}} : tensor<9x32x5x7xf32>) permutation = [0, 3, 1, 2]
// TILE-LABEL: func.func @forward_odd_sizes(
// TILE:         scf.for %{{.*}} = %c0 to %c9 step %c3
// TILE-NEXT:      scf.for %{{.*}} = %c0 to %c32 step %c16
// TILE:                     vector.contract {{.*}} : vector<3x1x1x1xf32>, vector<1x16xf32> into vector<3x1x1x16xf32>
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @forward_odd_sizes(%image: tensor<9x3x7x9xf32>, %w: tensor<32x3x3x3xf32>,
                             %init: tensor<9x32x5x7xf32>) -> tensor<9x32x5x7xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<9x3x7x9xf32>, tensor<32x3x3x3xf32>)
      outs(%init : tensor<9x32x5x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<9x32x5x7xf32>
  return %g : tensor<9x32x5x7xf32>
}

// -----

// A convolution with a stride of 2 along the image's rows: its tile along
// the output channels would not vectorize (a vector along the columns
// does): no change.
// CHECK-LABEL: func.func @forward_strided(
// CHECK-NOT:     linalg.transpose
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i * 2 + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @forward_strided(%image: tensor<9x3x11x9xf32>, %w: tensor<32x3x3x3xf32>,
                           %init: tensor<9x32x5x7xf32>) -> tensor<9x32x5x7xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<9x3x11x9xf32>, tensor<32x3x3x3xf32>)
      outs(%init : tensor<9x32x5x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<9x32x5x7xf32>
  return %g : tensor<9x32x5x7xf32>
}

// -----

// Images of 16 columns fill a vector along them: no change.
// CHECK-LABEL: func.func @forward_wide_images(
// CHECK-NOT:     linalg.transpose
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @forward_wide_images(%image: tensor<2x8x10x18xf32>, %w: tensor<16x8x3x3xf32>,
                               %init: tensor<2x16x8x16xf32>) -> tensor<2x16x8x16xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x8x10x18xf32>, tensor<16x8x3x3xf32>)
      outs(%init : tensor<2x16x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x16x8x16xf32>
  return %g : tensor<2x16x8x16xf32>
}

// -----

// 24 output channels are no whole number of vectors of 16 lanes: no
// change.
// CHECK-LABEL: func.func @forward_odd_channels(
// CHECK-NOT:     linalg.transpose
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @forward_odd_channels(%image: tensor<2x8x10x10xf32>, %w: tensor<24x8x3x3xf32>,
                                %init: tensor<2x24x8x8xf32>) -> tensor<2x24x8x8xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x8x10x10xf32>, tensor<24x8x3x3xf32>)
      outs(%init : tensor<2x24x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x24x8x8xf32>
  return %g : tensor<2x24x8x8xf32>
}

// -----

// One image of 4x4 pixels: no loop that the filter does not read has 8
// iterations, too few rows of accumulators to hide the FMAs' latency: no
// change.
// CHECK-LABEL: func.func @forward_few_rows(
// CHECK-NOT:     linalg.transpose
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @forward_few_rows(%image: tensor<1x8x6x6xf32>, %w: tensor<16x8x3x3xf32>,
                            %init: tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>)
      outs(%init : tensor<1x16x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x16x4x4xf32>
  return %g : tensor<1x16x4x4xf32>
}

// -----

// An input gradient's form: 8 output channels, no whole vector of 16
// lanes, of 8x8 images. The image rows are flattened instead: a copy of the
// (padded) image per column tap, each as wide as the result's rows (three
// linalg.copy of 10x8 windows), end to end, so that result position p =
// row * 8 + column reads the copy at p + 8 * row tap + 80 * column tap; the
// result, a fill of the flat shape, is reshaped back. The tile then runs
// two full vectors along the 64 positions (32 of them), its rows along the
// 8 channels, each a broadcast filter tap that serves both vectors (16
// accumulators, 2 image loads and 8 broadcasts per 16 FMAs).
// CHECK-DAG:   #[[FLAT_IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d2 + d4 * 8 + d5 * 80)>
// CHECK-LABEL: func.func @flattened_rows(
// CHECK-SAME:    %[[IMG:[^:]*]]: tensor<2x16x10x10xf32>, %[[W:[^:]*]]: tensor<8x16x3x3xf32>)
// CHECK:         %[[COPY:.*]] = tensor.empty() : tensor<2x16x3x10x8xf32>
// CHECK:         %[[W0:.*]] = tensor.extract_slice %[[IMG]][0, 0, 0, 0] [2, 16, 10, 8] [1, 1, 1, 1]
// CHECK:         %[[C0:.*]] = linalg.copy ins(%[[W0]] : tensor<2x16x10x8xf32>)
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[C0]] into %[[COPY]][0, 0, 0, 0, 0] [2, 16, 1, 10, 8]
// CHECK:         tensor.extract_slice %[[IMG]][0, 0, 0, 1] [2, 16, 10, 8]
// CHECK:         tensor.extract_slice %[[IMG]][0, 0, 0, 2] [2, 16, 10, 8]
// CHECK:         %[[I2:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 2, 0, 0] [2, 16, 1, 10, 8]
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[I2]] {{\[}}[0], [1], [2, 3, 4]] : tensor<2x16x3x10x8xf32> into tensor<2x16x240xf32>
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8x64xf32>)
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[FLAT_IMAGE]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[FLAT]], %[[W]] : tensor<2x16x240xf32>, tensor<8x16x3x3xf32>) outs(%[[ZEROS]] : tensor<2x8x64xf32>)
// CHECK:         tensor.expand_shape %[[G]] {{\[}}[0], [1], [2, 3]] output_shape [2, 8, 8, 8] : tensor<2x8x64xf32> into tensor<2x8x8x8xf32>
// TILE-LABEL: func.func @flattened_rows(
// TILE:         scf.for %{{.*}} = %c0 to %c64 step %c32
// TILE-NEXT:      tensor.extract_slice
// TILE-NEXT:      vector.transfer_write %cst, %{{.*}} : vector<1x8x32xf32>, tensor<1x8x32xf32>
// TILE-NEXT:      scf.for %{{.*}} = %c0 to %c16 step %c1
// TILE-NEXT:        scf.for %{{.*}} = %c0 to %c3 step %c1
// TILE-NEXT:          scf.for %{{.*}} = %c0 to %c3 step %c1
// TILE:                 vector.contract {{.*}} : vector<1x1x32xf32>, vector<8x1xf32> into vector<1x8x32xf32>
#image = affine_map<(n, c, i, j, f, y, x) -> (n, f, i + y, j + x)>
#filter = affine_map<(n, c, i, j, f, y, x) -> (c, f, y, x)>
#out = affine_map<(n, c, i, j, f, y, x) -> (n, c, i, j)>
func.func @flattened_rows(%image: tensor<2x16x10x10xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<2x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x16x10x10xf32>, tensor<8x16x3x3xf32>)
      outs(%init : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8x8xf32>
  return %g : tensor<2x8x8x8xf32>
}

// -----

// The same convolution of a padded image (zeros with the image inserted,
// as a convolution's lowering pads): the copy is zeros, and each tap's
// window of the unpadded image lies in rows 1 to 8 and in columns 1 to 7, 0
// to 7 and 0 to 6; the padded image is left unread. Padding of ones is no
// zeros that the copy could hold: its windows are copied as above.
// CHECK-LABEL: func.func @flattened_padded_rows(
// CHECK-SAME:    %[[IMG:[^:]*]]: tensor<2x16x8x8xf32>
// CHECK:         tensor.empty() : tensor<2x16x3x10x8xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x16x3x10x8xf32>)
// CHECK:         %[[W0:.*]] = tensor.extract_slice %[[IMG]][0, 0, 0, 0] [2, 16, 8, 7] [1, 1, 1, 1]
// CHECK:         %[[C0:.*]] = linalg.copy ins(%[[W0]] : tensor<2x16x8x7xf32>)
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[C0]] into %[[ZEROS]][0, 0, 0, 1, 1] [2, 16, 1, 8, 7]
// CHECK:         %[[W1:.*]] = tensor.extract_slice %[[IMG]][0, 0, 0, 0] [2, 16, 8, 8] [1, 1, 1, 1]
// CHECK:         %[[C1:.*]] = linalg.copy ins(%[[W1]] : tensor<2x16x8x8xf32>)
// CHECK:         %[[I1:.*]] = tensor.insert_slice %[[C1]] into %[[I0]][0, 0, 1, 1, 0] [2, 16, 1, 8, 8]
// CHECK:         %[[W2:.*]] = tensor.extract_slice %[[IMG]][0, 0, 0, 1] [2, 16, 8, 7] [1, 1, 1, 1]
// CHECK:         %[[C2:.*]] = linalg.copy ins(%[[W2]] : tensor<2x16x8x7xf32>)
// CHECK:         %[[I2:.*]] = tensor.insert_slice %[[C2]] into %[[I1]][0, 0, 2, 1, 0] [2, 16, 1, 8, 7]
// CHECK:         tensor.collapse_shape %[[I2]] {{\[}}[0], [1], [2, 3, 4]] : tensor<2x16x3x10x8xf32> into tensor<2x16x240xf32>
// CHECK-LABEL: func.func @flattened_rows_padded_ones(
// CHECK:         %[[PADDED:.*]] = tensor.insert_slice
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x16x3x10x8xf32>)
// CHECK:         tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [2, 16, 10, 8]
// CHECK:         tensor.extract_slice %[[PADDED]][0, 0, 0, 1] [2, 16, 10, 8]
// CHECK:         tensor.extract_slice %[[PADDED]][0, 0, 0, 2] [2, 16, 10, 8]
#image = affine_map<(n, c, i, j, f, y, x) -> (n, f, i + y, j + x)>
#filter = affine_map<(n, c, i, j, f, y, x) -> (c, f, y, x)>
#out = affine_map<(n, c, i, j, f, y, x) -> (n, c, i, j)>
func.func @flattened_padded_rows(%image: tensor<2x16x8x8xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<2x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.empty() : tensor<2x16x10x10xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%p : tensor<2x16x10x10xf32>) -> tensor<2x16x10x10xf32>
  %padded = tensor.insert_slice %image into %zeros[0, 0, 1, 1] [2, 16, 8, 8] [1, 1, 1, 1]
      : tensor<2x16x8x8xf32> into tensor<2x16x10x10xf32>
  %e = tensor.empty() : tensor<2x8x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%padded, %w : tensor<2x16x10x10xf32>, tensor<8x16x3x3xf32>)
      outs(%init : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8x8xf32>
  return %g : tensor<2x8x8x8xf32>
}
func.func @flattened_rows_padded_ones(%image: tensor<2x16x8x8xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<2x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = tensor.empty() : tensor<2x16x10x10xf32>
  %ones = linalg.fill ins(%one : f32) outs(%p : tensor<2x16x10x10xf32>) -> tensor<2x16x10x10xf32>
  %padded = tensor.insert_slice %image into %ones[0, 0, 1, 1] [2, 16, 8, 8] [1, 1, 1, 1]
      : tensor<2x16x8x8xf32> into tensor<2x16x10x10xf32>
  %e = tensor.empty() : tensor<2x8x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%padded, %w : tensor<2x16x10x10xf32>, tensor<8x16x3x3xf32>)
      outs(%init : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8x8xf32>
  return %g : tensor<2x8x8x8xf32>
}

// -----

// 5x7 positions are no whole number of vectors, and an accumulator that is
// not a fill would need its values copied in: no change.
// CHECK-LABEL: func.func @flattened_rows_odd(
// CHECK-NOT:     tensor.collapse_shape
// CHECK-LABEL: func.func @flattened_rows_not_filled(
// CHECK-NOT:     tensor.collapse_shape
#image = affine_map<(n, c, i, j, f, y, x) -> (n, f, i + y, j + x)>
#filter = affine_map<(n, c, i, j, f, y, x) -> (c, f, y, x)>
#out = affine_map<(n, c, i, j, f, y, x) -> (n, c, i, j)>
func.func @flattened_rows_odd(%image: tensor<2x16x7x9xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<2x8x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x5x7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x5x7xf32>) -> tensor<2x8x5x7xf32>
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x16x7x9xf32>, tensor<8x16x3x3xf32>)
      outs(%init : tensor<2x8x5x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x5x7xf32>
  return %g : tensor<2x8x5x7xf32>
}
func.func @flattened_rows_not_filled(%image: tensor<2x16x10x10xf32>, %w: tensor<8x16x3x3xf32>,
                                     %init: tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x16x10x10xf32>, tensor<8x16x3x3xf32>)
      outs(%init : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8x8xf32>
  return %g : tensor<2x8x8x8xf32>
}
