// The planning pass, ens-cuda-plan, for f32 contractions with the tiled
// strategy (issue #31): a multiply-add of two f32 operands with one
// reduction loop may stage block tiles of both operands through shared
// memory and compute them in FFMA (lib/Backend/Cuda/BlockTileEmitter.cpp,
// FfmaTileEmitter.cpp), and settleBlockTiles (LoopChoices.cpp) keeps them
// only where the full model (PhaseCounts.cpp, BlockTileCounts.cpp)
// estimates them faster than register tiles. A warp tile is 32x32 (4 x 8
// threads of 8x4 points), 16 steps are staged at a time, and the stages of
// the cp.async pipeline are as many, up to 3, as fit for two blocks in an
// SM's shared memory (planMmaStages): a stage is 4 bytes x 16 steps x
// (rows + 4 + columns + 4), 12800 bytes for 256 threads' 64x128 block
// tile, 8704 for 128 threads' 64x64 and 6656 for 64 threads' 32x64, so
// three on every target below.
//
// @wide: 16 members each multiplying a shared 256x512 x by its own
// 512x512 w (wide_relu's first layer): block tiles on every target. (On
// an A100 the model once preferred register tiles of 64 threads, whose
// 128-bit loads it counted at a wavefront each; at the four that an
// LDS.128 or LDG.E.128 takes, one per quarter of the warp, block tiles
// win there too.) @wide_transposed: the same with w read transposed (the
// backward pass's dY . W^T: w's elements are consecutive along the
// reduction), whose copies then walk the steps; block tiles too.
// @split_k: 2 members of 64x2048 x 2048x640: 2 x 64 x 640 points in block
// tiles of at most 64x128 give 20 blocks, under a sixth of an H100's or an
// A100's SMs, for 2048 steps each; there the model prefers register tiles
// split into chunks over the whole GPU, so no block tiles. (On the RTX
// A6000, whose SMs are fewer and slower, it keeps block tiles: not
// checked.) (gemm=generated: the
// vendor GEMM would otherwise take @split_k on an H100.)
// The input is what `ens-opt --ens-front --convert-ens-to-linalg
// --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise`
// makes of such programs, the member functions left out.
//
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm strategy=tiled precision=f32 gemm=generated" -o %t.h100
// RUN: FileCheck %s --check-prefixes=BLOCK,SPLIT < %t.h100
// RUN: ens-opt %s --ens-cuda-plan="target=a100 strategy=tiled gemm=generated" -o %t.a100
// RUN: FileCheck %s --check-prefixes=A100,SPLIT < %t.a100
// RUN: ens-opt %s --ens-cuda-plan="target=a6000 strategy=tiled gemm=generated" -o %t.a6000
// RUN: FileCheck %s --check-prefix=BLOCK < %t.a6000
//
// BLOCK-LABEL: func.func @wide(
// BLOCK: kind = "points", {{.*}}precision = "f32", stages = 3 : i64, steps_staged = 16 : i64, threads = {{256|128|64}} : i64, tile_loops = array<i64: 1, 2>, {{.*}}warp_tile = array<i64: 32, 32>
// BLOCK-LABEL: func.func @wide_transposed(
// BLOCK: kind = "points", {{.*}}precision = "f32", stages = 3 : i64, steps_staged = 16 : i64, threads = {{256|128|64}} : i64, tile_loops = array<i64: 1, 2>, {{.*}}warp_tile = array<i64: 32, 32>
// A100-LABEL: func.func @wide(
// A100: kind = "points", {{.*}}precision = "f32", stages = 3 : i64, steps_staged = 16 : i64, threads = {{256|128|64}} : i64, tile_loops = array<i64: 1, 2>, {{.*}}warp_tile = array<i64: 32, 32>
// A100-LABEL: func.func @wide_transposed(
// A100: kind = "points", {{.*}}precision = "f32", stages = 3 : i64, steps_staged = 16 : i64, threads = {{256|128|64}} : i64, tile_loops = array<i64: 1, 2>, {{.*}}warp_tile = array<i64: 32, 32>
// SPLIT-LABEL: func.func @split_k(
// SPLIT: chunks = {{[0-9]+}} : i64, {{.*}}kind = "points"
// SPLIT-NOT: warp_tile
// SPLIT-SAME: tile_sizes = array<i64: 4, 4>
// SPLIT-NOT: warp_tile

#map5 = affine_map<(d0, d1, d2) -> ()>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#mapT = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
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
  func.func @wide_transposed(%arg0: memref<256x512xf32>, %arg1: memref<16x512x512xf32>, %arg2: memref<16x256x512xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (16) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 256, 512] [1, 1, 1] : memref<16x256x512xf32> to memref<1x256x512xf32, strided<[131072, 512, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x256x512xf32, strided<[131072, 512, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 512, 512] [1, 1, 1] : memref<16x512x512xf32> to memref<1x512x512xf32, strided<[262144, 512, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #mapT, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<256x512xf32>, memref<1x512x512xf32, strided<[262144, 512, 1], offset: ?>>) outs(%subview : memref<1x256x512xf32, strided<[131072, 512, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
  func.func @split_k(%arg0: memref<64x2048xf32>, %arg1: memref<2x2048x640xf32>, %arg2: memref<2x64x640xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (2) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 64, 640] [1, 1, 1] : memref<2x64x640xf32> to memref<1x64x640xf32, strided<[40960, 640, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x64x640xf32, strided<[40960, 640, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 2048, 640] [1, 1, 1] : memref<2x2048x640xf32> to memref<1x2048x640xf32, strided<[1310720, 640, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<64x2048xf32>, memref<1x2048x640xf32, strided<[1310720, 640, 1], offset: ?>>) outs(%subview : memref<1x64x640xf32, strided<[40960, 640, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
}
