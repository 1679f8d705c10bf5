// The CPU backend runs every example and agrees with the interpreter. The
// tolerance allows for float32 accumulation in compiled code (the
// interpreter sums in double): sums of many terms that nearly cancel differ
// by about 1e-6 absolute.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %ens_src_root/examples/mlp.mlir --entry=loss --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/w1.npy --input=%ens_src_root/examples/data/b1.npy --input=%ens_src_root/examples/data/w2.npy --input=%ens_src_root/examples/data/b2.npy --input=%ens_src_root/examples/data/targets.npy --output-dir=%t/mlp
// RUN: ens-run %ens_src_root/examples/mlp.mlir --entry=loss --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/w1.npy --input=%ens_src_root/examples/data/b1.npy --input=%ens_src_root/examples/data/w2.npy --input=%ens_src_root/examples/data/b2.npy --input=%ens_src_root/examples/data/targets.npy --backend=cpu --expect=%t/mlp/out0.npy
// RUN: ens-run %ens_src_root/examples/tensordot.mlir --input=%ens_src_root/examples/data/td_x.npy --input=%ens_src_root/examples/data/td_w.npy --input=%ens_src_root/examples/data/td_b.npy --backend=cpu | FileCheck %s --check-prefix=TENSORDOT
// TENSORDOT: out0 = tensor<1xf32> [2.25]
// RUN: ens-run %ens_src_root/examples/ensemble_tensordot.mlir --entry=predict_batch --random-inputs=4 --output-dir=%t/tensordot
// RUN: ens-run %ens_src_root/examples/ensemble_tensordot.mlir --entry=predict_batch --random-inputs=4 --backend=cpu --expect=%t/tensordot/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --output-dir=%t/forward
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --backend=cpu --atol=1e-5 --expect=%t/forward/out0.npy
// The same on one thread and on two.
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --backend=cpu --cpu-threads=1 --atol=1e-5 --expect=%t/forward/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --backend=cpu --cpu-threads=2 --atol=1e-5 --expect=%t/forward/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_per_member --random-inputs=3 --output-dir=%t/per-member
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_per_member --random-inputs=3 --backend=cpu --expect=%t/per-member/out0.npy
//
// Initialisation is bit-identical: Threefry draws the same bits everywhere.
// RUN: ens-run %ens_src_root/examples/ensemble_init.mlir --entry=init --input=%ens_src_root/examples/data/key.npy --output-dir=%t/init
// RUN: ens-run %ens_src_root/examples/ensemble_init.mlir --entry=init --input=%ens_src_root/examples/data/key.npy --backend=cpu --rtol=0 --atol=0 --expect=%t/init/out0.npy --expect=%t/init/out1.npy --expect=%t/init/out2.npy --expect=%t/init/out3.npy --expect=%t/init/out4.npy --expect=%t/init/out5.npy --expect=%t/init/out6.npy --expect=%t/init/out7.npy --expect=%t/init/out8.npy --expect=%t/init/out9.npy --expect=%t/init/out10.npy --expect=%t/init/out11.npy
//
// The 128-member training step (value_and_grad, Adam, vmap). Adam's first
// step moves each parameter by lr * g / (|g| + eps): for a gradient near
// eps that depends on rounding, by up to lr (at most 0.01 here), so the
// parameters are compared to 2e-4; a wrong gradient would be off by ~lr.
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --output-dir=%t/step
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --backend=cpu --atol=2e-4 --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy --expect=%t/step/out3.npy --expect=%t/step/out4.npy --expect=%t/step/out5.npy --expect=%t/step/out6.npy --expect=%t/step/out7.npy --expect=%t/step/out8.npy --expect=%t/step/out9.npy --expect=%t/step/out10.npy --expect=%t/step/out11.npy --expect=%t/step/out12.npy
// The same on one thread, where loops run in order and each loop's temporaries
// are allocated once, before it (test/Backend/Cpu/loop-temporaries.mlir).
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --backend=cpu --cpu-threads=1 --atol=2e-4 --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy --expect=%t/step/out3.npy --expect=%t/step/out4.npy --expect=%t/step/out5.npy --expect=%t/step/out6.npy --expect=%t/step/out7.npy --expect=%t/step/out8.npy --expect=%t/step/out9.npy --expect=%t/step/out10.npy --expect=%t/step/out11.npy --expect=%t/step/out12.npy
//
// What the CPU backend cannot run yet says so.
// RUN: not ens-run %s --entry=half --random-inputs=1 --backend=cpu 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: ens-run: error: the CPU backend does not support f16 or bf16 arguments yet

func.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  %y = ens.neg %x : tensor<4xf16>
  return %y : tensor<4xf16>
}
