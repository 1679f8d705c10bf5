// ens-cuda-merge-elementwise on config_fusion.mlir's @chain as the CUDA
// pipeline leaves it (`ens-opt --ens-front --convert-ens-to-linalg
// --ens-cuda-pipeline --ens-cuda-generalize`, the member function left
// out): the copy of the error (%alloc_1) into the result's slice reads it
// at the points the op before writes it, so it merges into that op, which
// then writes three outputs. The slice's view is defined after that op and
// moves up above it, so the merged op's operands are defined where it is
// (the IR verifies, which ens-opt checks after the pass); the sum reads
// another output, through a reshape, and stays.
//
// RUN: ens-opt %s --ens-cuda-merge-elementwise -o %t
// RUN: FileCheck %s < %t

// CHECK-LABEL: func.func @chain
// CHECK:         scf.forall
// CHECK:           %[[ERR:alloc_1]] = memref.alloc() {{.*}} : memref<1x16x12xf32>
// CHECK-NEXT:      %[[SQ:.*]] = memref.alloc() {{.*}} : memref<1x16x12xf32>
// CHECK-NEXT:      %[[OUT:.*]] = memref.subview %arg4[%arg5, 0, 0] [1, 16, 12] [1, 1, 1]
// CHECK-NEXT:      linalg.generic {{.*}} outs(%[[ERR]], %[[SQ]], %[[OUT]] :
// CHECK:           memref.collapse_shape %[[SQ]]
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NOT:       linalg.generic
// CHECK:         return

#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<() -> ()>
#map6 = affine_map<(d0) -> (d0)>
#map7 = affine_map<(d0) -> ()>
#map8 = affine_map<(d0, d1, d2) -> ()>
#map9 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map12 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map13 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map14 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @chain(%arg0: memref<16x8xf32>, %arg1: memref<6x8x12xf32>, %arg2: memref<16x12xf32>, %arg3: memref<6xf32>, %arg4: memref<6x16x12xf32>) {
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    scf.forall (%arg5) in (6) {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x16x12xf32>
      linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_0 : f32) outs(%alloc : memref<1x16x12xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview = memref.subview %arg1[%arg5, 0, 0] [1, 8, 12] [1, 1, 1] : memref<6x8x12xf32> to memref<1x8x12xf32, strided<[96, 12, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map10, #map11, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview : memref<16x8xf32>, memref<1x8x12xf32, strided<[96, 12, 1], offset: ?>>) outs(%alloc : memref<1x16x12xf32>) {
      ^bb0(%in: f32, %in_5: f32, %out: f32):
        %0 = arith.mulf %in, %in_5 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
      %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<1x16x12xf32>
      %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<1x16x12xf32>
      linalg.generic {indexing_maps = [#map9, #map13, #map9, #map9], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %arg2 : memref<1x16x12xf32>, memref<16x12xf32>) outs(%alloc_1, %alloc_2 : memref<1x16x12xf32>, memref<1x16x12xf32>) {
      ^bb0(%in: f32, %in_5: f32, %out: f32, %out_6: f32):
        %0 = arith.subf %in, %in_5 : f32
        %1 = arith.mulf %0, %0 : f32
        linalg.yield %0, %1 : f32, f32
      }
      %collapse_shape = memref.collapse_shape %alloc_2 [[0], [1, 2]] : memref<1x16x12xf32> into memref<1x192xf32>
      %subview_3 = memref.subview %arg3[%arg5] [1] [1] : memref<6xf32> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #map6], iterator_types = ["parallel"]} ins(%cst_0 : f32) outs(%subview_3 : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      linalg.generic {indexing_maps = [#map1, #map14], iterator_types = ["parallel", "reduction"]} ins(%collapse_shape : memref<1x192xf32>) outs(%subview_3 : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        %0 = arith.addf %out, %in : f32
        linalg.yield %0 : f32
      }
      %subview_4 = memref.subview %arg4[%arg5, 0, 0] [1, 16, 12] [1, 1, 1] : memref<6x16x12xf32> to memref<1x16x12xf32, strided<[192, 12, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map9, #map9], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1 : memref<1x16x12xf32>) outs(%subview_4 : memref<1x16x12xf32, strided<[192, 12, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        %0 = arith.mulf %in, %cst : f32
        linalg.yield %0 : f32
      }
    }
    return
  }
}

