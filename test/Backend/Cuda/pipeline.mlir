// The registered pipelines, run as the CUDA backend runs them before it
// emits code: ens-front, convert-ens-to-linalg and ens-cuda-pipeline fuse
// the batched ops of an ensemble, however little work they do, into one
// loop over the members (one kernel, a block per member), fuse the
// elementwise ops into one linalg.generic, and bufferize with the result
// written in place into a buffer the caller provides.
//
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg --ens-cuda-pipeline \
// RUN:   | FileCheck %s --implicit-check-not=tensor. \
// RUN:       --implicit-check-not=memref.alloc --implicit-check-not=memref.copy

// CHECK-LABEL: func.func @ensemble
// CHECK-SAME:    (%[[X:.*]]: memref<64x128xf32>, %[[W:.*]]: memref<4x128xf32>, %[[OUT:.*]]: memref<4x64x128xf32>)
// CHECK-NEXT:    scf.forall (%[[M:.*]]) in (4) {
// CHECK-NEXT:      %[[WM:.*]] = memref.subview %[[W]][%[[M]], 0] [1, 128] [1, 1]
// CHECK-NEXT:      %[[YM:.*]] = memref.subview %[[OUT]][%[[M]], 0, 0] [1, 64, 128] [1, 1, 1]
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[X]], %[[WM]] : {{.*}}) outs(%[[YM]] : {{.*}})
// CHECK:             arith.mulf
// CHECK-NEXT:        math.tanh
// CHECK-NEXT:        linalg.yield
// CHECK:         return

func.func @member(%x: tensor<64x128xf32>, %w: tensor<128xf32>)
    -> tensor<64x128xf32> {
  %b = ens.broadcast_in_dim %w {dims = array<i64: 1>}
      : tensor<128xf32> -> tensor<64x128xf32>
  %p = ens.mul %x, %b : tensor<64x128xf32>
  %t = ens.tanh %p : tensor<64x128xf32>
  return %t : tensor<64x128xf32>
}

func.func @ensemble(%x: tensor<64x128xf32>, %w: tensor<4x128xf32>)
    -> tensor<4x64x128xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: -1, 0>,
                                 out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<64x128xf32>, tensor<4x128xf32>) -> tensor<4x64x128xf32>
  return %y : tensor<4x64x128xf32>
}
