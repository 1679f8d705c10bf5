// The planning pass, ens-cuda-plan, for a contraction on TF32 tensor cores
// (precision=tf32) with the tiled strategy on three targets: the stages of
// the cp.async pipeline (planMmaStages in lib/Backend/Cuda/TilePlanning.cpp)
// are as many, up to 3, as fit for two blocks in an SM's shared memory
// (shared memory per SM / 2 - 1 KiB reserved per block, and at most the
// opt-in per block), for the threads the model gives the launch. A stage is
// 26624 bytes with 256 threads, 18432 with 128 and 13824 with 64 (see
// config_tensor_cores.mlir). An H100 (228 KiB per SM: 115712 bytes a block)
// and an A100 (164 KiB: 82944) take 3 stages with any of them; an RTX A6000
// (100 KiB: 50176) takes 1 with 256 threads, 2 with 128 and 3 with 64. The
// check takes any of the threads with its stages.
// The input is what `ens-opt --ens-front --convert-ens-to-linalg
// --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise`
// makes of 16 members each multiplying a shared 256x512 x by its own
// 512x512 w, the member function left out.
//
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm strategy=tiled precision=tf32" -o %t.h100
// RUN: FileCheck %s --check-prefix=THREE < %t.h100
// RUN: ens-opt %s --ens-cuda-plan="target=a100 strategy=tiled precision=tf32" -o %t.a100
// RUN: FileCheck %s --check-prefix=THREE < %t.a100
// RUN: ens-opt %s --ens-cuda-plan="target=a6000 strategy=tiled precision=tf32" -o %t.a6000
// RUN: FileCheck %s --check-prefix=A6000 < %t.a6000
// With f32 there are no tensor cores: FFMA block tiles, with their own
// stages (config_block_tiles.mlir).
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm strategy=tiled precision=f32" -o %t.f32
// RUN: FileCheck %s --check-prefix=F32 < %t.f32

// THREE: kind = "points", {{.*}}precision = "tf32", stages = 3 : i64, steps_staged = 32 : i64, threads = {{256|128|64}} : i64, tile_loops = array<i64: 1, 2>, {{.*}}warp_tile = array<i64: 32, 32>
// A6000: kind = "points", {{.*}}precision = "tf32", {{stages = 1 : i64, steps_staged = 32 : i64, threads = 256|stages = 2 : i64, steps_staged = 32 : i64, threads = 128|stages = 3 : i64, steps_staged = 32 : i64, threads = 64}} : i64,
// F32:     kind = "points", {{.*}}precision = "f32", stages = 3 : i64, steps_staged = 16 : i64

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
module {
  func.func @wide(%arg0: memref<256x512xf32>, %arg1: memref<16x512x512xf32>, %arg2: memref<16x256x512xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (16) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 256, 512] [1, 1, 1] : memref<16x256x512xf32> to memref<1x256x512xf32, strided<[131072, 512, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x256x512xf32, strided<[131072, 512, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 512, 512] [1, 1, 1] : memref<16x512x512xf32> to memref<1x512x512xf32, strided<[262144, 512, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<256x512xf32>, memref<1x512x512xf32, strided<[262144, 512, 1], offset: ?>>) outs(%subview : memref<1x256x512xf32, strided<[131072, 512, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
}

