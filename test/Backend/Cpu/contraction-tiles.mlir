// The register tiles of contractions (ens-cpu-tile-and-vectorize): rows of
// the result by several vectors, chosen from the target's vector width and
// register count (16 registers of 8 f32 lanes with AVX2, 32 of 16 with
// AVX-512) so that each step of the reduction needs the fewest loads over
// the whole result, and split at what the tile leaves over, each part tiled
// on its own.
//
// RUN: ens-opt %s --split-input-file \
// RUN:   --ens-cpu-tile-and-vectorize="vector-bytes=32" -o %t.avx2.mlir
// RUN: FileCheck %s --check-prefix=AVX2 --implicit-check-not=linalg. < %t.avx2.mlir
// RUN: ens-opt %s --split-input-file \
// RUN:   --ens-cpu-tile-and-vectorize="vector-bytes=64" -o %t.avx512.mlir
// RUN: FileCheck %s --check-prefix=AVX512 --implicit-check-not=linalg. < %t.avx512.mlir

// 48x96 on AVX2 gets 4 rows by 3 vectors (12 accumulators, 3 vectors and a
// broadcast: all 16 registers), which divide the result. On AVX-512: 9
// rows by 3 vectors (27 accumulators) over 45 rows, and the 3 rows left
// over as 3 x 4 vectors, then 3 x 2.
// AVX2-LABEL: func.func @matmul
// AVX2:         scf.for %[[I:.*]] = %c0 to %c48 step %c4
// AVX2-NEXT:      scf.for %[[J:.*]] = %c0 to %c96 step %c24
// AVX2-NEXT:        scf.for %[[K:.*]] = %c0 to %c32 step %c1
// AVX2-NEXT:          vector.transfer_read %{{.*}}[%[[I]], %[[K]]]{{.*}} : tensor<48x32xf32>, vector<4x1xf32>
// AVX2-NEXT:          vector.transfer_read %{{.*}}[%[[K]], %[[J]]]{{.*}} : tensor<32x96xf32>, vector<1x24xf32>
// AVX2-NEXT:          vector.transfer_read %{{.*}}[%[[I]], %[[J]]]{{.*}} : tensor<48x96xf32>, vector<4x24xf32>
// AVX2-NEXT:          vector.contract {{.*}} : vector<4x1xf32>, vector<1x24xf32> into vector<4x24xf32>
// AVX2-NOT:       vector.contract
// AVX512-LABEL: func.func @matmul
// AVX512:         tensor.extract_slice %{{.*}}[0, 0] [45, 96] [1, 1]
// AVX512:         scf.for %{{.*}} = %c0 to %c45 step %c9
// AVX512-NEXT:      scf.for %{{.*}} = %c0 to %c96 step %c48
// AVX512-NEXT:        scf.for %{{.*}} = %c0 to %c32 step %c1
// AVX512:               vector.contract {{.*}} : vector<9x1xf32>, vector<1x48xf32> into vector<9x48xf32>
// AVX512:         tensor.extract_slice %{{.*}}[45, 0] [3, 96] [1, 1]
// AVX512:         tensor.extract_slice %{{.*}}[0, 0] [3, 64] [1, 1]
// AVX512:           vector.contract {{.*}} : vector<3x1xf32>, vector<1x64xf32> into vector<3x64xf32>
// AVX512:         tensor.extract_slice %{{.*}}[0, 64] [3, 32] [1, 1]
// AVX512:           vector.contract {{.*}} : vector<3x1xf32>, vector<1x32xf32> into vector<3x32xf32>
// AVX512-NOT:     vector.contract
func.func @matmul(%a: tensor<48x32xf32>, %b: tensor<32x96xf32>,
                  %init: tensor<48x96xf32>) -> tensor<48x96xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<48x32xf32>, tensor<32x96xf32>)
      outs(%init : tensor<48x96xf32>) -> tensor<48x96xf32>
  return %r : tensor<48x96xf32>
}

// -----

// dW = X^T * dY reads its rows contiguously from a transposed operand: the
// same tiles as X * W.
// AVX2-LABEL: func.func @transposed_a
// AVX2:         vector.transfer_read %{{.*}} : tensor<32x48xf32>, vector<1x4xf32>
// AVX2:         vector.contract {{.*}} : vector<1x4xf32>, vector<1x24xf32> into vector<4x24xf32>
// AVX512-LABEL: func.func @transposed_a
// AVX512:         vector.contract {{.*}} : vector<1x9xf32>, vector<1x48xf32> into vector<9x48xf32>
// AVX512:         vector.contract {{.*}} : vector<1x3xf32>, vector<1x64xf32> into vector<3x64xf32>
// AVX512:         vector.contract {{.*}} : vector<1x3xf32>, vector<1x32xf32> into vector<3x32xf32>
func.func @transposed_a(%a: tensor<32x48xf32>, %b: tensor<32x96xf32>,
                        %init: tensor<48x96xf32>) -> tensor<48x96xf32> {
  %r = linalg.matmul_transpose_a
      ins(%a, %b : tensor<32x48xf32>, tensor<32x96xf32>)
      outs(%init : tensor<48x96xf32>) -> tensor<48x96xf32>
  return %r : tensor<48x96xf32>
}

// -----

// dX = dY * W^T reads no operand contiguously along the result's columns.
// With 64 rows, W is first transposed into a copy (linalg.transpose, whose
// tile reads a vector's worth of W's rows and columns, 8x8 with AVX2 and
// 16x16 with AVX-512, transposed in registers), which the contraction then
// reads as X * W reads W: 6 rows by 4 vectors with AVX-512 (60 rows, then
// 4), 4 rows by 3 vectors with AVX2.
// AVX2-LABEL: func.func @transposed_b
// AVX2-SAME:    (%[[A:.*]]: tensor<64x32xf32>, %[[B:.*]]: tensor<64x32xf32>,
// AVX2:         %[[EMPTY:.*]] = tensor.empty() : tensor<32x64xf32>
// AVX2:         %[[BT:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// AVX2:           %[[TILE:.*]] = vector.transfer_read %[[B]]{{.*}} : tensor<64x32xf32>, vector<8x8xf32>
// AVX2-NEXT:      vector.transpose %[[TILE]], [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// AVX2:         vector.transfer_read %[[BT]]{{.*}} : tensor<32x64xf32>, vector<1x24xf32>
// AVX2:         vector.contract {{.*}} : vector<4x1xf32>, vector<1x24xf32> into vector<4x24xf32>
// AVX512-LABEL: func.func @transposed_b
// AVX512-SAME:    (%[[A:.*]]: tensor<64x32xf32>, %[[B:.*]]: tensor<64x32xf32>,
// AVX512:         %[[EMPTY:.*]] = tensor.empty() : tensor<32x64xf32>
// AVX512:         %[[BT:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// AVX512:           %[[TILE:.*]] = vector.transfer_read %[[B]]{{.*}} : tensor<64x32xf32>, vector<16x16xf32>
// AVX512-NEXT:      vector.transpose %[[TILE]], [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// AVX512:         scf.for %{{.*}} = %c0 to %c60 step %c6
// AVX512:             vector.transfer_read %[[A]]{{.*}} : tensor<64x32xf32>, vector<6x1xf32>
// AVX512-NEXT:        vector.transfer_read %[[BT]]{{.*}} : tensor<32x64xf32>, vector<1x64xf32>
// AVX512:             vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// AVX512:           vector.contract {{.*}} : vector<4x1xf32>, vector<1x64xf32> into vector<4x64xf32>
// AVX512-NOT:     vector.contract
func.func @transposed_b(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>,
                        %init: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul_transpose_b
      ins(%a, %b : tensor<64x32xf32>, tensor<64x32xf32>)
      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// With fewer than 16 rows a copy of W^T would cost more than it saves: the
// contraction gathers a vector of W^T an element at a time, in a tile one
// vector wide and as tall as the rows (8, at most what the registers hold
// besides the gathered vector's quarters and a broadcast).
// AVX2-LABEL: func.func @transposed_b_few_rows
// AVX2-NOT:     linalg.transpose
// AVX2-NOT:     tensor.empty
// AVX2:         vector.contract {{.*}} : vector<8x1xf32>, vector<8x1xf32> into vector<8x8xf32>
// AVX512-LABEL: func.func @transposed_b_few_rows
// AVX512-NOT:     tensor.empty
// AVX512:         scf.for %{{.*}} = %c0 to %c64 step %c16
// AVX512-NEXT:      scf.for
// AVX512-NEXT:        vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x1xf32>
// AVX512-NEXT:        vector.transfer_read {{.*}} : tensor<64x32xf32>, vector<16x1xf32>
// AVX512:             vector.contract {{.*}} : vector<8x1xf32>, vector<16x1xf32> into vector<8x16xf32>
func.func @transposed_b_few_rows(%a: tensor<8x32xf32>, %b: tensor<64x32xf32>,
                                 %init: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %r = linalg.matmul_transpose_b
      ins(%a, %b : tensor<8x32xf32>, tensor<64x32xf32>)
      outs(%init : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

// 37x53 (both prime or nearly): with AVX-512, 14 rows by 2 vectors over 28
// rows and 32 columns; then 28 rows by one vector (16 columns) and by the 5
// columns left over; then the last 9 rows by 3 vectors and by 5 columns.
// Every element of the result is in exactly one tile.
// AVX512-LABEL: func.func @remainders
// AVX512:         tensor.extract_slice %{{.*}}[0, 0] [28, 53] [1, 1]
// AVX512:         tensor.extract_slice %{{.*}}[0, 0] [28, 32] [1, 1]
// AVX512:         scf.for %{{.*}} = %c0 to %c28 step %c14
// AVX512:           vector.contract {{.*}} : vector<14x1xf32>, vector<1x32xf32> into vector<14x32xf32>
// AVX512:         tensor.extract_slice %{{.*}}[0, 32] [28, 21] [1, 1]
// AVX512:         tensor.extract_slice %{{.*}}[0, 0] [28, 16] [1, 1]
// AVX512:           vector.contract {{.*}} : vector<28x1xf32>, vector<1x16xf32> into vector<28x16xf32>
// AVX512:         tensor.extract_slice %{{.*}}[0, 16] [28, 5] [1, 1]
// AVX512:           vector.contract {{.*}} : vector<28x1xf32>, vector<1x5xf32> into vector<28x5xf32>
// AVX512:         tensor.extract_slice %{{.*}}[28, 0] [9, 53] [1, 1]
// AVX512:         tensor.extract_slice %{{.*}}[0, 0] [9, 48] [1, 1]
// AVX512:           vector.contract {{.*}} : vector<9x1xf32>, vector<1x48xf32> into vector<9x48xf32>
// AVX512:         tensor.extract_slice %{{.*}}[0, 48] [9, 5] [1, 1]
// AVX512:           vector.contract {{.*}} : vector<9x1xf32>, vector<1x5xf32> into vector<9x5xf32>
// AVX512-NOT:     vector.contract
func.func @remainders(%a: tensor<37x29xf32>, %b: tensor<29x53xf32>,
                      %init: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<37x29xf32>, tensor<29x53xf32>)
      outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
  return %r : tensor<37x53xf32>
}
