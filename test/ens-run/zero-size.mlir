// Zero-size dimensions work on every backend and agree with the interpreter:
// operands, results and intermediates with a 0 dimension, contractions over
// K = 0 (zeros), reductions over no elements (their identity), broadcasts,
// reshapes, slices to nothing, concatenations with empty parts, and an
// ensemble whose members contract over K = 0 (which crashed in linalg tiling
// from ens-fuse-members, on cuda-emu).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=matmul_k0 --random-inputs=1 --output-dir=%t/matmul_k0
// RUN: ens-run %s --entry=matmul_k0 --random-inputs=1 --backend=cpu --expect=%t/matmul_k0/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=matmul_k0 --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/matmul_k0/out0.npy || exit 1; done
// RUN: ens-run %s --entry=matmul_m0 --random-inputs=1 --output-dir=%t/matmul_m0
// RUN: ens-run %s --entry=matmul_m0 --random-inputs=1 --backend=cpu --expect=%t/matmul_m0/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=matmul_m0 --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/matmul_m0/out0.npy || exit 1; done
// RUN: ens-run %s --entry=einsum_k0 --random-inputs=1 --output-dir=%t/einsum_k0
// RUN: ens-run %s --entry=einsum_k0 --random-inputs=1 --backend=cpu --expect=%t/einsum_k0/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=einsum_k0 --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/einsum_k0/out0.npy || exit 1; done
// RUN: ens-run %s --entry=elementwise --random-inputs=1 --output-dir=%t/elementwise
// RUN: ens-run %s --entry=elementwise --random-inputs=1 --backend=cpu --expect=%t/elementwise/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=elementwise --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/elementwise/out0.npy || exit 1; done
// RUN: ens-run %s --entry=reductions --random-inputs=1 --output-dir=%t/reductions
// RUN: ens-run %s --entry=reductions --random-inputs=1 --backend=cpu --expect=%t/reductions/out0.npy --expect=%t/reductions/out1.npy --expect=%t/reductions/out2.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=reductions --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/reductions/out0.npy --expect=%t/reductions/out1.npy --expect=%t/reductions/out2.npy || exit 1; done
// RUN: ens-run %s --entry=reduce_to_empty --random-inputs=1 --output-dir=%t/reduce_to_empty
// RUN: ens-run %s --entry=reduce_to_empty --random-inputs=1 --backend=cpu --expect=%t/reduce_to_empty/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=reduce_to_empty --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/reduce_to_empty/out0.npy || exit 1; done
// RUN: ens-run %s --entry=broadcasts --random-inputs=1 --output-dir=%t/broadcasts
// RUN: ens-run %s --entry=broadcasts --random-inputs=1 --backend=cpu --expect=%t/broadcasts/out0.npy --expect=%t/broadcasts/out1.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=broadcasts --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/broadcasts/out0.npy --expect=%t/broadcasts/out1.npy || exit 1; done
// RUN: ens-run %s --entry=reshape --random-inputs=1 --output-dir=%t/reshape
// RUN: ens-run %s --entry=reshape --random-inputs=1 --backend=cpu --expect=%t/reshape/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=reshape --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/reshape/out0.npy || exit 1; done
// RUN: ens-run %s --entry=slice --random-inputs=1 --output-dir=%t/slice
// RUN: ens-run %s --entry=slice --random-inputs=1 --backend=cpu --expect=%t/slice/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=slice --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/slice/out0.npy || exit 1; done
// RUN: ens-run %s --entry=concat --random-inputs=1 --output-dir=%t/concat
// RUN: ens-run %s --entry=concat --random-inputs=1 --backend=cpu --expect=%t/concat/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=concat --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/concat/out0.npy || exit 1; done
// RUN: ens-run %s --entry=softmax --random-inputs=1 --output-dir=%t/softmax
// RUN: ens-run %s --entry=softmax --random-inputs=1 --backend=cpu --expect=%t/softmax/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=softmax --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/softmax/out0.npy || exit 1; done
// RUN: ens-run %s --entry=vmap_k0 --random-inputs=1 --output-dir=%t/vmap_k0
// RUN: ens-run %s --entry=vmap_k0 --random-inputs=1 --backend=cpu --expect=%t/vmap_k0/out0.npy
// RUN: for s in auto member-per-block tiled; do ens-run %s --entry=vmap_k0 --random-inputs=1 --backend=cuda-emu --cuda-strategy=$s --expect=%t/vmap_k0/out0.npy || exit 1; done
//
// The interpreter's results are the identities themselves.
// RUN: ens-run %s --entry=matmul_k0 --random-inputs=1 --backend=cpu | FileCheck %s --check-prefix=MATMUL
// MATMUL: out0 = tensor<3x5xf32> {{\[\[}}0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
// RUN: ens-run %s --entry=reductions --random-inputs=1 --backend=cuda-emu | FileCheck %s --check-prefix=REDUCE
// REDUCE: out0 = tensor<3xf32> [0, 0, 0]
// REDUCE: out1 = tensor<3xf32> [-inf, -inf, -inf]
// REDUCE: out2 = tensor<f32> 0
// RUN: ens-run %s --entry=vmap_k0 --random-inputs=1 --backend=cuda-emu | FileCheck %s --check-prefix=VMAP
// VMAP: out0 = tensor<3x2x4xf32> {{\[(\[\[0, 0, 0, 0\], \[0, 0, 0, 0\]\](, )?){3}\]$}}

func.func @matmul_k0(%a: tensor<3x0xf32>, %b: tensor<0x5xf32>) -> tensor<3x5xf32> {
  %c = ens.matmul %a, %b : tensor<3x0xf32>, tensor<0x5xf32> -> tensor<3x5xf32>
  return %c : tensor<3x5xf32>
}
func.func @matmul_m0(%a: tensor<0x4xf32>, %b: tensor<4x5xf32>) -> tensor<0x5xf32> {
  %c = ens.matmul %a, %b : tensor<0x4xf32>, tensor<4x5xf32> -> tensor<0x5xf32>
  return %c : tensor<0x5xf32>
}
func.func @einsum_k0(%a: tensor<3x2x0xf32>, %b: tensor<3x0x4xf32>) -> tensor<3x2x4xf32> {
  %c = ens.einsum %a, %b {spec = "mik,mkj->mij"} : tensor<3x2x0xf32>, tensor<3x0x4xf32> -> tensor<3x2x4xf32>
  %d = ens.tanh %c : tensor<3x2x4xf32>
  %e = ens.add %d, %c : tensor<3x2x4xf32>
  return %e : tensor<3x2x4xf32>
}
func.func @elementwise(%a: tensor<3x0xf32>, %b: tensor<3x0xf32>) -> tensor<3x0xf32> {
  %c = ens.mul %a, %b : tensor<3x0xf32>
  %d = ens.tanh %c : tensor<3x0xf32>
  return %d : tensor<3x0xf32>
}
func.func @reductions(%a: tensor<3x0xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<f32>) {
  %s = ens.reduce_sum %a {dims = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  %m = ens.reduce_max %a {dims = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  %t = ens.reduce_sum %a {dims = array<i64: 0, 1>} : tensor<3x0xf32> -> tensor<f32>
  return %s, %m, %t : tensor<3xf32>, tensor<3xf32>, tensor<f32>
}
func.func @reduce_to_empty(%a: tensor<0x4xf32>) -> tensor<0xf32> {
  %s = ens.reduce_sum %a {dims = array<i64: 1>} : tensor<0x4xf32> -> tensor<0xf32>
  return %s : tensor<0xf32>
}
func.func @broadcasts(%a: tensor<0xf32>, %b: tensor<f32>) -> (tensor<3x0xf32>, tensor<0x5xf32>) {
  %x = ens.broadcast_in_dim %a {dims = array<i64: 1>} : tensor<0xf32> -> tensor<3x0xf32>
  %y = ens.broadcast_in_dim %b {dims = array<i64>} : tensor<f32> -> tensor<0x5xf32>
  return %x, %y : tensor<3x0xf32>, tensor<0x5xf32>
}
func.func @reshape(%a: tensor<0x6xf32>) -> tensor<3x0x2xf32> {
  %r = ens.reshape %a : tensor<0x6xf32> -> tensor<3x0x2xf32>
  return %r : tensor<3x0x2xf32>
}
func.func @slice(%a: tensor<4x3xf32>) -> tensor<0x3xf32> {
  %r = ens.slice %a {start = array<i64: 2, 0>, limit = array<i64: 2, 3>, stride = array<i64: 1, 1>} : tensor<4x3xf32> -> tensor<0x3xf32>
  return %r : tensor<0x3xf32>
}
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %r = ens.concat %b, %a, %b {dim = 0 : i64} : tensor<0x3xf32>, tensor<2x3xf32>, tensor<0x3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @softmax(%a: tensor<3x0xf32>) -> tensor<3x0xf32> {
  %r = ens.softmax %a {dim = 1 : i64} : tensor<3x0xf32>
  return %r : tensor<3x0xf32>
}
func.func @member(%w: tensor<0x4xf32>, %x: tensor<2x0xf32>) -> tensor<2x4xf32> {
  %y = ens.matmul %x, %w : tensor<2x0xf32>, tensor<0x4xf32> -> tensor<2x4xf32>
  %z = ens.tanh %y : tensor<2x4xf32>
  return %z : tensor<2x4xf32>
}
func.func @vmap_k0(%w: tensor<3x0x4xf32>, %x: tensor<2x0xf32>) -> tensor<3x2x4xf32> {
  %r = ens.vmap @member(%w, %x) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 3 : i64} : (tensor<3x0x4xf32>, tensor<2x0xf32>) -> tensor<3x2x4xf32>
  return %r : tensor<3x2x4xf32>
}
