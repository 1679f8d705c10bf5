// A batched broadcast whose batch moves to meet another operand's is
// broadcast again in the new order (ens-batch, Batching.cpp's
// moveBatchAxis), with dims out of order (1, 0, 2): the CPU backend and
// the batched program on the interpreter agree with the interpreter's
// definition of ens.vmap, a loop over members.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=bias_moves --random-inputs=3 --output-dir=%t/loop
// RUN: ens-opt --ens-batch %s | ens-run - --entry=bias_moves --random-inputs=3 --rtol=0 --atol=0 --expect=%t/loop/out0.npy
// RUN: ens-run %s --entry=bias_moves --random-inputs=3 --backend=cpu --rtol=0 --atol=0 --expect=%t/loop/out0.npy
// RUN: ens-opt --ens-batch %s | FileCheck %s
// CHECK: ens.broadcast_in_dim %arg1 {dims = array<i64: 1, 0, 2>} : tensor<5x4x3xf32> -> tensor<4x5x3x2xf32>

func.func @bias(%x: tensor<4x3x2xf32>, %p: tensor<4x3xf32>) -> tensor<4x3x2xf32> {
  %b = ens.broadcast_in_dim %p {dims = array<i64: 0, 1>} : tensor<4x3xf32> -> tensor<4x3x2xf32>
  %y = ens.add %x, %b : tensor<4x3x2xf32>
  return %y : tensor<4x3x2xf32>
}

func.func @bias_moves(%x: tensor<4x5x3x2xf32>, %p: tensor<5x4x3xf32>) -> tensor<4x5x3x2xf32> {
  %y = ens.vmap @bias(%x, %p) {in_axes = array<i64: 1, 0>, out_axes = array<i64: 1>, size = 5 : i64} : (tensor<4x5x3x2xf32>, tensor<5x4x3xf32>) -> tensor<4x5x3x2xf32>
  return %y : tensor<4x5x3x2xf32>
}
