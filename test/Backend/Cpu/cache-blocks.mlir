// RUN: ens-opt %s --split-input-file --ens-cpu-tile-and-vectorize="vector-bytes=64 l1-bytes=32768 l2-bytes=65536 l3-bytes=131072" -o %t.small
// RUN: FileCheck %s --check-prefix=SMALL < %t.small
// RUN: ens-opt %s --split-input-file --ens-cpu-tile-and-vectorize="vector-bytes=64 l1-bytes=49152 l2-bytes=1048576 l3-bytes=0" -o %t.large
// RUN: FileCheck %s --check-prefix=LARGE < %t.large

// The cache blocks of contractions for two machines: SMALL has a 32 KiB
// L1, a 64 KiB L2 and a 128 KiB L3; LARGE a 48 KiB L1, a 1 MiB L2 and no
// L3. Register tiles are 8 rows by 16 lanes of f32 (64 bytes of vector).

// `bi,io->bo`, 64 rows, 384 steps, 64 columns. On SMALL, Kc = 192 (a 16-lane
// panel of 256 steps would fill half the L1; 192 is the largest divisor of
// 384 within), then Mc = 32 rows (half the L2 holds 42 rows of 192 steps;
// whole register tiles that divide 64), and all 64 columns (half the L3
// holds 85); the loops over blocks go reduction, rows. On LARGE, half the L1
// holds 384 steps and everything else fits: only register tiles.

#x = affine_map<(b, o, i) -> (b, i)>
#w = affine_map<(b, o, i) -> (i, o)>
#y = affine_map<(b, o, i) -> (b, o)>
func.func @weight(%x: tensor<64x384xf32>, %w: tensor<384x64xf32>,
                  %init: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x384xf32>, tensor<384x64xf32>)
      outs(%init : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
// SMALL-LABEL: func.func @weight(
// SMALL-DAG:     %[[C192:.*]] = arith.constant 192 : index
// SMALL-DAG:     %[[C384:.*]] = arith.constant 384 : index
// SMALL-DAG:     %[[C32:.*]] = arith.constant 32 : index
// SMALL-DAG:     %[[C64:.*]] = arith.constant 64 : index
// SMALL-DAG:     %[[C8:.*]] = arith.constant 8 : index
// SMALL-DAG:     %[[C16:.*]] = arith.constant 16 : index
// SMALL-DAG:     %[[C1:.*]] = arith.constant 1 : index
// SMALL:         scf.for %{{.*}} = %{{.*}} to %[[C384]] step %[[C192]]
// SMALL:           scf.for %{{.*}} = %{{.*}} to %[[C64]] step %[[C32]]
// SMALL:             tensor.extract_slice %{{.*}} [32, 64] [1, 1] : tensor<64x64xf32> to tensor<32x64xf32>
// SMALL:             scf.for %{{.*}} = %{{.*}} to %[[C32]] step %[[C8]]
// SMALL:               scf.for %{{.*}} = %{{.*}} to %[[C64]] step %[[C16]]
// SMALL:                 scf.for %{{.*}} = %{{.*}} to %[[C192]] step %[[C1]]
// SMALL:                   vector.contract {{.*}} : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
// SMALL-NOT:     scf.for
// SMALL:         return

// LARGE-LABEL: func.func @weight(
// LARGE-DAG:     %[[C384:.*]] = arith.constant 384 : index
// LARGE-DAG:     %[[C64:.*]] = arith.constant 64 : index
// LARGE-DAG:     %[[C8:.*]] = arith.constant 8 : index
// LARGE-DAG:     %[[C16:.*]] = arith.constant 16 : index
// LARGE-DAG:     %[[C1:.*]] = arith.constant 1 : index
// LARGE:         scf.for %{{.*}} = %{{.*}} to %[[C64]] step %[[C8]]
// LARGE:           scf.for %{{.*}} = %{{.*}} to %[[C64]] step %[[C16]]
// LARGE:             scf.for %{{.*}} = %{{.*}} to %[[C384]] step %[[C1]]
// LARGE-NOT:     scf.for
// LARGE-NOT:     tensor.extract_slice
// LARGE:         return

// -----

// A long reduction, 1536 steps, 16 rows, 32 columns: Kc = 256 on SMALL
// (half its L1) and 384 on LARGE (half its L1); the rows and columns fit
// both L2s.

#x = affine_map<(b, o, i) -> (b, i)>
#w = affine_map<(b, o, i) -> (i, o)>
#y = affine_map<(b, o, i) -> (b, o)>
func.func @long_reduction(%x: tensor<16x1536xf32>, %w: tensor<1536x32xf32>,
                          %init: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x1536xf32>, tensor<1536x32xf32>)
      outs(%init : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
// SMALL-LABEL: func.func @long_reduction(
// SMALL-DAG:     %[[KC:.*]] = arith.constant 256 : index
// SMALL-DAG:     %[[K:.*]] = arith.constant 1536 : index
// SMALL:         scf.for %{{.*}} = %{{.*}} to %[[K]] step %[[KC]]
// SMALL:           scf.for
// SMALL:             scf.for
// SMALL:               scf.for %{{.*}} = %{{.*}} to %[[KC]] step %{{.*}}
// SMALL:         return

// LARGE-LABEL: func.func @long_reduction(
// LARGE-DAG:     %[[KC:.*]] = arith.constant 384 : index
// LARGE-DAG:     %[[K:.*]] = arith.constant 1536 : index
// LARGE:         scf.for %{{.*}} = %{{.*}} to %[[K]] step %[[KC]]
// LARGE:           scf.for
// LARGE:             scf.for
// LARGE:               scf.for %{{.*}} = %{{.*}} to %[[KC]] step %{{.*}}
// LARGE:         return

// -----

// Members, with the weight packed into 8 panels of 16 (as
// ens-cpu-pack-operands leaves it): the member loop goes outermost, one
// member to a block. On SMALL, the 256 steps fill half its L1, Mc = 32 rows
// (half its L2 holds 32 rows of 256 steps) and Nc = 4 panels (half its L3
// holds 64 columns of 256 steps). On LARGE, everything fits.

#x = affine_map<(m, b, o, i, l) -> (m, b, i)>
#w = affine_map<(m, b, o, i, l) -> (m, o, i, l)>
#y = affine_map<(m, b, o, i, l) -> (m, b, o, l)>
func.func @packed_members(%x: tensor<2x64x256xf32>,
                          %w: tensor<2x8x256x16xf32>,
                          %init: tensor<2x64x8x16xf32>)
    -> tensor<2x64x8x16xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "parallel", "reduction",
                          "parallel"]}
      ins(%x, %w : tensor<2x64x256xf32>, tensor<2x8x256x16xf32>)
      outs(%init : tensor<2x64x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x64x8x16xf32>
  return %r : tensor<2x64x8x16xf32>
}
// SMALL-LABEL: func.func @packed_members(
// SMALL-DAG:     %[[C1:.*]] = arith.constant 1 : index
// SMALL-DAG:     %[[C2:.*]] = arith.constant 2 : index
// SMALL-DAG:     %[[C4:.*]] = arith.constant 4 : index
// SMALL-DAG:     %[[C8:.*]] = arith.constant 8 : index
// SMALL-DAG:     %[[C32:.*]] = arith.constant 32 : index
// SMALL-DAG:     %[[C64:.*]] = arith.constant 64 : index
// SMALL:         scf.for %{{.*}} = %{{.*}} to %[[C2]] step %[[C1]]
// SMALL:           scf.for %{{.*}} = %{{.*}} to %[[C8]] step %[[C4]]
// SMALL:             scf.for %{{.*}} = %{{.*}} to %[[C64]] step %[[C32]]
// SMALL:               tensor.extract_slice %{{.*}} [1, 32, 4, 16] [1, 1, 1, 1] : tensor<2x64x8x16xf32> to tensor<1x32x4x16xf32>
// SMALL:         return

// LARGE-LABEL: func.func @packed_members(
// LARGE-NOT:     tensor.extract_slice
// LARGE:         return

// -----

// Not blocked on either machine however large: a contraction with two
// reduction loops of more than one step each.

#x = affine_map<(b, o, i, j) -> (b, i, j)>
#w = affine_map<(b, o, i, j) -> (i, j, o)>
#y = affine_map<(b, o, i, j) -> (b, o)>
func.func @two_reductions(%x: tensor<16x64x64xf32>, %w: tensor<64x64x32xf32>,
                          %init: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = linalg.generic {indexing_maps = [#x, #w, #y],
        iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<16x64x64xf32>, tensor<64x64x32xf32>)
      outs(%init : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
// SMALL-LABEL: func.func @two_reductions(
// SMALL-NOT:     tensor.extract_slice %{{.*}} [{{.*}}] [1, 1] : tensor<16x32xf32>
// SMALL:         return
// LARGE-LABEL: func.func @two_reductions(
// LARGE-NOT:     tensor.extract_slice %{{.*}} [{{.*}}] [1, 1] : tensor<16x32xf32>
// LARGE:         return
