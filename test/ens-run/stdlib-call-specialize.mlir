// ens.stdlib_call with a `?` batch: ens-run specializes @step to the types
// of its inputs, inferring each call's results from the library's
// signature, and it computes what the same program with the `?` written
// out computes (made here with sed), on the interpreter and the CPU.
//
// DEFINE: %{in} = --input=%t/in/in0.npy --input=%t/in/in1.npy --input=%t/in/in2.npy --input=%t/in/in3.npy
// DEFINE: %{out} = --expect=%t/out/out0.npy --expect=%t/out/out1.npy --expect=%t/out/out2.npy
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/?/5/g' %s > %t/static.mlir
// RUN: ens-run %t/static.mlir --entry=step --random-inputs=3 --write-inputs=%t/in --output-dir=%t/out
// RUN: ens-run %s --entry=step %{in} %{out}
// RUN: ens-run %s --entry=step --backend=cpu --rtol=1e-4 --atol=1e-5 %{in} %{out}
//
// Left unspecialized, the `?` is refused where the call is.
// RUN: not ens-opt %s --ens-stdlib -o %t/unspecialized.mlir 2>&1 | FileCheck %s
// CHECK: error: 'ens.stdlib_call' op calls 'mse' at '(tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<f32>', which has a `?` size

func.func @loss(%w: tensor<4x3xf32>, %x: tensor<?x4xf32>, %t: tensor<?x3xf32>)
    -> tensor<f32> {
  %y = ens.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %l = ens.stdlib_call "mse"(%y, %t) : tensor<?x3xf32>
  return %l : tensor<f32>
}

func.func @step(%w: tensor<4x3xf32>, %m: tensor<4x3xf32>, %x: tensor<?x4xf32>,
                %t: tensor<?x3xf32>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>) {
  %l, %g = ens.value_and_grad @loss(%w, %x, %t) {wrt = array<i64: 0>}
      : (tensor<4x3xf32>, tensor<?x4xf32>, tensor<?x3xf32>)
      -> (tensor<f32>, tensor<4x3xf32>)
  %lr = ens.constant dense<0.1> : tensor<f32>
  %mom = ens.constant dense<0.9> : tensor<f32>
  %wd = ens.constant dense<0.0> : tensor<f32>
  %p, %v = ens.stdlib_call "sgd_momentum"(%w, %g, %m, %lr, %mom, %wd)
      : tensor<4x3xf32>
  return %p, %v, %l : tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>
}
