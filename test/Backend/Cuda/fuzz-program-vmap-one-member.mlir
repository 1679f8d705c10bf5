// Found by the program fuzz target (test/fuzz/ProgramFuzzer.cpp), reduced:
// programs vmapped over one member that the interpreter and cpu ran, but
// cuda-emu failed with "the CUDA backend cannot find the buffer of a memref
// defined by 'memref.alloc'": a contraction's fused epilogue wrote a buffer
// whose memref.alloc came after the contraction, before the backend had
// defined it.
// @f returns a transposed argument next to a contraction of a transposed
// contraction; @g is the gradient of a logsumexp over a tensor with a unit
// dimension.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=f_vmap --random-inputs=1 --output-dir=%t
// RUN: ens-run %s --entry=f_vmap --random-inputs=1 --backend=cpu --rtol=1e-5 --atol=1e-6 --expect=%t/out0.npy --expect=%t/out1.npy
// RUN: ens-run %s --entry=f_vmap --random-inputs=1 --backend=cuda-emu --rtol=1e-5 --atol=1e-6 --expect=%t/out0.npy --expect=%t/out1.npy
// RUN: ens-run %s --entry=g_vmap --random-inputs=1 --output-dir=%t/g
// RUN: ens-run %s --entry=g_vmap --random-inputs=1 --backend=cpu --rtol=1e-5 --atol=1e-6 --expect=%t/g/out0.npy --expect=%t/g/out1.npy
// RUN: ens-run %s --entry=g_vmap --random-inputs=1 --backend=cuda-emu --rtol=1e-5 --atol=1e-6 --expect=%t/g/out0.npy --expect=%t/g/out1.npy

func.func @f(%arg0: tensor<1x2xf32>) -> (tensor<3x3xf32>, tensor<2x1xf32>) {
  %0 = ens.constant dense<[[-1.41215789, -0.748340368, -1.70411122],
                           [1.65620244, -0.134393424, 0.560011566]]>
      : tensor<2x3xf32>
  %1 = ens.matmul %arg0, %0
      : tensor<1x2xf32>, tensor<2x3xf32> -> tensor<1x3xf32>
  %2 = ens.transpose %1 {permutation = array<i64: 1, 0>}
      : tensor<1x3xf32> -> tensor<3x1xf32>
  %3 = ens.transpose %arg0 {permutation = array<i64: 1, 0>}
      : tensor<1x2xf32> -> tensor<2x1xf32>
  %4 = ens.constant dense<[[-1.97716486, 0.798698306, -1.23675251]]>
      : tensor<1x3xf32>
  %5 = ens.matmul %2, %4
      : tensor<3x1xf32>, tensor<1x3xf32> -> tensor<3x3xf32>
  return %5, %3 : tensor<3x3xf32>, tensor<2x1xf32>
}

func.func @f_vmap(%x: tensor<1x1x2xf32>)
    -> (tensor<1x3x3xf32>, tensor<1x2x1xf32>) {
  %0:2 = ens.vmap @f(%x) {in_axes = array<i64: 0>,
                          out_axes = array<i64: 0, 0>, size = 1 : i64}
      : (tensor<1x1x2xf32>) -> (tensor<1x3x3xf32>, tensor<1x2x1xf32>)
  return %0#0, %0#1 : tensor<1x3x3xf32>, tensor<1x2x1xf32>
}

func.func @g(%x: tensor<3x2x1xf32>) -> tensor<f32> {
  %0 = ens.logsumexp %x {dims = array<i64: 1>}
      : tensor<3x2x1xf32> -> tensor<3x1xf32>
  %1 = ens.reduce_sum %0 {dims = array<i64: 0, 1>}
      : tensor<3x1xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

func.func @g_value_and_grad(%x: tensor<3x2x1xf32>)
    -> (tensor<f32>, tensor<3x2x1xf32>) {
  %0:2 = ens.value_and_grad @g(%x) {wrt = array<i64: 0>}
      : (tensor<3x2x1xf32>) -> (tensor<f32>, tensor<3x2x1xf32>)
  return %0#0, %0#1 : tensor<f32>, tensor<3x2x1xf32>
}

func.func @g_vmap(%x: tensor<1x3x2x1xf32>)
    -> (tensor<1xf32>, tensor<1x3x2x1xf32>) {
  %0:2 = ens.vmap @g_value_and_grad(%x) {in_axes = array<i64: 0>,
                                         out_axes = array<i64: 0, 0>,
                                         size = 1 : i64}
      : (tensor<1x3x2x1xf32>) -> (tensor<1xf32>, tensor<1x3x2x1xf32>)
  return %0#0, %0#1 : tensor<1xf32>, tensor<1x3x2x1xf32>
}
