// Every example, batched by the passes, agrees with the interpreter's
// definition of ens.vmap (a loop over members), on the same inputs.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --output-dir=%t/forward
// RUN: ens-opt --ens-batch %ens_src_root/examples/ensemble_mlp.mlir | ens-run - --entry=ensemble_forward --random-inputs=1 --expect=%t/forward/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_shared --random-inputs=2 --output-dir=%t/shared
// RUN: ens-opt --ens-batch %ens_src_root/examples/ensemble_mlp.mlir | ens-run - --entry=ensemble_loss_shared --random-inputs=2 --expect=%t/shared/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_loss_per_member --random-inputs=3 --output-dir=%t/per-member
// RUN: ens-opt --ens-batch %ens_src_root/examples/ensemble_mlp.mlir | ens-run - --entry=ensemble_loss_per_member --random-inputs=3 --expect=%t/per-member/out0.npy
// RUN: ens-run %ens_src_root/examples/ensemble_tensordot.mlir --entry=predict_batch --random-inputs=4 --output-dir=%t/tensordot
// RUN: ens-opt --ens-batch %ens_src_root/examples/ensemble_tensordot.mlir | ens-run - --entry=predict_batch --random-inputs=4 --expect=%t/tensordot/out0.npy
//
// Initialisation draws differ per member (randomness "different"); the
// batched program folds the member index into the key exactly as the loop.
// RUN: ens-run %ens_src_root/examples/ensemble_init.mlir --entry=init --input=%ens_src_root/examples/data/key.npy --output-dir=%t/init
// RUN: ens-opt --ens-stdlib --ens-batch %ens_src_root/examples/ensemble_init.mlir | ens-run - --entry=init --input=%ens_src_root/examples/data/key.npy --rtol=0 --atol=0 --expect=%t/init/out0.npy --expect=%t/init/out1.npy --expect=%t/init/out2.npy --expect=%t/init/out3.npy --expect=%t/init/out4.npy --expect=%t/init/out5.npy --expect=%t/init/out6.npy --expect=%t/init/out7.npy --expect=%t/init/out8.npy --expect=%t/init/out9.npy --expect=%t/init/out10.npy --expect=%t/init/out11.npy
//
// The training step from that state: the loop, and the passes in both
// orders, give the same new parameters, optimizer state and losses.
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --output-dir=%t/step
// RUN: ens-opt --ens-stdlib --ens-autodiff --ens-batch %ens_src_root/examples/ensemble_train_step.mlir > %t/ad-then-batch.mlir
// RUN: ens-opt --ens-stdlib --ens-batch --ens-autodiff %ens_src_root/examples/ensemble_train_step.mlir > %t/batch-then-ad.mlir
// RUN: ens-run %t/ad-then-batch.mlir --entry=train_step --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy --expect=%t/step/out3.npy --expect=%t/step/out4.npy --expect=%t/step/out5.npy --expect=%t/step/out6.npy --expect=%t/step/out7.npy --expect=%t/step/out8.npy --expect=%t/step/out9.npy --expect=%t/step/out10.npy --expect=%t/step/out11.npy --expect=%t/step/out12.npy
// RUN: ens-run %t/batch-then-ad.mlir --entry=train_step --input=%t/init/out0.npy --input=%t/init/out1.npy --input=%t/init/out2.npy --input=%t/init/out3.npy --input=%t/init/out4.npy --input=%t/init/out5.npy --input=%t/init/out6.npy --input=%t/init/out7.npy --input=%t/init/out8.npy --input=%t/init/out9.npy --input=%t/init/out10.npy --input=%t/init/out11.npy --input=%ens_src_root/examples/data/step1.npy --input=%ens_src_root/examples/data/lr128.npy --input=%ens_src_root/examples/data/x.npy --input=%ens_src_root/examples/data/targets.npy --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy --expect=%t/step/out3.npy --expect=%t/step/out4.npy --expect=%t/step/out5.npy --expect=%t/step/out6.npy --expect=%t/step/out7.npy --expect=%t/step/out8.npy --expect=%t/step/out9.npy --expect=%t/step/out10.npy --expect=%t/step/out11.npy --expect=%t/step/out12.npy
//
// And neither batched program has a vmap or value_and_grad left.
// RUN: not grep -E "ens.vmap|ens.value_and_grad" %t/ad-then-batch.mlir %t/batch-then-ad.mlir
// A mismatch is caught (the check above can fail):
// RUN: not ens-run %ens_src_root/examples/ensemble_tensordot.mlir --entry=predict_batch --random-inputs=5 --expect=%t/tensordot/out0.npy 2>&1 | FileCheck %s
// CHECK: ens-run: error: result 0 differs from {{.*}}out0.npy in {{[0-9]+}} of 8 elements
