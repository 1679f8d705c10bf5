// The register tiles of convolutions (ens-cpu-tile-and-vectorize): a vector
// along the result's columns, rows along the output channels (one filter
// tap broadcast per row) and several image rows (one image vector per row),
// so that each step of the reduction loads rows + image rows registers for
// rows * image rows FMAs. Both counts divide their loops, and are chosen
// for the fewest loads per FMA that fit the target's registers (16 with
// AVX2, 32 with AVX-512) with an image vector per image row and a
// broadcast; on a tie, the tile with more accumulators.
//
// RUN: ens-opt %s --split-input-file \
// RUN:   --ens-cpu-tile-and-vectorize="vector-bytes=32" -o %t.avx2.mlir
// RUN: FileCheck %s --check-prefix=AVX2 --implicit-check-not=linalg. < %t.avx2.mlir
// RUN: ens-opt %s --split-input-file \
// RUN:   --ens-cpu-tile-and-vectorize="vector-bytes=64" -o %t.avx512.mlir
// RUN: FileCheck %s --check-prefix=AVX512 --implicit-check-not=linalg. < %t.avx512.mlir

// 16 channels of 8x16 pixels. With AVX-512, 4 channels by 4 image rows of
// 16 columns (16 accumulators, 8 loads per 16 FMAs; 8 by 2 needs 10). With
// AVX2, 2 channels by 4 image rows of 8 columns (4 by 2 ties it with 8
// accumulators; 4 by 4 needs 21 registers).
// AVX512-LABEL: func.func @conv_16x8x16
// AVX512:         scf.for %{{.*}} = %c0 to %c16 step %c4
// AVX512-NEXT:      scf.for %{{.*}} = %c0 to %c8 step %c4
// AVX512-NEXT:        scf.for %{{.*}} = %c0 to %c4 step %c1
// AVX512:               vector.contract {{.*}} : vector<1x1x4x16xf32>, vector<4x1xf32> into vector<1x4x4x16xf32>
// AVX512-NOT:     vector.contract
// AVX2-LABEL: func.func @conv_16x8x16
// AVX2:         scf.for %{{.*}} = %c0 to %c16 step %c2
// AVX2-NEXT:      scf.for %{{.*}} = %c0 to %c8 step %c4
// AVX2-NEXT:        scf.for %{{.*}} = %c0 to %c16 step %c8
// AVX2-NEXT:          scf.for %{{.*}} = %c0 to %c4 step %c1
// AVX2:                 vector.contract {{.*}} : vector<1x1x4x8xf32>, vector<2x1xf32> into vector<1x2x4x8xf32>
// AVX2-NOT:       vector.contract
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @conv_16x8x16(%image: tensor<1x4x10x18xf32>, %w: tensor<16x4x3x3xf32>,
                        %init: tensor<1x16x8x16xf32>) -> tensor<1x16x8x16xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<1x4x10x18xf32>, tensor<16x4x3x3xf32>)
      outs(%init : tensor<1x16x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x16xf32>
  return %g : tensor<1x16x8x16xf32>
}

// -----

// 12 channels of 6x16 pixels, which tiles of 4 do not divide. With
// AVX-512, 6 channels by 3 image rows (18 accumulators, 9 loads per 18
// FMAs). With AVX2, 4 by 3 (12 accumulators and all 16 registers, 7 loads per 12 FMAs; 6 by 2
// and 3 by 3 need 8 per 12).
// AVX512-LABEL: func.func @conv_12x6x16
// AVX512:         scf.for %{{.*}} = %c0 to %c12 step %c6
// AVX512-NEXT:      scf.for %{{.*}} = %c0 to %c6 step %c3
// AVX512:               vector.contract {{.*}} : vector<1x1x3x16xf32>, vector<6x1xf32> into vector<1x6x3x16xf32>
// AVX512-NOT:     vector.contract
// AVX2-LABEL: func.func @conv_12x6x16
// AVX2:         scf.for %{{.*}} = %c0 to %c12 step %c4
// AVX2-NEXT:      scf.for %{{.*}} = %c0 to %c6 step %c3
// AVX2-NEXT:        scf.for %{{.*}} = %c0 to %c16 step %c8
// AVX2:                 vector.contract {{.*}} : vector<1x1x3x8xf32>, vector<4x1xf32> into vector<1x4x3x8xf32>
// AVX2-NOT:       vector.contract
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @conv_12x6x16(%image: tensor<1x4x8x18xf32>, %w: tensor<12x4x3x3xf32>,
                        %init: tensor<1x12x6x16xf32>) -> tensor<1x12x6x16xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<1x4x8x18xf32>, tensor<12x4x3x3xf32>)
      outs(%init : tensor<1x12x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x12x6x16xf32>
  return %g : tensor<1x12x6x16xf32>
}

// -----

// A filter gradient with its output channels innermost (as
// ens-cpu-split-reductions leaves it): the image does not read them and the
// output gradient has them innermost, so the vector runs along them,
// reading the output gradient, and the rows along the input channels, each
// an image element broadcast: 6 of the 12 (the largest divisor up to 8),
// by 16 output channels with AVX-512 and 8 with AVX2. The taps and every
// reduction loop are of one iteration.
// AVX512-LABEL: func.func @filter_gradient_channels
// AVX512:         scf.for %{{.*}} = %c0 to %c32 step %c16
// AVX512-NEXT:      scf.for %{{.*}} = %c0 to %c12 step %c6
// AVX512:                       vector.contract {{.*}} : vector<1x6x1x1xf32>, vector<1x16xf32> into vector<6x1x1x16xf32>
// AVX512-NOT:     vector.contract
// AVX2-LABEL: func.func @filter_gradient_channels
// AVX2:         scf.for %{{.*}} = %c0 to %c32 step %c8
// AVX2-NEXT:      scf.for %{{.*}} = %c0 to %c12 step %c6
// AVX2:                       vector.contract {{.*}} : vector<1x6x1x1xf32>, vector<1x8xf32> into vector<6x1x1x8xf32>
// AVX2-NOT:       vector.contract
#image = affine_map<(f, c, i, j, n, y, x) -> (n, c, i + y, j + x)>
#grad = affine_map<(f, c, i, j, n, y, x) -> (n, y, x, f)>
#out = affine_map<(f, c, i, j, n, y, x) -> (c, i, j, f)>
func.func @filter_gradient_channels(%image: tensor<2x12x7x9xf32>, %dy: tensor<2x5x7x32xf32>,
                                    %init: tensor<12x3x3x32xf32>) -> tensor<12x3x3x32xf32> {
  %g = linalg.generic {indexing_maps = [#image, #grad, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %dy : tensor<2x12x7x9xf32>, tensor<2x5x7x32xf32>)
      outs(%init : tensor<12x3x3x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<12x3x3x32xf32>
  return %g : tensor<12x3x3x32xf32>
}

// -----

// A convolution over flattened image rows (as ens-cpu-split-reductions
// leaves an input gradient of 8x8 images): the vector reads the image
// along the 64 positions, the rows run along the 8 output channels, and
// there are no image rows to span. With AVX-512, two vectors side by side
// (16 accumulators, 2 image loads and 8 broadcasts per 16 FMAs); with AVX2,
// two vectors of 8 rows would need 19 registers, so one.
// AVX512-LABEL: func.func @flattened_rows
// AVX512:         scf.for %{{.*}} = %c0 to %c64 step %c32
// AVX512:           vector.contract {{.*}} : vector<1x1x32xf32>, vector<8x1xf32> into vector<1x8x32xf32>
// AVX512-NOT:     vector.contract
// AVX2-LABEL: func.func @flattened_rows
// AVX2:         scf.for %{{.*}} = %c0 to %c64 step %c8
// AVX2:           vector.contract {{.*}} : vector<1x1x8xf32>, vector<8x1xf32> into vector<1x8x8xf32>
// AVX2-NOT:       vector.contract
#image = affine_map<(n, c, p, f, y, x) -> (n, f, p + y * 8 + x * 80)>
#filter = affine_map<(n, c, p, f, y, x) -> (c, f, y, x)>
#out = affine_map<(n, c, p, f, y, x) -> (n, c, p)>
func.func @flattened_rows(%image: tensor<2x16x240xf32>, %w: tensor<8x16x3x3xf32>,
                          %init: tensor<2x8x64xf32>) -> tensor<2x8x64xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x16x240xf32>, tensor<8x16x3x3xf32>)
      outs(%init : tensor<2x8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x64xf32>
  return %g : tensor<2x8x64xf32>
}

// -----

// A filter gradient with a partial result per column tap (as
// ens-cpu-split-reductions leaves one with a single input channel): the
// vector runs along the partial results, reading the image and the output
// gradient, the rows along the 12 output channels, and the image rows along
// the 3 row taps, which the image reads with the output gradient's rows
// alone, so that each output gradient vector serves all three. The column
// taps, read with the partial results' loop, stay of one iteration. With
// AVX-512, 6 channels by 3 row taps (18 accumulators, 9 loads per 18 FMAs);
// with AVX2, 4 by 3.
// AVX512-LABEL: func.func @filter_gradient_row_taps
// AVX512:         scf.for %{{.*}} = %c0 to %c12 step %c6
// AVX512-NEXT:      scf.for %{{.*}} = %c0 to %c3 step %c1
// AVX512:             vector.contract {{.*}} : vector<1x1x3x16xf32>, vector<1x6x16xf32> into vector<1x6x3x16xf32>
// AVX512-NOT:     vector.contract
// AVX2-LABEL: func.func @filter_gradient_row_taps
// AVX2:         scf.for %{{.*}} = %c0 to %c12 step %c4
// AVX2-NEXT:      scf.for %{{.*}} = %c0 to %c3 step %c1
// AVX2:             vector.contract {{.*}} : vector<1x1x3x8xf32>, vector<1x4x8xf32> into vector<1x4x3x8xf32>
// AVX2-NOT:       vector.contract
#image = affine_map<(f, c, i, j, n, y, x) -> (n, c, i + y, j + x)>
#grad = affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>
#out = affine_map<(f, c, i, j, n, y, x) -> (c, f, i, j, x)>
func.func @filter_gradient_row_taps(%image: tensor<2x1x9x18xf32>, %dy: tensor<2x12x7x16xf32>,
                                    %init: tensor<1x12x3x3x16xf32>) -> tensor<1x12x3x3x16xf32> {
  %g = linalg.generic {indexing_maps = [#image, #grad, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "parallel"]}
      ins(%image, %dy : tensor<2x1x9x18xf32>, tensor<2x12x7x16xf32>)
      outs(%init : tensor<1x12x3x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x12x3x3x16xf32>
  return %g : tensor<1x12x3x3x16xf32>
}

// -----

// The same with the row taps dilated (the image reads them at 2 * i + y):
// a tile over them would not read the image as vectors of rows, so each
// row tap is a tile of its own: 6 rows of output channels (the largest
// divisor of 12 up to 8) by one vector with AVX-512, by two vectors of 8
// side by side with AVX2.
// AVX512-LABEL: func.func @filter_gradient_dilated_row_taps
// AVX512:         scf.for %{{.*}} = %c0 to %c12 step %c6
// AVX512-NEXT:      scf.for %{{.*}} = %c0 to %c3 step %c1
// AVX512-NEXT:        scf.for %{{.*}} = %c0 to %c3 step %c1
// AVX512:               vector.contract {{.*}} into vector<1x6x16xf32>
// AVX512-NOT:     vector.contract
// AVX2-LABEL: func.func @filter_gradient_dilated_row_taps
// AVX2:         scf.for %{{.*}} = %c0 to %c12 step %c6
// AVX2-NEXT:      scf.for %{{.*}} = %c0 to %c3 step %c1
// AVX2-NEXT:        scf.for %{{.*}} = %c0 to %c3 step %c1
// AVX2:                 vector.contract {{.*}} into vector<1x6x16xf32>
// AVX2-NOT:       vector.contract
#image = affine_map<(f, c, i, j, n, y, x) -> (n, c, i * 2 + y, j + x)>
#grad = affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>
#out = affine_map<(f, c, i, j, n, y, x) -> (c, f, i, j, x)>
func.func @filter_gradient_dilated_row_taps(%image: tensor<2x1x11x18xf32>, %dy: tensor<2x12x7x16xf32>,
                                            %init: tensor<1x12x3x3x16xf32>) -> tensor<1x12x3x3x16xf32> {
  %g = linalg.generic {indexing_maps = [#image, #grad, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "parallel"]}
      ins(%image, %dy : tensor<2x1x11x18xf32>, tensor<2x12x7x16xf32>)
      outs(%init : tensor<1x12x3x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x12x3x3x16xf32>
  return %g : tensor<1x12x3x3x16xf32>
}
