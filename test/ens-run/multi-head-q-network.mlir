// examples/multi_head_q_network.mlir, written with ens.stdlib_call, gives
// what the same program with one declaration per shape gives
// (Inputs/multi_head_q_network_declarations.mlir): its training step and
// prediction, with vmap and value_and_grad around the new form, on the
// interpreter, the CPU and cuda-emu. @inputs below makes a valid state
// from random values: Adam's second moments are squares, the step 2.
//
// DEFINE: %{params} = --input=%t/in/out0.npy --input=%t/in/out1.npy --input=%t/in/out2.npy --input=%t/in/out3.npy
// DEFINE: %{state} = %{params} --input=%t/in/out4.npy --input=%t/in/out5.npy --input=%t/in/out6.npy --input=%t/in/out7.npy --input=%t/in/out8.npy --input=%t/in/out9.npy --input=%t/in/out10.npy --input=%t/in/out11.npy
// DEFINE: %{inputs} = %{state} --input=%t/in/out12.npy --input=%t/in/out13.npy --input=%t/in/out14.npy --input=%t/in/out15.npy
// DEFINE: %{inputs_next_step} = %{state} --input=%t/in/out16.npy --input=%t/in/out13.npy --input=%t/in/out14.npy --input=%t/in/out15.npy
// DEFINE: %{expect} = --expect=%t/new/out0.npy --expect=%t/new/out1.npy --expect=%t/new/out2.npy --expect=%t/new/out3.npy --expect=%t/new/out4.npy --expect=%t/new/out5.npy --expect=%t/new/out6.npy --expect=%t/new/out7.npy --expect=%t/new/out8.npy --expect=%t/new/out9.npy --expect=%t/new/out10.npy --expect=%t/new/out11.npy --expect=%t/new/out12.npy
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=inputs --random-inputs=5 --output-dir=%t/in
// RUN: ens-run %ens_src_root/examples/multi_head_q_network.mlir --entry=train_step \
// RUN:   %{inputs} --output-dir=%t/new
// RUN: ens-run %S/Inputs/multi_head_q_network_declarations.mlir --entry=train_step \
// RUN:   %{inputs} %{expect} --rtol=0 --atol=0
// RUN: ens-run %ens_src_root/examples/multi_head_q_network.mlir --entry=train_step \
// RUN:   --backend=cpu %{inputs} %{expect} --rtol=1e-4 --atol=1e-5
// RUN: ens-run %ens_src_root/examples/multi_head_q_network.mlir --entry=train_step \
// RUN:   --backend=cuda-emu %{inputs} %{expect} --rtol=1e-4 --atol=1e-5
//
// The comparison is live: one step more changes the parameters.
// RUN: not ens-run %S/Inputs/multi_head_q_network_declarations.mlir --entry=train_step \
// RUN:   %{inputs_next_step} %{expect} 2>&1 | FileCheck %s --check-prefix=LIVE
// LIVE: error: result 0
//
// Prediction averages the heads.
// RUN: ens-run %ens_src_root/examples/multi_head_q_network.mlir --entry=predict \
// RUN:   %{params} --input=%t/in/out14.npy --output-dir=%t/predict
// RUN: ens-run %S/Inputs/multi_head_q_network_declarations.mlir --entry=predict \
// RUN:   %{params} --input=%t/in/out14.npy --expect=%t/predict/out0.npy

func.func @inputs(%w1: tensor<128x6x16xf32>, %b1: tensor<128x16xf32>,
                  %w2: tensor<128x16x4xf32>, %b2: tensor<128x4xf32>,
                  %m1: tensor<128x6x16xf32>, %m2: tensor<128x16xf32>,
                  %m3: tensor<128x16x4xf32>, %m4: tensor<128x4xf32>,
                  %x: tensor<32x6xf32>, %r: tensor<32x4xf32>)
    -> (tensor<128x6x16xf32>, tensor<128x16xf32>, tensor<128x16x4xf32>,
        tensor<128x4xf32>, tensor<128x6x16xf32>, tensor<128x16xf32>,
        tensor<128x16x4xf32>, tensor<128x4xf32>, tensor<128x6x16xf32>,
        tensor<128x16xf32>, tensor<128x16x4xf32>, tensor<128x4xf32>,
        tensor<f32>, tensor<f32>, tensor<32x6xf32>, tensor<32x4xf32>,
        tensor<f32>) {
  %v1 = ens.square %m1 : tensor<128x6x16xf32>
  %v2 = ens.square %m2 : tensor<128x16xf32>
  %v3 = ens.square %m3 : tensor<128x16x4xf32>
  %v4 = ens.square %m4 : tensor<128x4xf32>
  %step = ens.constant dense<2.0> : tensor<f32>
  %lr = ens.constant dense<3.0e-3> : tensor<f32>
  %next = ens.constant dense<3.0> : tensor<f32>
  return %w1, %b1, %w2, %b2, %m1, %m2, %m3, %m4, %v1, %v2, %v3, %v4, %step,
         %lr, %x, %r, %next
      : tensor<128x6x16xf32>, tensor<128x16xf32>, tensor<128x16x4xf32>,
        tensor<128x4xf32>, tensor<128x6x16xf32>, tensor<128x16xf32>,
        tensor<128x16x4xf32>, tensor<128x4xf32>, tensor<128x6x16xf32>,
        tensor<128x16xf32>, tensor<128x16x4xf32>, tensor<128x4xf32>,
        tensor<f32>, tensor<f32>, tensor<32x6xf32>, tensor<32x4xf32>,
        tensor<f32>
}
