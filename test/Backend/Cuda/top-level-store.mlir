// An ens.scatter_add of a single update lowers to an scf.for of one
// iteration, which canonicalization folds away: what is left is a
// memref.store at the top level of the function, with the memref.loads and
// scalar ops it uses. The CUDA backend failed with "cannot compile
// 'memref.store' yet" (found by BatchPropertyTest's random chains, seed
// 1090, once ens.conv joined them: @chain is that program, reduced). Now the
// store is a one-thread kernel that reads the loads itself; the interpreter
// is the oracle.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=chain --random-inputs=1 --output-dir=%t/chain
// RUN: ens-run %s --entry=chain --random-inputs=1 --backend=cuda-emu --expect=%t/chain/out0.npy
// RUN: ens-run %s --entry=top --random-inputs=1 --output-dir=%t/top
// RUN: ens-run %s --entry=top --random-inputs=1 --backend=cuda-emu --expect=%t/top/out0.npy
// RUN: ens-run %s --entry=top --random-inputs=1 --backend=cuda-emu --cuda-dump=%t/top
// RUN: FileCheck %s < %t/top/top.cu
//
// @top's store reads the update and the index (clamped) in its kernel.
// CHECK:      __global__ void k{{[0-9]+}}_serial(
// CHECK-NEXT:   typedef long long ens_index;
// CHECK-NEXT:   ENS_ALIGNED16(b{{[0-9]+}});
// CHECK-NEXT:   // One thread runs the loop nest in order.
// CHECK-NEXT:   if (blockIdx.x != 0 || threadIdx.x != 0) return;
// CHECK-DAG:    float {{v[0-9]+}} = b0[0];
// CHECK-DAG:    int {{v[0-9]+}} = b1[0];
// CHECK:        b{{[0-9]+}}[0 + {{v[0-9]+}} * 1] = {{v[0-9]+}};

// The member's scatter_add reads only constants: it is shared by the
// members, a store of 0.75 at index 2 (3, clamped) before the loop.
func.func @member(%p0: tensor<f32>) -> tensor<3xf32> {
  %v0 = ens.constant dense<0.75> : tensor<f32>
  %v3 = ens.constant dense<3> : tensor<i32>
  %v4 = ens.scatter_add %v0, %v3 {axis = 0 : i64}
      : tensor<f32>, tensor<i32> -> tensor<3xf32>
  return %v4 : tensor<3xf32>
}
func.func @chain(%a0: tensor<4xf32>) -> tensor<4x3xf32> {
  %r = ens.vmap @member(%a0) {in_axes = array<i64: 0>,
                              out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<4xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// The update and the index are arguments: the store's kernel loads both.
func.func @top(%p: tensor<f32>, %i: tensor<i32>) -> tensor<3xf32> {
  %v = ens.scatter_add %p, %i {axis = 0 : i64}
      : tensor<f32>, tensor<i32> -> tensor<3xf32>
  %w = ens.tanh %v : tensor<3xf32>
  return %w : tensor<3xf32>
}
