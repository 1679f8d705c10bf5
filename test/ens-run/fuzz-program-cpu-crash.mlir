// Found by the program fuzz target (test/fuzz/ProgramFuzzer.cpp): a vmapped
// gradient through select and compare. ens-run's cpu backend dies with
// SIGSEGV in TileAndVectorizePass, inside MLIR's isContractionBody (a read
// near address 0), in the Release and in the ASan build. It no longer
// does, and agrees with the interpreter.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=f_value_and_grad_vmap --random-inputs=1 --output-dir=%t
// RUN: ens-run %s --entry=f_value_and_grad_vmap --random-inputs=1 --backend=cpu --rtol=1e-5 --atol=1e-6 --expect=%t/out0.npy --expect=%t/out1.npy

func.func @f(%arg0: tensor<2xf32>) -> tensor<f32> {
  %0 = ens.abs %arg0 : tensor<2xf32>
  %1 = ens.sqrt %0 : tensor<2xf32>
  %2 = ens.square %arg0 : tensor<2xf32>
  %3 = ens.reduce_max %1 {dims = array<i64: 0>} : tensor<2xf32> -> tensor<f32>
  %4 = ens.constant dense<[-0.899854719, 0.625005066]> : tensor<2xf32>
  %5 = ens.cmp le, %arg0, %2 : tensor<2xf32>
  %6 = ens.select %5, %arg0, %4 : tensor<2xi1>, tensor<2xf32>
  %7 = ens.broadcast_in_dim %6 {dims = array<i64: 0>}
      : tensor<2xf32> -> tensor<2x2xf32>
  %8 = ens.cmp ge, %7, %7 : tensor<2x2xf32>
  %9 = ens.select %8, %7, %7 : tensor<2x2xi1>, tensor<2x2xf32>
  %10 = ens.reduce_sum %9 {dims = array<i64: 0, 1>}
      : tensor<2x2xf32> -> tensor<f32>
  return %10 : tensor<f32>
}

func.func @f_value_and_grad(%arg0: tensor<2xf32>)
    -> (tensor<f32>, tensor<2xf32>) {
  %0:2 = ens.value_and_grad @f(%arg0) {wrt = array<i64: 0>}
      : (tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<f32>, tensor<2xf32>
}

func.func @f_value_and_grad_vmap(%arg0: tensor<3x2xf32>)
    -> (tensor<3xf32>, tensor<3x2xf32>) {
  %0:2 = ens.vmap @f_value_and_grad(%arg0) {in_axes = array<i64: 0>,
                                            out_axes = array<i64: 0, 0>,
                                            size = 3 : i64}
      : (tensor<3x2xf32>) -> (tensor<3xf32>, tensor<3x2xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3x2xf32>
}
