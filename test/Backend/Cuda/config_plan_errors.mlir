// Errors of the planning pass, ens-cuda-plan: an option that names nothing
// it knows, and a hand-written config on a loop that it cannot honour. The
// loop is what the CUDA pipeline makes of config_members_per_block.mlir's
// `shared` (a member's slice of shared memory is 40000 bytes).
//
// RUN: not ens-opt %s --split-input-file --ens-cuda-plan=target=b200 -o %t.target 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ens-opt %s --split-input-file --ens-cuda-plan=strategy=fast -o %t.strategy 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not ens-opt %s --split-input-file --ens-cuda-plan=precision=f16 -o %t.precision 2>&1 | FileCheck %s --check-prefix=PRECISION
// RUN: not ens-opt %s --split-input-file --ens-cuda-plan=gemm=magma -o %t.gemm 2>&1 | FileCheck %s --check-prefix=GEMM
// RUN: ens-opt %s --split-input-file --verify-diagnostics --ens-cuda-plan -o %t.configs

// TARGET: error: unknown GPU target 'b200' (known: h100-sxm, h200, a100, a100-80gb, a6000)
// STRATEGY: error: unknown CUDA strategy 'fast' (known: auto, member-per-block, tiled, members-per-block)
// PRECISION: error: unknown GPU precision 'f16' (known: f32, tf32, 3xtf32)
// GEMM: error: unknown CUDA GEMM choice 'magma' (known: auto, generated, cublas)

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  // expected-error@+1 {{ens_cuda.kernel_config: strategy must be one of "member-per-block", "tiled", "members-per-block"}}
  func.func @shared(%arg0: memref<4096x100x100xf32>, %arg1: memref<4096x100x100xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg2) in (4096) {
      %subview = memref.subview %arg0[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x100x100xf32>
      linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%subview : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) outs(%alloc : memref<1x100x100xf32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = math.tanh %in : f32
        linalg.yield %0 : f32
      }
      %subview_0 = memref.subview %arg1[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc, %alloc : memref<1x100x100xf32>, memref<1x100x100xf32>) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    } {ens_cuda.kernel_config = {strategy = "warp-per-member"}}
    return
  }
}


// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  // expected-error@+1 {{ens_cuda.kernel_config: members_per_block must be an integer from 1 to 32}}
  func.func @shared(%arg0: memref<4096x100x100xf32>, %arg1: memref<4096x100x100xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg2) in (4096) {
      %subview = memref.subview %arg0[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x100x100xf32>
      linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%subview : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) outs(%alloc : memref<1x100x100xf32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = math.tanh %in : f32
        linalg.yield %0 : f32
      }
      %subview_0 = memref.subview %arg1[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc, %alloc : memref<1x100x100xf32>, memref<1x100x100xf32>) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    } {ens_cuda.kernel_config = {strategy = "members-per-block", members_per_block = 64 : i64}}
    return
  }
}


// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  // expected-error@+1 {{ens_cuda.kernel_config: 8 members per block need 320000 bytes of shared memory, over the 164864 a block may have}}
  func.func @shared(%arg0: memref<4096x100x100xf32>, %arg1: memref<4096x100x100xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg2) in (4096) {
      %subview = memref.subview %arg0[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x100x100xf32>
      linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%subview : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) outs(%alloc : memref<1x100x100xf32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = math.tanh %in : f32
        linalg.yield %0 : f32
      }
      %subview_0 = memref.subview %arg1[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc, %alloc : memref<1x100x100xf32>, memref<1x100x100xf32>) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    } {ens_cuda.kernel_config = {strategy = "members-per-block", members_per_block = 8 : i64}}
    return
  }
}


// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  // expected-error@+1 {{ens_cuda.kernel_config must be a dictionary}}
  func.func @shared(%arg0: memref<4096x100x100xf32>, %arg1: memref<4096x100x100xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg2) in (4096) {
      %subview = memref.subview %arg0[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x100x100xf32>
      linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%subview : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) outs(%alloc : memref<1x100x100xf32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = math.tanh %in : f32
        linalg.yield %0 : f32
      }
      %subview_0 = memref.subview %arg1[%arg2, 0, 0] [1, 100, 100] [1, 1, 1] : memref<4096x100x100xf32> to memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc, %alloc : memref<1x100x100xf32>, memref<1x100x100xf32>) outs(%subview_0 : memref<1x100x100xf32, strided<[10000, 100, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    } {ens_cuda.kernel_config = "tiled"}
    return
  }
}

