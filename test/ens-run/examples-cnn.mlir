// The CNN ensemble's training step (examples/cnn.mlir: 8 members, two
// conv/relu/pool blocks, value_and_grad and SGD) agrees with the
// interpreter on the CPU backend and on cuda-emu under the performance
// model's pick of strategies and under each strategy forced. The
// tolerance allows for f32 sums in another order than the interpreter's
// double ones.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %ens_src_root/examples/cnn.mlir --entry=train_step --random-inputs=5 --output-dir=%t/want
// RUN: ens-run %ens_src_root/examples/cnn.mlir --entry=train_step --random-inputs=5 --backend=cpu --rtol=1e-4 --atol=1e-5 --expect=%t/want/out0.npy --expect=%t/want/out1.npy --expect=%t/want/out2.npy --expect=%t/want/out3.npy --expect=%t/want/out4.npy --expect=%t/want/out5.npy --expect=%t/want/out6.npy
// The same on one thread, where loops run in order and each loop's temporaries
// are allocated once, before it (test/Backend/Cpu/loop-temporaries.mlir).
// RUN: ens-run %ens_src_root/examples/cnn.mlir --entry=train_step --random-inputs=5 --backend=cpu --cpu-threads=1 --rtol=1e-4 --atol=1e-5 --expect=%t/want/out0.npy --expect=%t/want/out1.npy --expect=%t/want/out2.npy --expect=%t/want/out3.npy --expect=%t/want/out4.npy --expect=%t/want/out5.npy --expect=%t/want/out6.npy
// RUN: ens-run %ens_src_root/examples/cnn.mlir --entry=train_step --random-inputs=5 --backend=cuda-emu --rtol=1e-4 --atol=1e-5 --expect=%t/want/out0.npy --expect=%t/want/out1.npy --expect=%t/want/out2.npy --expect=%t/want/out3.npy --expect=%t/want/out4.npy --expect=%t/want/out5.npy --expect=%t/want/out6.npy
// RUN: ens-run %ens_src_root/examples/cnn.mlir --entry=train_step --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-4 --atol=1e-5 --expect=%t/want/out0.npy --expect=%t/want/out1.npy --expect=%t/want/out2.npy --expect=%t/want/out3.npy --expect=%t/want/out4.npy --expect=%t/want/out5.npy --expect=%t/want/out6.npy
// RUN: ens-run %ens_src_root/examples/cnn.mlir --entry=train_step --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-4 --atol=1e-5 --expect=%t/want/out0.npy --expect=%t/want/out1.npy --expect=%t/want/out2.npy --expect=%t/want/out3.npy --expect=%t/want/out4.npy --expect=%t/want/out5.npy --expect=%t/want/out6.npy
// RUN: ens-run %ens_src_root/examples/cnn.mlir --entry=train_step --random-inputs=5 --backend=cuda-emu --cuda-strategy=members-per-block --rtol=1e-4 --atol=1e-5 --expect=%t/want/out0.npy --expect=%t/want/out1.npy --expect=%t/want/out2.npy --expect=%t/want/out3.npy --expect=%t/want/out4.npy --expect=%t/want/out5.npy --expect=%t/want/out6.npy
