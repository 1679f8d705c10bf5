// The CUDA backend's kernels, emulated on the host, agree with the
// interpreter; every kernel also compiles with NVRTC for sm_90 when this
// build has NVRTC.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %ens_src_root/examples/mlp.mlir --entry=loss --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/w1.npy --input=%ens_src_root/examples/data/b1.npy --input=%ens_src_root/examples/data/w2.npy --input=%ens_src_root/examples/data/b2.npy --input=%ens_src_root/examples/data/targets.npy --output-dir=%t/mlp
// RUN: ens-run %ens_src_root/examples/mlp.mlir --entry=loss --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/w1.npy --input=%ens_src_root/examples/data/b1.npy --input=%ens_src_root/examples/data/w2.npy --input=%ens_src_root/examples/data/b2.npy --input=%ens_src_root/examples/data/targets.npy --backend=cuda-emu --atol=1e-5 --expect=%t/mlp/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_tensordot.mlir --entry=predict_batch --random-inputs=4 --output-dir=%t/tensordot
// RUN: ens-run %ens_src_root/examples/ensemble_tensordot.mlir --entry=predict_batch --random-inputs=4 --backend=cuda-emu --atol=1e-5 --expect=%t/tensordot/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --output-dir=%t/forward
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --backend=cuda-emu --atol=1e-5 --expect=%t/forward/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_shared --random-inputs=2 --output-dir=%t/shared
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_shared --random-inputs=2 --backend=cuda-emu --atol=1e-5 --expect=%t/shared/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_per_member --random-inputs=3 --output-dir=%t/per-member
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_per_member --random-inputs=3 --backend=cuda-emu --atol=1e-5 --expect=%t/per-member/out0.npy
// RUN: ens-run %ens_src_root/examples/tensordot.mlir --input=%ens_src_root/examples/data/td_x.npy --input=%ens_src_root/examples/data/td_w.npy --input=%ens_src_root/examples/data/td_b.npy --backend=cuda-emu | FileCheck %s --check-prefix=TENSORDOT
// TENSORDOT: out0 = tensor<1xf32> [2.25]
//
// Threefry initialisation is bit-identical; the training step agrees as on
// the CPU backend (see test/ens-run/examples-cpu.mlir for the tolerance).
// RUN: ens-run %ens_src_root/examples/ensemble_init.mlir --entry=init --input=%ens_src_root/examples/data/key.npy --output-dir=%t/init
// RUN: ens-run %ens_src_root/examples/ensemble_init.mlir --entry=init --input=%ens_src_root/examples/data/key.npy --backend=cuda-emu --rtol=0 --atol=0 --expect=%t/init/out0.npy --expect=%t/init/out1.npy --expect=%t/init/out2.npy --expect=%t/init/out3.npy --expect=%t/init/out4.npy --expect=%t/init/out5.npy --expect=%t/init/out6.npy --expect=%t/init/out7.npy --expect=%t/init/out8.npy --expect=%t/init/out9.npy --expect=%t/init/out10.npy --expect=%t/init/out11.npy
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --output-dir=%t/step
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --backend=cuda-emu --atol=2e-4 --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy --expect=%t/step/out3.npy --expect=%t/step/out4.npy --expect=%t/step/out5.npy --expect=%t/step/out6.npy --expect=%t/step/out7.npy --expect=%t/step/out8.npy --expect=%t/step/out9.npy --expect=%t/step/out10.npy --expect=%t/step/out11.npy --expect=%t/step/out12.npy
