// RUN: ens-opt %s --split-input-file --ens-cpu-tile-and-vectorize \
// RUN:   | FileCheck %s --implicit-check-not=linalg.
// RUN: ens-opt %s --split-input-file \
// RUN:   --ens-cpu-tile-and-vectorize="threads=2 vector-bytes=64" \
// RUN:   | FileCheck %s --check-prefix=THREADS --implicit-check-not=linalg.

// A contraction becomes register tiles of several rows by several vectors
// (4 lanes of f32 in 16 bytes; 16 registers): 6 rows by 2 vectors, each
// reducing over k, a vector.contract of a 6x1 column of %a and a 1x8 row of
// %b into the 6x8 accumulator; the 2 rows left over are split off and tiled
// on their own. The fill is written a vector at a time.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16x8xf32>)
// CHECK-NOT:     scf.forall
// CHECK:         %[[FILLED:.*]] = scf.for
// CHECK:           vector.transfer_write {{.*}} : vector<1x4xf32>, tensor<8x8xf32>
// CHECK:         %[[TOP:.*]] = tensor.extract_slice %[[FILLED]][0, 0] [6, 8] [1, 1]
// CHECK-NEXT:    scf.for %[[K:.*]] = %{{.*}} to %c16 step %c1 iter_args(%[[TILE:.*]] = %[[TOP]])
// CHECK-NEXT:      %[[VA:.*]] = vector.transfer_read %[[A]][%c0, %[[K]]]{{.*}} : tensor<8x16xf32>, vector<6x1xf32>
// CHECK-NEXT:      %[[VB:.*]] = vector.transfer_read %[[B]][%[[K]], %c0]{{.*}} : tensor<16x8xf32>, vector<1x8xf32>
// CHECK-NEXT:      %[[ACC:.*]] = vector.transfer_read %[[TILE]][%c0, %c0]{{.*}} : tensor<6x8xf32>, vector<6x8xf32>
// CHECK-NEXT:      %[[SUM:.*]] = vector.contract {{.*}} %[[VA]], %[[VB]], %[[ACC]] : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
// CHECK-NEXT:      vector.transfer_write %[[SUM]], %[[TILE]][%c0, %c0]{{.*}} : vector<6x8xf32>, tensor<6x8xf32>
// CHECK:         tensor.insert_slice {{.*}}[0, 0] [6, 8] [1, 1]
// CHECK:         tensor.extract_slice {{.*}}[6, 0] [2, 8] [1, 1]
// CHECK:           vector.contract {{.*}} : vector<2x1xf32>, vector<1x8xf32> into vector<2x8xf32>
// CHECK:         tensor.insert_slice {{.*}}[6, 0] [2, 8] [1, 1]
// THREADS-LABEL: func.func @matmul
// THREADS-NOT:     scf.forall
// THREADS:         vector.contract {{.*}} : vector<8x1xf32>, vector<1x8xf32> into vector<8x8xf32>
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>)
    -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8xf32>)
      -> tensor<8x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x8xf32>)
      outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// A reduction whose accumulator is a fill that nothing else reads fills
// each register tile inside the loop over tiles, before the reduction's
// loop: the tile starts from the constant (which ens-cpu-hoist-transfers
// then forwards), and no pass of its own writes the whole result first.
// CHECK-LABEL: func.func @fill_in_tiles
// CHECK:         %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<6x8xf32>
// CHECK:         scf.for %[[I:.*]] = %c0 to %c12 step %c6 iter_args(%[[OUT:.*]] = %{{.*}})
// CHECK-NEXT:      %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [6, 8] [1, 1]
// CHECK-NEXT:      %[[FILLED:.*]] = vector.transfer_write %[[ZEROS]], %[[SLICE]][%c0, %c0]{{.*}} : vector<6x8xf32>, tensor<6x8xf32>
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}} = %[[FILLED]]) -> (tensor<6x8xf32>)
// CHECK:             vector.contract {{.*}} : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
func.func @fill_in_tiles(%a: tensor<12x16xf32>, %b: tensor<16x8xf32>)
    -> tensor<12x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x8xf32>)
      -> tensor<12x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<12x16xf32>, tensor<16x8xf32>)
      outs(%fill : tensor<12x8xf32>) -> tensor<12x8xf32>
  return %r : tensor<12x8xf32>
}

// -----

// A fill that two reductions accumulate into is filled once, a vector at a
// time, on its own; each reduction's tiles read it.
// CHECK-LABEL: func.func @shared_fill
// CHECK:         %[[FILLED:.*]] = scf.for
// CHECK:           vector.transfer_write {{.*}} : vector<1x4xf32>, tensor<12x8xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[FILLED]])
// CHECK:           vector.contract {{.*}} : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[FILLED]])
// CHECK:           vector.contract {{.*}} : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
func.func @shared_fill(%a: tensor<12x16xf32>, %b: tensor<16x8xf32>,
                       %c: tensor<16x8xf32>)
    -> (tensor<12x8xf32>, tensor<12x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x8xf32>)
      -> tensor<12x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<12x16xf32>, tensor<16x8xf32>)
      outs(%fill : tensor<12x8xf32>) -> tensor<12x8xf32>
  %s = linalg.matmul ins(%a, %c : tensor<12x16xf32>, tensor<16x8xf32>)
      outs(%fill : tensor<12x8xf32>) -> tensor<12x8xf32>
  return %r, %s : tensor<12x8xf32>, tensor<12x8xf32>
}

// -----

// An op of 64 x 512 iterations: on one thread, one loop nest over vectors;
// on two, its rows are spread over an scf.forall first, and the vectors are
// as wide as 64 bytes allow.
// CHECK-LABEL: func.func @tanh
// CHECK-NOT:     scf.forall
// CHECK:         scf.for {{.*}} step %c1
// CHECK-NEXT:      scf.for {{.*}} step %c4
// CHECK-NEXT:        vector.transfer_read {{.*}} : tensor<64x512xf32>, vector<1x4xf32>
// CHECK-NEXT:        math.tanh {{.*}} : vector<1x4xf32>
// CHECK-NEXT:        vector.transfer_write {{.*}} : vector<1x4xf32>, tensor<64x512xf32>
// THREADS-LABEL: func.func @tanh
// THREADS:         scf.forall (%[[ROW:.*]]) in (64)
// THREADS:           scf.for %[[COL:.*]] = %c0 to %c512 step %c16
// THREADS-NEXT:        vector.transfer_read %{{.*}}[%[[ROW]], %[[COL]]]{{.*}} : tensor<64x512xf32>, vector<1x16xf32>
// THREADS-NEXT:        math.tanh {{.*}} : vector<1x16xf32>
// THREADS:           tensor.parallel_insert_slice {{.*}}[%[[ROW]], 0] [1, 512] [1, 1] : tensor<1x512xf32> into tensor<64x512xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @tanh(%x: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %empty = tensor.empty() : tensor<64x512xf32>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x512xf32>) outs(%empty : tensor<64x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// -----

// In a loop over members, which is what runs on the threads, an op is cut
// into register tiles only, however large.
// THREADS-LABEL: func.func @in_member_loop
// THREADS:         scf.forall (%{{.*}}) in (4)
// THREADS-NOT:       scf.forall
// THREADS:           scf.for {{.*}} step %c1
// THREADS-NEXT:        scf.for {{.*}} step %c16
// THREADS-NEXT:          vector.transfer_read {{.*}} : tensor<4x128x128xf32>, vector<1x16xf32>
// THREADS:           scf.forall.in_parallel
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_member_loop(%x: tensor<4x128x128xf32>)
    -> tensor<4x128x128xf32> {
  %init = tensor.empty() : tensor<4x128x128xf32>
  %r = scf.forall (%m) in (4) shared_outs(%out = %init)
      -> (tensor<4x128x128xf32>) {
    %xm = tensor.extract_slice %x[%m, 0, 0] [1, 128, 128] [1, 1, 1]
        : tensor<4x128x128xf32> to tensor<128x128xf32>
    %e = tensor.empty() : tensor<128x128xf32>
    %t = linalg.generic {indexing_maps = [#id, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%xm : tensor<128x128xf32>) outs(%e : tensor<128x128xf32>) {
    ^bb0(%in: f32, %o: f32):
      %v = math.tanh %in : f32
      linalg.yield %v : f32
    } -> tensor<128x128xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %out[%m, 0, 0] [1, 128, 128]
          [1, 1, 1] : tensor<128x128xf32> into tensor<4x128x128xf32>
    }
  }
  return %r : tensor<4x128x128xf32>
}

// -----

// A convolution (the image read at `row + tap`) is tiled as a contraction
// is: a vector along the result's innermost loop (4 of its 8 columns),
// rows along the output channel, which the image does not read, and image
// rows, each read as a vector of the image at `row + tap`. With 16
// registers, 2 channels by all 4 image rows (8 accumulators, 6 loads per 8
// FMAs) ties 4 by 2 and is taken first. Every other loop, the taps
// included, is of one iteration; without the unit loops read in sums, each
// step is a vector.contract of 4 image rows and a column of 2 filter taps,
// over the one input channel of the step.
// CHECK-LABEL: func.func @convolution
// CHECK-SAME:    (%[[IMAGE:.*]]: tensor<2x3x6x10xf32>, %[[W:.*]]: tensor<8x3x3x3xf32>, %[[INIT:.*]]: tensor<2x8x4x8xf32>)
// CHECK:         scf.for %[[N:.*]] = %c0 to %c2 step %c1
// CHECK:           scf.for %[[F:.*]] = %c0 to %c8 step %c2
// CHECK:             scf.for %[[J:.*]] = %c0 to %c8 step %c4
// CHECK:               scf.for %[[C:.*]] = %c0 to %c3 step %c1
// CHECK:                 scf.for %[[Y:.*]] = %c0 to %c3 step %c1
// CHECK:                   scf.for %[[X:.*]] = %c0 to %c3 step %c1
// CHECK:                     %[[COL:.*]] = affine.apply #{{.*}}(%[[J]], %[[X]])
// CHECK:                     %[[VI:.*]] = vector.transfer_read %[[IMAGE]][%[[N]], %[[C]], %[[Y]], %[[COL]]]{{.*}} : tensor<2x3x6x10xf32>, vector<1x1x4x4xf32>
// CHECK:                     %[[VW:.*]] = vector.transfer_read %[[W]][%[[F]], %[[C]], %[[Y]], %[[X]]]{{.*}} : tensor<8x3x3x3xf32>, vector<2x1xf32>
// CHECK:                     %[[ACC:.*]] = vector.transfer_read %{{.*}}[%[[N]], %[[F]], %c0, %[[J]]]{{.*}} : tensor<2x8x4x8xf32>, vector<1x2x4x4xf32>
// CHECK:                     vector.contract {{.*}} %[[VI]], %[[VW]], %[[ACC]] : vector<1x1x4x4xf32>, vector<2x1xf32> into vector<1x2x4x4xf32>
// CHECK:                     vector.transfer_write {{.*}} : vector<1x2x4x4xf32>, tensor<2x8x4x8xf32>
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @convolution(%image: tensor<2x3x6x10xf32>, %w: tensor<8x3x3x3xf32>,
                       %init: tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x3x6x10xf32>, tensor<8x3x3x3xf32>)
      outs(%init : tensor<2x8x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x4x8xf32>
  return %g : tensor<2x8x4x8xf32>
}

// -----

// A strided convolution reads the image two columns apart, which is no
// vector: it stays one op, for loops to run later.
// CHECK-LABEL: func.func @strided_convolution
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK:           linalg.yield
// CHECK-NOT:     vector.
// THREADS-LABEL: func.func @strided_convolution
// THREADS:         linalg.generic
// THREADS:           linalg.yield
#image = affine_map<(n, f, i, j, c, y, x) -> (n, c, i + y, j * 2 + x)>
#filter = affine_map<(n, f, i, j, c, y, x) -> (f, c, y, x)>
#out = affine_map<(n, f, i, j, c, y, x) -> (n, f, i, j)>
func.func @strided_convolution(%image: tensor<2x3x6x17xf32>, %w: tensor<8x3x3x3xf32>,
                               %init: tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32> {
  %g = linalg.generic {indexing_maps = [#image, #filter, #out],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction"]}
      ins(%image, %w : tensor<2x3x6x17xf32>, tensor<8x3x3x3xf32>)
      outs(%init : tensor<2x8x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x4x8xf32>
  return %g : tensor<2x8x4x8xf32>
}

// -----

// A column sum reduces across the vector loop's rows: its tile holds 8
// vectors of 4 lanes side by side (32 columns), so that each step reads 32
// contiguous floats of a row into 8 accumulators.
// CHECK-LABEL: func.func @column_sums
// CHECK:         scf.for %[[J:.*]] = %c0 to %c64 step %c32
// CHECK:           scf.for %[[K:.*]] = %c0 to %c64 step %c1
// CHECK:             vector.transfer_read %{{.*}}[%[[K]], %[[J]]]{{.*}} : tensor<64x64xf32>, vector<1x32xf32>
// CHECK:             vector.multi_reduction <add>, {{.*}} [0] : vector<1x32xf32> to vector<32xf32>
func.func @column_sums(%x: tensor<64x64xf32>, %init: tensor<64xf32>)
    -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>,
                                        affine_map<(k, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A transpose that moves its input's innermost dim (an output gradient's
// 8 columns) away from the result's (its 16 channels): each tile reads 4
// rows of 4 contiguous columns and transposes them in registers (vector
// lowering), rather than gathering a vector of the result an element at a
// time. A transpose that keeps the innermost dim reads vectors along it.
// CHECK-LABEL: func.func @transpose_channels_innermost
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c16 step %c4
// CHECK-NEXT:        %[[TILE:.*]] = vector.transfer_read {{.*}} : tensor<2x3x16x4x8xf32>, vector<1x1x4x1x4xf32>
// CHECK-NEXT:        %[[T:.*]] = vector.transpose %[[TILE]], [0, 1, 3, 4, 2] : vector<1x1x4x1x4xf32> to vector<1x1x1x4x4xf32>
// CHECK-NEXT:        vector.transfer_write %[[T]]
// CHECK-LABEL: func.func @transpose_keeps_innermost
// CHECK:         scf.for %{{.*}} = %c0 to %c32 step %c4
// CHECK-NEXT:      vector.transfer_read {{.*}} : tensor<4x6x32xf32>, vector<1x1x4xf32>
func.func @transpose_channels_innermost(%dy: tensor<2x3x16x4x8xf32>) -> tensor<2x3x4x8x16xf32> {
  %e = tensor.empty() : tensor<2x3x4x8x16xf32>
  %t = linalg.transpose ins(%dy : tensor<2x3x16x4x8xf32>) outs(%e : tensor<2x3x4x8x16xf32>) permutation = [0, 1, 3, 4, 2]
  return %t : tensor<2x3x4x8x16xf32>
}
func.func @transpose_keeps_innermost(%x: tensor<4x6x32xf32>) -> tensor<6x4x32xf32> {
  %e = tensor.empty() : tensor<6x4x32xf32>
  %t = linalg.transpose ins(%x : tensor<4x6x32xf32>) outs(%e : tensor<6x4x32xf32>) permutation = [1, 0, 2]
  return %t : tensor<6x4x32xf32>
}

// -----

// The last pass of the max pooling adjoint: the operand viewed as [image,
// rows, window rows, columns, window columns], each element the adjoint
// where its tap is the window's first maximum. The window's 2 columns are
// narrower than a vector, so the vector runs along the columns of windows
// too, 2 x 2 lanes here (8 x 2 with AVX-512); the tap positions are read
// along the window's columns and broadcast along the columns of windows,
// the first maxima and the adjoint the other way.
// CHECK-LABEL: func.func @narrow_window_columns
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c2
// CHECK:           vector.transfer_read {{.*}} : tensor<2x2xf32>, vector<1x2xf32>
// CHECK:           vector.transfer_read {{.*}} : tensor<3x4x8xf32>, vector<1x1x2xf32>
// CHECK:           vector.transpose {{.*}} : vector<1x2x1x1x2xf32> to vector<1x1x1x2x2xf32>
// CHECK:           vector.transfer_read {{.*}} : tensor<3x4x8xf32>, vector<1x1x2xf32>
// CHECK:           arith.cmpf oeq, {{.*}} : vector<1x1x1x2x2xf32>
// CHECK:           arith.select {{.*}} : vector<1x1x1x2x2xi1>, vector<1x1x1x2x2xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<1x1x1x2x2xf32>, tensor<3x4x2x8x2xf32>
// THREADS-LABEL: func.func @narrow_window_columns
// THREADS:         vector.transfer_write {{.*}} : vector<1x1x1x8x2xf32>, tensor<3x4x2x8x2xf32>
func.func @narrow_window_columns(%first: tensor<3x4x8xf32>, %g: tensor<3x4x8xf32>,
                                 %taps: tensor<2x2xf32>) -> tensor<3x4x2x8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4x2x8x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, r, a, c, b) -> (a, b)>,
                                        affine_map<(n, r, a, c, b) -> (n, r, c)>,
                                        affine_map<(n, r, a, c, b) -> (n, r, c)>,
                                        affine_map<(n, r, a, c, b) -> (n, r, a, c, b)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%taps, %first, %g : tensor<2x2xf32>, tensor<3x4x8xf32>, tensor<3x4x8xf32>)
      outs(%e : tensor<3x4x2x8x2xf32>) {
  ^bb0(%t: f32, %f: f32, %d: f32, %out: f32):
    %at = arith.cmpf oeq, %t, %f : f32
    %v = arith.select %at, %d, %zero : f32
    linalg.yield %v : f32
  } -> tensor<3x4x2x8x2xf32>
  return %r : tensor<3x4x2x8x2xf32>
}

// -----

// An operand that reads the narrow dimension at a stride (transposed)
// would be gathered: the vector stays along the narrow dimension alone.
// CHECK-LABEL: func.func @narrow_transposed
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK:           vector.transfer_write {{.*}} : vector<1x1x2xf32>, tensor<3x8x2xf32>
func.func @narrow_transposed(%a: tensor<3x2x8xf32>, %c: tensor<3x8x2xf32>) -> tensor<3x8x2xf32> {
  %e = tensor.empty() : tensor<3x8x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k, j)>,
                                        affine_map<(i, j, k) -> (i, j, k)>,
                                        affine_map<(i, j, k) -> (i, j, k)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %c : tensor<3x2x8xf32>, tensor<3x8x2xf32>) outs(%e : tensor<3x8x2xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<3x8x2xf32>
  return %r : tensor<3x8x2xf32>
}
