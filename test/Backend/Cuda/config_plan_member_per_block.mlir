// The planning pass, ens-cuda-plan, for the member-per-block strategy: the
// performance model picks it for few members. The input is what `ens-opt
// --ens-front --convert-ens-to-linalg --ens-cuda-pipeline
// --ens-cuda-generalize --ens-cuda-merge-elementwise` makes of
// config_members_per_block.mlir's tiny network (32x4 -> 8 tanh -> 1) with
// 8 members, the member function left out.
//
// RUN: ens-opt %s --ens-cuda-plan=target=h100-sxm -o %t
// RUN: FileCheck %s < %t

// As config_members_per_block.mlir's FEW-AUTO says: one wave either way,
// equal estimates, and the first strategy, member-per-block, is kept: a
// block of 256 threads per member, with the member's slice of shared
// memory (h at 0, x and w1 staged at 1024 and 1536, w2 at 1024).
// CHECK: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 8 : i64, phases = [{fused_epilogue, kind = "points", {{.*}}staged = array<i64: 0, 512, 1024, 1, 128, 1536>, tile_consecutive = array<i1: false, true>, tile_loops = array<i64: 1, 2>, tile_sizes = array<i64: 4, 4>}, {kind = "points", {{.*}}staged = array<i64: 1, 32, 1024>}], shared_bytes = 1664 : i64, strategy = "member-per-block", {{.*}}threads_per_block = 256 : i64}

#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> ()>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
module {
  func.func @tiny_few(%arg0: memref<32x4xf32>, %arg1: memref<8x4x8xf32>, %arg2: memref<8x8x1xf32>, %arg3: memref<8x32x1xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg4) in (8) {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x32x8xf32>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%alloc : memref<1x32x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview = memref.subview %arg1[%arg4, 0, 0] [1, 4, 8] [1, 1, 1] : memref<8x4x8xf32> to memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview : memref<32x4xf32>, memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>) outs(%alloc : memref<1x32x8xf32>) {
      ^bb0(%in: f32, %in_3: f32, %out: f32):
        %0 = arith.mulf %in, %in_3 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
      %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<1x32x8xf32>
      linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<1x32x8xf32>) outs(%alloc_0 : memref<1x32x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = math.tanh %in : f32
        linalg.yield %0 : f32
      }
      %subview_1 = memref.subview %arg3[%arg4, 0, 0] [1, 32, 1] [1, 1, 1] : memref<8x32x1xf32> to memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview_1 : memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_2 = memref.subview %arg2[%arg4, 0, 0] [1, 8, 1] [1, 1, 1] : memref<8x8x1xf32> to memref<1x8x1xf32, strided<[8, 1, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map10, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_0, %subview_2 : memref<1x32x8xf32>, memref<1x8x1xf32, strided<[8, 1, 1], offset: ?>>) outs(%subview_1 : memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_3: f32, %out: f32):
        %0 = arith.mulf %in, %in_3 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
}

