// Workload 4 of issue #13, item 5: examples/workloads/tanh_256.mlir, a full
// training step (forward, MSE, backward, Adam) of 4 members
// 256->256 tanh->256 on a shared batch of 512, at full size. The interpreter
// is the oracle: @random_state draws a well-formed input from one key
// (nonzero Adam moments, v >= 0, step 3), the interpreter runs the step, and
// cuda-emu must agree on all 13 results. The tolerances are ens-run's
// defaults (1e-5 relative, 1e-6 absolute; see workloads-mnist_mlp.mlir for
// why not the seed step's 2e-4). The member's temporaries (512 KiB each) go
// to global memory. About 5 s on this project's 2-core machine. The step
// runs with the model's pick, with --cuda-strategy=tiled, with
// --cuda-strategy=members-per-block (a warp per member, whose temporaries
// are then global slices too) and with --cuda-strategy=member-per-block (a
// block per member, its temporaries global slices as well).
//
// The committed file is the generator's output:
// RUN: %python %ens_src_root/examples/workloads/make_workloads.py --print tanh_256 | diff - %ens_src_root/examples/workloads/tanh_256.mlir
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=random_state --random-inputs=1 --output-dir=%t/state
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=train_step --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --output-dir=%t/interp
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=train_step --backend=cuda-emu --rtol=1e-5 --atol=1e-6 --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy --expect=%t/interp/out12.npy --summary | FileCheck %s --check-prefix=EMU
// EMU-NOT: {{nan|inf}}
// EMU: out12 = tensor<4xf32> min
// EMU-NOT: {{nan|inf}}
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=train_step --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6 --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy --expect=%t/interp/out12.npy --summary | FileCheck %s --check-prefix=TILED
// TILED-NOT: {{nan|inf}}
// TILED: out12 = tensor<4xf32> min
// TILED-NOT: {{nan|inf}}
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=train_step --backend=cuda-emu --cuda-strategy=members-per-block --rtol=1e-5 --atol=1e-6 --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy --expect=%t/interp/out12.npy --summary | FileCheck %s --check-prefix=WARPS
// WARPS-NOT: {{nan|inf}}
// WARPS: out12 = tensor<4xf32> min
// WARPS-NOT: {{nan|inf}}
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=train_step --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6 --input=%t/state/out0.npy --input=%t/state/out1.npy --input=%t/state/out2.npy --input=%t/state/out3.npy --input=%t/state/out4.npy --input=%t/state/out5.npy --input=%t/state/out6.npy --input=%t/state/out7.npy --input=%t/state/out8.npy --input=%t/state/out9.npy --input=%t/state/out10.npy --input=%t/state/out11.npy --input=%t/state/out12.npy --input=%t/state/out13.npy --input=%t/state/out14.npy --input=%t/state/out15.npy --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy --expect=%t/interp/out3.npy --expect=%t/interp/out4.npy --expect=%t/interp/out5.npy --expect=%t/interp/out6.npy --expect=%t/interp/out7.npy --expect=%t/interp/out8.npy --expect=%t/interp/out9.npy --expect=%t/interp/out10.npy --expect=%t/interp/out11.npy --expect=%t/interp/out12.npy --summary | FileCheck %s --check-prefix=BLOCKS
// BLOCKS-NOT: {{nan|inf}}
// BLOCKS: out12 = tensor<4xf32> min
// BLOCKS-NOT: {{nan|inf}}
//
// The kernel report carries the performance model's estimate and roofline
// for the whole step and for each launch (the inputs of the "Workloads"
// table in docs/cuda.md):
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=train_step --kernel-report=json | FileCheck %s --check-prefix=REPORT
// REPORT:      "estimate": {
// REPORT-NEXT:   "h100": {
// REPORT-NEXT:     "us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:     "roofline_us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}}
// REPORT-NEXT:   },
// REPORT-NEXT:   "a100": {
// REPORT-NEXT:     "us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:     "roofline_us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}}
// REPORT-NEXT:   }
// REPORT-NEXT: },
// REPORT:      "launches": [
// REPORT:        "estimate": {
// REPORT-NEXT:     "h100": {
// REPORT-NEXT:       "us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:       "roofline_us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:       "bound": "{{compute|issue|lsu|shared|l2|dram|latency|launch}}",
// REPORT-NEXT:       "terms": {
// REPORT-NEXT:         "compute": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:         "issue": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:         "lsu": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:         "shared": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:         "l2": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:         "dram": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:         "latency": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:         "launch": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}}
// REPORT-NEXT:       }
// REPORT-NEXT:     },
// REPORT-NEXT:     "a100": {
// REPORT-NEXT:       "us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:       "roofline_us": {{[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?}},
// REPORT-NEXT:       "bound": "{{compute|issue|lsu|shared|l2|dram|latency|launch}}"
//
// RUN: ens-run %ens_src_root/examples/workloads/tanh_256.mlir --entry=train_step --cuda-plan | FileCheck %s --check-prefix=PLAN
// The performance model picks the tiled strategy for its loop over members:
// PLAN: loop: tiled, 4 members,
// PLAN-NEXT: chosen by the H100 estimates: member-per-block {{[0-9.]+}} us, tiled {{[0-9.]+}} us
// Its five contractions, the backward pass's (dY W^T with W read
// transposed, and the weight gradients) among them, stage FFMA block tiles
// through shared memory (issue #31; docs/cuda.md, "FP32 block tiles"), as
// the cuda-emu runs above run them. The last, the first layer's weight
// gradient, beside only its bias's gradient in the last launch, takes
// 16x32 warp tiles: 128 blocks of 32x64 instead of 64 of 64x64 for the
// H100's 132 SMs (config_warp_tiles.mlir).
// PLAN: phase 0: {{.*}} block tiles of d1, d2, 32x32 per warp in FFMA
// PLAN: phase 1: {{.*}} block tiles of d1, d2, 32x32 per warp in FFMA
// PLAN: phase 4: {{.*}} block tiles of d1, d2, 32x32 per warp in FFMA
// PLAN: phase 5: {{.*}} block tiles of d1, d2, 32x32 per warp in FFMA
// PLAN: phase 7: {{.*}} 32x64 block tiles of d1, d2, 16x32 per warp in FFMA
