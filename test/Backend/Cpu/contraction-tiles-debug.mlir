// With ENS_ENABLE_ASSERTIONS, -debug-only=ens-cpu-tile-and-vectorize prints
// the register tile chosen for each contraction, where the op is split at
// what the tile leaves over (each part is then planned again), and which
// operand is transposed first.
// REQUIRES: asserts
//
// RUN: ens-opt %s --ens-cpu-tile-and-vectorize="vector-bytes=64" --mlir-disable-threading -debug-only=ens-cpu-tile-and-vectorize -o %t.mlir 2> %t.log
// RUN: FileCheck %s < %t.log

// CHECK: [ens-cpu-tile-and-vectorize] contraction at loc({{.*}}contraction-tiles-debug.mlir":[[@LINE+5]]:{{.*}}): 6 rows x 4 vectors of 16 lanes, contiguous, 32 registers; split at 252 along loop 0
// CHECK-NEXT: [ens-cpu-tile-and-vectorize] contraction at {{.*}}: 6 rows x 4 vectors of 16 lanes, contiguous, 32 registers{{$}}
// CHECK-NEXT: [ens-cpu-tile-and-vectorize] contraction at {{.*}}: 4 rows x 4 vectors of 16 lanes, contiguous, 32 registers{{$}}
func.func @forward(%x: tensor<256x64xf32>, %w: tensor<64x128xf32>,
                   %init: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %r = linalg.matmul ins(%x, %w : tensor<256x64xf32>, tensor<64x128xf32>)
      outs(%init : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// CHECK-NEXT: [ens-cpu-tile-and-vectorize] contraction at loc({{.*}}contraction-tiles-debug.mlir":[[@LINE+6]]:{{.*}}): operand 1 transposed for the vector loop
// CHECK-NEXT: [ens-cpu-tile-and-vectorize] contraction at {{.*}}: 6 rows x 4 vectors of 16 lanes, contiguous, 32 registers; split at 60 along loop 0
// CHECK-NEXT: [ens-cpu-tile-and-vectorize] contraction at {{.*}}: 6 rows x 4 vectors of 16 lanes, contiguous, 32 registers{{$}}
// CHECK-NEXT: [ens-cpu-tile-and-vectorize] contraction at {{.*}}: 4 rows x 4 vectors of 16 lanes, contiguous, 32 registers{{$}}
func.func @input_gradient(%dy: tensor<64x32xf32>, %w: tensor<64x32xf32>,
                          %init: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul_transpose_b ins(%dy, %w : tensor<64x32xf32>, tensor<64x32xf32>)
      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// CHECK-NEXT: [ens-cpu-tile-and-vectorize] contraction at loc({{.*}}contraction-tiles-debug.mlir":[[@LINE+3]]:{{.*}}): 8 rows x 1 vectors of 16 lanes, gathered, 32 registers{{$}}
func.func @input_gradient_few_rows(%dy: tensor<8x32xf32>, %w: tensor<64x32xf32>,
                                   %init: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %r = linalg.matmul_transpose_b ins(%dy, %w : tensor<8x32xf32>, tensor<64x32xf32>)
      outs(%init : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
