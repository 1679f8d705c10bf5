// The planning pass, ens-cuda-plan, for a contraction split into chunks
// (split-K) with the tiled strategy: the thread of each tile's last chunk
// to arrive adds the chunks (`finish_last`), in the same launch, or a
// second kernel does. The input is what `ens-opt --ens-front
// --convert-ens-to-linalg --ens-cuda-pipeline --ens-cuda-generalize
// --ens-cuda-merge-elementwise` makes of tiled-boundaries.mlir's @split_k
// (2 members, relu(x @ w + b), 64x2048 @ 2048x640), the member function
// left out.
//
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm strategy=tiled" | FileCheck %s --check-prefix=LAST
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm strategy=tiled" --cuda-finish-last=false | FileCheck %s --check-prefix=SECOND

// 2560 tiles of 4x4 a member in 15 chunks. Finished by the last chunks,
// the phase is one kernel, and its launch may take fewer threads a block
// (settleThreads): 128, 300 blocks a member. With a second kernel the
// phase keeps the plan's 256 threads: 150 blocks a member.
// LAST: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 2 : i64, phases = [{blocks_per_member = 300 : i64, chunks = 15 : i64, finish_last, first_block = 0 : i64, fused_epilogue, kind = "points", launch = 0 : i64, ops = "(no ens op)", threads = 128 : i64,
// SECOND: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 2 : i64, phases = [{blocks_per_member = 150 : i64, chunks = 15 : i64, first_block = 0 : i64, fused_epilogue, kind = "points", launch = 0 : i64, ops = "(no ens op)", threads = 256 : i64,

#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d1)>
#map6 = affine_map<(d0, d1, d2) -> ()>
#map7 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @split_k(%arg0: memref<64x2048xf32>, %arg1: memref<2x2048x640xf32>, %arg2: memref<2x640xf32>, %arg3: memref<2x64x640xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg4) in (2) {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x64x640xf32>
      linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%alloc : memref<1x64x640xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview = memref.subview %arg1[%arg4, 0, 0] [1, 2048, 640] [1, 1, 1] : memref<2x2048x640xf32> to memref<1x2048x640xf32, strided<[1310720, 640, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map8, #map9, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview : memref<64x2048xf32>, memref<1x2048x640xf32, strided<[1310720, 640, 1], offset: ?>>) outs(%alloc : memref<1x64x640xf32>) {
      ^bb0(%in: f32, %in_2: f32, %out: f32):
        %0 = arith.mulf %in, %in_2 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
      %subview_0 = memref.subview %arg2[%arg4, 0] [1, 640] [1, 1] : memref<2x640xf32> to memref<1x640xf32, strided<[640, 1], offset: ?>>
      %subview_1 = memref.subview %arg3[%arg4, 0, 0] [1, 64, 640] [1, 1, 1] : memref<2x64x640xf32> to memref<1x64x640xf32, strided<[40960, 640, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #map2, #map7], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %subview_0 : memref<1x64x640xf32>, memref<1x640xf32, strided<[640, 1], offset: ?>>) outs(%subview_1 : memref<1x64x640xf32, strided<[40960, 640, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_2: f32, %out: f32):
        %0 = arith.addf %in, %in_2 : f32
        %1 = arith.maximumf %0, %cst : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
}

