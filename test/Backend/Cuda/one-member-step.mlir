// A training step of an ensemble of ONE member (a vmap of size 1;
// examples/workloads/make_workloads.py at odd shapes: batch 37, 45 -> 19
// tanh -> 11). ens-fuse-members makes its ops one loop of one iteration
// (mapped to #ens.members, so that canonicalization keeps it), and the
// model weighs the strategies for it: on an H100 it runs the whole step as
// ONE member-per-block kernel of one block, where the ops used to run as
// 13 grid-wide kernels. The plan names the pick; the results of every
// strategy agree with the interpreter (the oracle) on cuda-emu.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %ens_src_root/examples/workloads/make_workloads.py --members 1 --batch 37 --widths 45,19,11 --activation tanh -o %t/one.mlir
// RUN: ens-run %t/one.mlir --entry=train_step --cuda-plan | FileCheck %s --check-prefix=PLAN
// PLAN: kernel {{[a-z0-9_]+}}: member-per-block, 1 members, 256 threads,
// PLAN-NEXT: chosen by the H100 estimates: member-per-block
// PLAN-NOT: kernel
// RUN: ens-run %t/one.mlir --entry=random_state --random-inputs=2 --output-dir=%t/state
// RUN: ens-run %t/one.mlir --entry=train_step --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --output-dir=%t/interp
// RUN: ens-run %t/one.mlir --entry=train_step --backend=cuda-emu --rtol=1e-5 --atol=1e-6 --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy --expect=%t/interp/out12.npy --summary | FileCheck %s --check-prefix=AUTO
// AUTO-NOT: {{nan|inf}}
// AUTO: out12 = tensor<1xf32> min
// AUTO-NOT: {{nan|inf}}
// RUN: ens-run %t/one.mlir --entry=train_step --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6 --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy --expect=%t/interp/out12.npy --summary | FileCheck %s --check-prefix=TILED
// TILED-NOT: {{nan|inf}}
// TILED: out12 = tensor<1xf32> min
// TILED-NOT: {{nan|inf}}
// RUN: ens-run %t/one.mlir --entry=train_step --backend=cuda-emu --cuda-strategy=members-per-block --rtol=1e-5 --atol=1e-6 --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy --expect=%t/interp/out12.npy --summary | FileCheck %s --check-prefix=WARPS
// WARPS-NOT: {{nan|inf}}
// WARPS: out12 = tensor<1xf32> min
// WARPS-NOT: {{nan|inf}}
//
// The seed step's structure with one member (issue #31's one-member shape,
// workload_table.py --shapes row 5): one kernel, one launch.
// RUN: %python %ens_src_root/examples/workloads/make_workloads.py --members 1 --batch 256 --widths 64,32,8 --activation tanh -o %t/seed.mlir
// RUN: ens-run %t/seed.mlir --entry=train_step --cuda-plan | FileCheck %s --check-prefix=SEED
// SEED: kernel {{[a-z0-9_]+}}: member-per-block, 1 members, 256 threads,
// SEED-NOT: kernel
// SEED-NOT: gemm step
