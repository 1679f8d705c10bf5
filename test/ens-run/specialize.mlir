// One model for any batch size: @ensemble below has a `?` batch. ens-run
// specializes it to the types of its --input files; it must agree with the
// same program with the `?` written out (made here with sed), at batch 8 and
// at batch 3, on the interpreter and on the CPU.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/?/8/g' %s > %t/static8.mlir
// RUN: sed 's/?/3/g' %s > %t/static3.mlir
// RUN: ens-run %t/static8.mlir --entry=ensemble --random-inputs=7 --write-inputs=%t/in8 --output-dir=%t/out8
// RUN: ens-run %t/static3.mlir --entry=ensemble --random-inputs=8 --write-inputs=%t/in3 --output-dir=%t/out3
// RUN: ens-run %s --entry=ensemble --input=%t/in8/in0.npy --input=%t/in8/in1.npy --input=%t/in8/in2.npy --input=%t/in8/in3.npy --expect=%t/out8/out0.npy --expect=%t/out8/out1.npy --expect=%t/out8/out2.npy
// RUN: ens-run %s --entry=ensemble --input=%t/in3/in0.npy --input=%t/in3/in1.npy --input=%t/in3/in2.npy --input=%t/in3/in3.npy --expect=%t/out3/out0.npy --expect=%t/out3/out1.npy --expect=%t/out3/out2.npy
// RUN: ens-run %s --entry=ensemble --backend=cpu --rtol=1e-4 --atol=1e-5 --input=%t/in3/in0.npy --input=%t/in3/in1.npy --input=%t/in3/in2.npy --input=%t/in3/in3.npy --expect=%t/out3/out0.npy --expect=%t/out3/out1.npy --expect=%t/out3/out2.npy
//
// The comparison is live: batch 3 is not batch 8.
// RUN: not ens-run %s --entry=ensemble --input=%t/in3/in0.npy --input=%t/in3/in1.npy --input=%t/in3/in2.npy --input=%t/in3/in3.npy --expect=%t/out8/out0.npy --expect=%t/out8/out1.npy --expect=%t/out8/out2.npy 2>&1 | FileCheck %s --check-prefix=OTHER-BATCH
// OTHER-BATCH: ens-run: error: result 0 is tensor<3x3x2xf32> but {{.*}}out0.npy holds tensor<3x8x2xf32>
//
// An input whose static size contradicts the model is named.
// RUN: not ens-run %s --entry=ensemble --input=%t/in3/in1.npy --input=%t/in3/in1.npy --input=%t/in3/in2.npy --input=%t/in3/in3.npy 2>&1 | FileCheck %s --check-prefix=CONTRADICT
// CONTRADICT: error: 'func.func' op cannot specialize argument 0 of @ensemble ('tensor<?x4xf32>') to 'tensor<3x4x8xf32>'
// CONTRADICT: ens-run: error: cannot specialize @ensemble to the types of its arguments

func.func @member(%x: tensor<?x4xf32>, %w1: tensor<4x8xf32>, %b1: tensor<8xf32>,
                  %w2: tensor<8x2xf32>) -> tensor<?x2xf32> {
  %h = ens.matmul %x, %w1 : tensor<?x4xf32>, tensor<4x8xf32> -> tensor<?x8xf32>
  %b = ens.broadcast_in_dim %b1 {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<?x8xf32>
  %a = ens.add %h, %b : tensor<?x8xf32>
  %t = ens.tanh %a : tensor<?x8xf32>
  %y = ens.einsum %t, %w2 {spec = "bh,ho->bo"}
      : tensor<?x8xf32>, tensor<8x2xf32> -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}

func.func @loss(%x: tensor<?x4xf32>, %w1: tensor<4x8xf32>, %b1: tensor<8xf32>,
                %w2: tensor<8x2xf32>) -> tensor<f32> {
  %y = call @member(%x, %w1, %b1, %w2)
      : (tensor<?x4xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8x2xf32>)
      -> tensor<?x2xf32>
  %s = ens.square %y : tensor<?x2xf32>
  %l = ens.reduce_mean %s {dims = array<i64: 0, 1>}
      : tensor<?x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func @step(%x: tensor<?x4xf32>, %w1: tensor<4x8xf32>, %b1: tensor<8xf32>,
                %w2: tensor<8x2xf32>) -> (tensor<f32>, tensor<4x8xf32>) {
  %l, %g = ens.value_and_grad @loss(%x, %w1, %b1, %w2) {wrt = array<i64: 1>}
      : (tensor<?x4xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8x2xf32>)
      -> (tensor<f32>, tensor<4x8xf32>)
  return %l, %g : tensor<f32>, tensor<4x8xf32>
}

func.func @ensemble(%x: tensor<?x4xf32>, %w1: tensor<3x4x8xf32>,
                    %b1: tensor<3x8xf32>, %w2: tensor<3x8x2xf32>)
    -> (tensor<3x?x2xf32>, tensor<3xf32>, tensor<3x4x8xf32>) {
  %y = ens.vmap @member(%x, %w1, %b1, %w2)
      {in_axes = array<i64: -1, 0, 0, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<?x4xf32>, tensor<3x4x8xf32>, tensor<3x8xf32>, tensor<3x8x2xf32>)
      -> tensor<3x?x2xf32>
  %l, %g = ens.vmap @step(%x, %w1, %b1, %w2)
      {in_axes = array<i64: -1, 0, 0, 0>, out_axes = array<i64: 0, 0>,
       size = 3 : i64}
      : (tensor<?x4xf32>, tensor<3x4x8xf32>, tensor<3x8xf32>, tensor<3x8x2xf32>)
      -> (tensor<3xf32>, tensor<3x4x8xf32>)
  return %y, %l, %g : tensor<3x?x2xf32>, tensor<3xf32>, tensor<3x4x8xf32>
}
