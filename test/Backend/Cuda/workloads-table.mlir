// The inputs of the "Workloads" table in docs/cuda.md stay producible:
// examples/workloads/workload_table.py asks ens-run for each workload's
// kernel report (JSON) and CUDA plan and prints the table's rows. Only the
// form is checked here, not the figures: they are the performance model's
// estimates of today's kernels and change as code generation does.
//
// RUN: %python %ens_src_root/examples/workloads/workload_table.py --ens-run ens-run | FileCheck %s --check-prefix=TABLE
// TABLE:      | workload | kernels / launches | strategy | blocks of the kernel with the most FLOPs | H100 estimate (us) | H100 roofline (us) | H100 ratio | H100 bound | A100 estimate (us) | A100 roofline (us) | A100 ratio | A100 bound | target ratio |
// TABLE-NEXT: |---|---|---|---|---|---|---|---|---|---|---|---|---|
// TABLE-NEXT: | 1. seed step: 128 members 64->32 tanh->8, batch 256{{[^|]*}} | {{[0-9]+}} / {{[0-9]+}} | {{[a-z-]+}} ({{[0-9]+}} threads{{.*}} | {{[0-9]+}} ({{[a-z0-9_]+}}) | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | <= 2.5x |
// TABLE-NEXT: | 2. mnist_mlp: 10 members 784->128 relu->128 relu->10, batch 64{{[^|]*}} | {{[0-9]+}} / {{[0-9]+}} | {{[a-z-]+}} ({{[0-9]+}} threads{{.*}} | {{[0-9]+}} ({{[a-z0-9_]+}}) | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | <= 3x |
// TABLE-NEXT: | 3. wide_relu: 16 members 512->512 relu->512, batch 256{{[^|]*}} | {{[0-9]+}} / {{[0-9]+}} | {{[a-z-]+}} ({{[0-9]+}} threads{{.*}} | {{[0-9]+}} ({{[a-z0-9_]+}}) | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | <= 3x |
// TABLE-NEXT: | 4. tanh_256: 4 members 256->256 tanh->256, batch 512{{[^|]*}} | {{[0-9]+}} / {{[0-9]+}} | {{[a-z-]+}} ({{[0-9]+}} threads{{.*}} | {{[0-9]+}} ({{[a-z0-9_]+}}) | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | {{[0-9]+\.[0-9]}} | {{[0-9]+\.[0-9]+}} | {{[0-9]+\.[0-9]}}x | {{compute|issue|lsu|shared|l2|dram|latency|launch}} | <= 3x |
// TABLE-NOT: {{.}}
//
// Each workload's H100 estimate over its roofline (the table's columns 6
// and 7, as printed) is computed for the four workloads. Issue #13's
// targets (the last column) held under the model that described ens's
// kernels by their FLOPs and traffic alone; the full model of issue #31
// (instructions, wavefronts, L2 footprints, chains of round trips) puts
// every workload above its target, and #31's second deliverable is the
// code that brings them back within it. Until then the ratios are printed,
// not held to the targets.
// RUN: %python %ens_src_root/examples/workloads/workload_table.py --ens-run ens-run | awk -F'|' '/^[|] [1-4][.]/ { target = $14; gsub(/[ x<=]/, "", target); ratio = $6 / $7; printf "%%s: %%.2fx (target %%sx)\n", $2, ratio, target; if (!(ratio >= 1)) exit 1; ++n } END { if (n != 4) exit 1 }'
//
// Workload 1, the seed step (examples/ensemble_train_step.mlir; cuda-emu
// against the interpreter in test/Backend/Cuda/examples-cuda-emu.mlir): its kernel
// report has the model's estimate and roofline for the step and each launch,
// as workloads-{mnist_mlp,wide_relu,tanh_256}.mlir check for the others.
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --kernel-report=json | FileCheck %s --check-prefix=REPORT
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
