// Which staged operands of block tiles are copied 16 bytes at a time
// (planBlockTileCopies, TilePlanning.cpp; `copy_words`, a's then b's): only
// where getAccessWidth proves every copy's first word 16-byte aligned.
// The functions are the CUDA pipeline's input (after --ens-cuda-generalize)
// of a member-batched x w, w a 2x40x128 slice of a buffer whose rows are
// 136 floats (a multiple of 4), read through four maps:
// - @aligned, (m, k, j) -> (m, k, j): every copy aligned, 16 bytes;
// - @plus_one, (m, k, j + 1): each copy's first word a float past a
//   multiple of 4, so 4-byte copies (a 16-byte copy would fault on a GPU);
// - @plus_four, (m, k, j + 4): aligned again, 16 bytes;
// - @modulo, (m, k, j mod 128): not linear in the loops, so no stride
//   proves anything, 4 bytes.
// x's rows (40 floats) are aligned in each: 16 bytes.
//
// RUN: ens-opt %s "--ens-cuda-plan=target=h100-sxm strategy=tiled gemm=generated precision=tf32" | FileCheck %s
// CHECK-LABEL: func.func @aligned(
// CHECK: copy_words = array<i64: 4, 4>
// CHECK-LABEL: func.func @plus_one(
// CHECK: copy_words = array<i64: 4, 1>
// CHECK-LABEL: func.func @plus_four(
// CHECK: copy_words = array<i64: 4, 4>
// CHECK-LABEL: func.func @modulo(
// CHECK: copy_words = array<i64: 4, 1>

#map5 = affine_map<(d0, d1, d2) -> ()>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#aligned = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#plus_one = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2 + 1)>
#plus_four = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2 + 4)>
#modulo = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2 mod 128)>
module {
  func.func @aligned(%arg0: memref<64x40xf32>, %arg1: memref<2x40x136xf32>, %arg2: memref<2x64x128xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (2) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 64, 128] [1, 1, 1] : memref<2x64x128xf32> to memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 40, 128] [1, 1, 1] : memref<2x40x136xf32> to memref<1x40x128xf32, strided<[5440, 136, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #aligned, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<64x40xf32>, memref<1x40x128xf32, strided<[5440, 136, 1], offset: ?>>) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
  func.func @plus_one(%arg0: memref<64x40xf32>, %arg1: memref<2x40x136xf32>, %arg2: memref<2x64x128xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (2) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 64, 128] [1, 1, 1] : memref<2x64x128xf32> to memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 40, 129] [1, 1, 1] : memref<2x40x136xf32> to memref<1x40x129xf32, strided<[5440, 136, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #plus_one, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<64x40xf32>, memref<1x40x129xf32, strided<[5440, 136, 1], offset: ?>>) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
  func.func @plus_four(%arg0: memref<64x40xf32>, %arg1: memref<2x40x136xf32>, %arg2: memref<2x64x128xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (2) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 64, 128] [1, 1, 1] : memref<2x64x128xf32> to memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 40, 132] [1, 1, 1] : memref<2x40x136xf32> to memref<1x40x132xf32, strided<[5440, 136, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #plus_four, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<64x40xf32>, memref<1x40x132xf32, strided<[5440, 136, 1], offset: ?>>) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
  func.func @modulo(%arg0: memref<64x40xf32>, %arg1: memref<2x40x136xf32>, %arg2: memref<2x64x128xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (2) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 64, 128] [1, 1, 1] : memref<2x64x128xf32> to memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 40, 128] [1, 1, 1] : memref<2x40x136xf32> to memref<1x40x128xf32, strided<[5440, 136, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #modulo, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<64x40xf32>, memref<1x40x128xf32, strided<[5440, 136, 1], offset: ?>>) outs(%subview : memref<1x64x128xf32, strided<[8192, 128, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
}
