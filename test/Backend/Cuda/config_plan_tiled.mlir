// The planning pass, ens-cuda-plan, for the tiled strategy on three
// targets: split-K depends on the blocks that fill the target, two per SM.
// The input is what `ens-opt --ens-front --convert-ens-to-linalg
// --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise`
// makes of 8 members each summing 65536 floats, the member function left
// out.
//
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm strategy=tiled" -o %t.h100
// RUN: FileCheck %s --check-prefix=H100 < %t.h100
// RUN: ens-opt %s --ens-cuda-plan="target=h200 strategy=tiled" -o %t.h200
// RUN: FileCheck %s --check-prefix=H100 < %t.h200
// RUN: ens-opt %s --ens-cuda-plan="target=a100 strategy=tiled" -o %t.a100
// RUN: FileCheck %s --check-prefix=A100 < %t.a100

// The sum is a block reduction (8 x 1 elements, far fewer than the fill
// blocks' threads), a block per member: 8 blocks. Its 65536 steps split
// into min(ceil(fill / 8), 65536 / 1024) chunks, a block each: on an H100
// and an H200 (132 SMs, 264 fill blocks) ceil(264 / 8) = 33, on an A100
// (108 SMs, 216) ceil(216 / 8) = 27. The split pays on each.
// H100: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 8 : i64, phases = [{blocks_per_member = 33 : i64, chunks = 33 : i64, combiner = "arith.addf", first_block = 0 : i64, kind = "block-reduction", launch = 0 : i64, {{.*}}threads = 256 : i64}], shared_bytes = 0 : i64, strategy = "tiled", temporaries = [], threads_per_block = 256 : i64}
// A100: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 8 : i64, phases = [{blocks_per_member = 27 : i64, chunks = 27 : i64, combiner = "arith.addf", first_block = 0 : i64, kind = "block-reduction", launch = 0 : i64, {{.*}}threads = 256 : i64}], shared_bytes = 0 : i64, strategy = "tiled", temporaries = [], threads_per_block = 256 : i64}

#map = affine_map<() -> ()>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0) -> ()>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @sum(%arg0: memref<8x65536xf32>, %arg1: memref<8xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg2) in (8) {
      %subview = memref.subview %arg1[%arg2] [1] [1] : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel"]} ins(%cst : f32) outs(%subview : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg0[%arg2, 0] [1, 65536] [1, 1] : memref<8x65536xf32> to memref<1x65536xf32, strided<[65536, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "reduction"]} ins(%subview_0 : memref<1x65536xf32, strided<[65536, 1], offset: ?>>) outs(%subview : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        %0 = arith.addf %out, %in : f32
        linalg.yield %0 : f32
      }
    }
    return
  }
}

