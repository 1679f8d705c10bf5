// The planning pass, ens-cuda-plan, decides between a vendor GEMM step and
// generated kernels (gemm=auto, the default) for a tiled loop's matrix
// product, and records the pick on the loop as the phase's kind: the pass
// weighs the two configs' estimates on the target, and emission only
// writes what the attribute says. The input is what `ens-opt --ens-front
// --convert-ens-to-linalg --ens-cuda-pipeline --ens-cuda-generalize
// --ens-cuda-merge-elementwise` makes of 2 members' weight gradient
// x^T dy, "bi,bo->io" with b = 32 steps, i = 128 and o = 8192 (x shared,
// dy per member), the member function left out.
//
// On the H100 the model estimates the step (8.4 us) below the generated
// kernel (8.8 us; both as `ens-run --cuda-plan` prints them for the same
// function), so the phase is a vendor GEMM step; on the A100 and the H200
// the generated kernel wins (on the A100 in 4x4 register tiles, on the
// H200 in FFMA block tiles, which the full model prefers there:
// config_block_tiles.mlir). gemm=generated never
// takes the step and gemm=cublas always does, on any target.
//
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm" -o %t.h100
// RUN: FileCheck %s --check-prefix=STEP < %t.h100
// RUN: ens-opt %s --ens-cuda-plan="target=a100" -o %t.a100
// RUN: FileCheck %s --check-prefix=GENERATED < %t.a100
// RUN: ens-opt %s --ens-cuda-plan="target=h200" -o %t.h200
// RUN: FileCheck %s --check-prefix=GENERATED < %t.h200
// RUN: ens-opt %s --ens-cuda-plan="target=h100-sxm gemm=generated" -o %t.generated
// RUN: FileCheck %s --check-prefix=GENERATED < %t.generated
// RUN: ens-opt %s --ens-cuda-plan="target=a100 gemm=cublas" -o %t.cublas
// RUN: FileCheck %s --check-prefix=STEP < %t.cublas

// STEP: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 2 : i64, phases = [{{{.*}}kind = "vendor-gemm"{{.*}}}], {{.*}}strategy = "tiled"
// GENERATED: ens_cuda.kernel_config = {index_bits = 32 : i64, members = 2 : i64, phases = [{{{.*}}kind = "points"{{.*}}tile_sizes = array<i64: 4, 4>{{.*}}}], {{.*}}strategy = "tiled"

#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> ()>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d3, d1)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @grad(%arg0: memref<32x128xf32>, %arg1: memref<2x32x8192xf32>, %arg2: memref<2x128x8192xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3) in (2) {
      %subview = memref.subview %arg2[%arg3, 0, 0] [1, 128, 8192] [1, 1, 1] : memref<2x128x8192xf32> to memref<1x128x8192xf32, strided<[1048576, 8192, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x128x8192xf32, strided<[1048576, 8192, 1], offset: ?>>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      }
      %subview_0 = memref.subview %arg1[%arg3, 0, 0] [1, 32, 8192] [1, 1, 1] : memref<2x32x8192xf32> to memref<1x32x8192xf32, strided<[262144, 8192, 1], offset: ?>>
      linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %subview_0 : memref<32x128xf32>, memref<1x32x8192xf32, strided<[262144, 8192, 1], offset: ?>>) outs(%subview : memref<1x128x8192xf32, strided<[1048576, 8192, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_1: f32, %out: f32):
        %0 = arith.mulf %in, %in_1 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
    }
    return
  }
}

