// The planning pass, ens-cuda-plan, for the members-per-block strategy on
// two targets: the members per block depend on the target's SMs. The input
// is what `ens-opt --ens-front --convert-ens-to-linalg --ens-cuda-pipeline
// --ens-cuda-generalize --ens-cuda-merge-elementwise` makes of
// config_members_per_block.mlir's tiny network (32x4 -> 8 tanh -> 1) with
// 240 members, the member function left out.
//
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm strategy=members-per-block" -o %t.h100
// RUN: FileCheck %s --check-prefix=H100 < %t.h100
// RUN: ens-opt %s --ens-cuda-plan="target=a100 strategy=members-per-block" -o %t.a100
// RUN: FileCheck %s --check-prefix=A100 < %t.a100
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm" -o %t.auto
// RUN: FileCheck %s --check-prefix=HAND < %t.auto

// Per member: h (32x8, 1024 bytes) in shared memory at 0; phase 0 stages
// x (512 bytes) at 1024 and w1 (128 bytes) at 1536, phase 1 w2 (32 bytes)
// at 1024: a slice of 1664 bytes, a warp per member. Members per block are
// tried only where the blocks are at least the target's SMs: on an H100
// (132 SMs) 240 / 2 = 120 blocks are too few, so 1; on an A100 (108 SMs)
// 120 blocks are enough, 240 / 4 = 60 are not, so 2 or 1, each one wave of
// the same work per SM: equal estimates, and the first, 2, is kept.
// H100: module attributes {ens_cuda.target = "h100-sxm"}
// H100: scf.forall
// H100: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 240 : i64, members_per_block = 1 : i64, phases = [{fused_epilogue, kind = "points", {{.*}}staged = array<i64: 0, 512, 1024, 1, 128, 1536>, tile_consecutive = array<i1: false, true>, tile_loops = array<i64: 1, 2>, tile_sizes = array<i64: 4, 4>}, {kind = "points", {{.*}}staged = array<i64: 1, 32, 1024>}], shared_bytes = 1664 : i64, shared_bytes_per_member = 1664 : i64, strategy = "members-per-block", temporaries = [{bytes = 0 : i64, location = 0 : i64, space = "registers", type = "memref<1x32x8xf32>"}, {bytes = 1024 : i64, location = 0 : i64, space = "shared", type = "memref<1x32x8xf32>"}], threads_per_block = 32 : i64, threads_per_member = 32 : i64}
// A100: module attributes {ens_cuda.target = "a100"}
// A100: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 240 : i64, members_per_block = 2 : i64, {{.*}}shared_bytes = 3328 : i64, shared_bytes_per_member = 1664 : i64, strategy = "members-per-block", {{.*}}threads_per_block = 64 : i64, threads_per_member = 32 : i64}

// A hand-written config is honoured: the second loop says 4 members per
// block (60 blocks, fewer than any target's SMs, which the planner would
// not try), and the pass keeps them, with 4 slices of shared memory and 4
// warps; the strategy option's auto does not override the loop's strategy.
// HAND: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 240 : i64, members_per_block = 4 : i64, {{.*}}shared_bytes = 6656 : i64, {{.*}}strategy = "members-per-block", {{.*}}threads_per_block = 128 : i64

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
  func.func @tiny_many(%arg0: memref<32x4xf32>, %arg1: memref<240x4x8xf32>, %arg2: memref<240x8x1xf32>, %arg3: memref<240x32x1xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg4) in (240) {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x32x8xf32>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%alloc : memref<1x32x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview = memref.subview %arg1[%arg4, 0, 0] [1, 4, 8] [1, 1, 1] : memref<240x4x8xf32> to memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>
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
      %subview_1 = memref.subview %arg3[%arg4, 0, 0] [1, 32, 1] [1, 1, 1] : memref<240x32x1xf32> to memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview_1 : memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_2 = memref.subview %arg2[%arg4, 0, 0] [1, 8, 1] [1, 1, 1] : memref<240x8x1xf32> to memref<1x8x1xf32, strided<[8, 1, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map10, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_0, %subview_2 : memref<1x32x8xf32>, memref<1x8x1xf32, strided<[8, 1, 1], offset: ?>>) outs(%subview_1 : memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_3: f32, %out: f32):
        %0 = arith.mulf %in, %in_3 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
  func.func @tiny_many_hand(%arg0: memref<32x4xf32>, %arg1: memref<240x4x8xf32>, %arg2: memref<240x8x1xf32>, %arg3: memref<240x32x1xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg4) in (240) {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x32x8xf32>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%alloc : memref<1x32x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview = memref.subview %arg1[%arg4, 0, 0] [1, 4, 8] [1, 1, 1] : memref<240x4x8xf32> to memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>
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
      %subview_1 = memref.subview %arg3[%arg4, 0, 0] [1, 32, 1] [1, 1, 1] : memref<240x32x1xf32> to memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview_1 : memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_2 = memref.subview %arg2[%arg4, 0, 0] [1, 8, 1] [1, 1, 1] : memref<240x8x1xf32> to memref<1x8x1xf32, strided<[8, 1, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map10, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_0, %subview_2 : memref<1x32x8xf32>, memref<1x8x1xf32, strided<[8, 1, 1], offset: ?>>) outs(%subview_1 : memref<1x32x1xf32, strided<[32, 1, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_3: f32, %out: f32):
        %0 = arith.mulf %in, %in_3 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    } {ens_cuda.kernel_config = {strategy = "members-per-block", members_per_block = 4 : i64}}
    return
  }
}

