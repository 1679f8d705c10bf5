// A heterogeneous ensemble in one program (issue #30,
// examples/heterogeneous.mlir): 8 members of one architecture and 4 of a
// deeper, wider one, each group its own ens.vmap, trained one SGD step side
// by side. The program agrees with the interpreter on the CPU and under
// cuda-emu (with each CUDA strategy); and each group's results on the CPU
// are, bit for bit, those of the group run as a program of its own on the
// same inputs: the groups share nothing but what they read. The CPU spreads
// the members over its threads without changing a bit. Under cuda-emu each
// group's results agree with the group alone within rounding.
//
// On CUDA each group is one loop over its members, and the two loops share
// one launch (a kernel whose first 8 blocks run the narrow group's members
// and the next 4 the deep group's): the step takes as many launches as the
// deep group alone, under each strategy.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --write-inputs=%t/in --output-dir=%t/interp
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --backend=cpu --atol=1e-5 --output-dir=%t/cpu --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --backend=cuda-emu --atol=1e-5 --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=narrow_group --backend=cpu --input=%t/in/in0.npy --input=%t/in/in1.npy --input=%t/in/in2.npy --input=%t/in/in3.npy --input=%t/in/in4.npy --input=%t/in/in5.npy --input=%t/in/in6.npy --rtol=0 --atol=0 --expect=%t/cpu/out0.npy --expect=%t/cpu/out1.npy --expect=%t/cpu/out2.npy --expect=%t/cpu/out3.npy --expect=%t/cpu/out4.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=deep_group --backend=cpu --input=%t/in/in0.npy --input=%t/in/in1.npy --input=%t/in/in2.npy --input=%t/in/in7.npy --input=%t/in/in8.npy --input=%t/in/in9.npy --input=%t/in/in10.npy --input=%t/in/in11.npy --input=%t/in/in12.npy --rtol=0 --atol=0 --expect=%t/cpu/out5.npy --expect=%t/cpu/out6.npy --expect=%t/cpu/out7.npy --expect=%t/cpu/out8.npy --expect=%t/cpu/out9.npy --expect=%t/cpu/out10.npy --expect=%t/cpu/out11.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/cpu/out0.npy --expect=%t/cpu/out1.npy --expect=%t/cpu/out2.npy --expect=%t/cpu/out3.npy --expect=%t/cpu/out4.npy --expect=%t/cpu/out5.npy --expect=%t/cpu/out6.npy --expect=%t/cpu/out7.npy --expect=%t/cpu/out8.npy --expect=%t/cpu/out9.npy --expect=%t/cpu/out10.npy --expect=%t/cpu/out11.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --backend=cpu --cpu-threads=2 --rtol=0 --atol=0 --expect=%t/cpu/out0.npy --expect=%t/cpu/out1.npy --expect=%t/cpu/out2.npy --expect=%t/cpu/out3.npy --expect=%t/cpu/out4.npy --expect=%t/cpu/out5.npy --expect=%t/cpu/out6.npy --expect=%t/cpu/out7.npy --expect=%t/cpu/out8.npy --expect=%t/cpu/out9.npy --expect=%t/cpu/out10.npy --expect=%t/cpu/out11.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --backend=cuda-emu --output-dir=%t/emu
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=narrow_group --backend=cuda-emu --input=%t/in/in0.npy --input=%t/in/in1.npy --input=%t/in/in2.npy --input=%t/in/in3.npy --input=%t/in/in4.npy --input=%t/in/in5.npy --input=%t/in/in6.npy --atol=1e-5 --expect=%t/emu/out0.npy --expect=%t/emu/out1.npy --expect=%t/emu/out2.npy --expect=%t/emu/out3.npy --expect=%t/emu/out4.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=deep_group --backend=cuda-emu --input=%t/in/in0.npy --input=%t/in/in1.npy --input=%t/in/in2.npy --input=%t/in/in7.npy --input=%t/in/in8.npy --input=%t/in/in9.npy --input=%t/in/in10.npy --input=%t/in/in11.npy --input=%t/in/in12.npy --atol=1e-5 --expect=%t/emu/out5.npy --expect=%t/emu/out6.npy --expect=%t/emu/out7.npy --expect=%t/emu/out8.npy --expect=%t/emu/out9.npy --expect=%t/emu/out10.npy --expect=%t/emu/out11.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --backend=cuda-emu --cuda-strategy=members-per-block --atol=1e-5 --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --atol=1e-5 --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy
//
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --cuda-plan > %t/plan.txt
// RUN: FileCheck %s --check-prefix=PLAN < %t/plan.txt
// PLAN: kernel k0_groups from block 0: member-per-block, 8 members
// PLAN: kernel k0_groups from block 8: member-per-block, 4 members
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --kernel-report=table > %t/step.txt
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=deep_group --kernel-report=table > %t/deep.txt
// RUN: FileCheck %s --check-prefix=ONE < %t/step.txt
// RUN: FileCheck %s --check-prefix=ONE < %t/deep.txt
// ONE: {{^}}1 kernels,
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --cuda-strategy=members-per-block --kernel-report=table > %t/step-warps.txt
// RUN: FileCheck %s --check-prefix=ONE < %t/step-warps.txt
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=train_step --cuda-strategy=tiled --kernel-report=table > %t/step-tiled.txt
// RUN: ens-run %ens_src_root/examples/heterogeneous.mlir --entry=deep_group --cuda-strategy=tiled --kernel-report=table > %t/deep-tiled.txt
// RUN: FileCheck %s --check-prefix=SIX < %t/step-tiled.txt
// RUN: FileCheck %s --check-prefix=SIX < %t/deep-tiled.txt
// SIX: {{^}}6 kernels,
