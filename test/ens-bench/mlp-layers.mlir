// ens-bench's compute-bound MLP workloads (issue #28): members with several
// hidden layers of different widths (mlp-784: 784-128-128-10) and a deep
// member (mlp-deep: four layers of 256). ens's step, generated for any
// depth, is checked against libtorch's loop over members and its stacked
// baddbmm step: their first three losses must agree with ens's within
// 1e-4 (relative), so a layer wired wrongly on either side fails here. The
// header gives the FP32 peak measured with the FMA loop, and every rate
// its share of it.
//
// REQUIRES: libtorch-peer
// RUN: ens-bench --no-python --workloads=mlp-784,mlp-deep \
// RUN:   --impls=libtorch-loop,libtorch-bmm --repeats=1 --warmup-ms=0 \
// RUN:   --block-ms=1 --settle-ms=0 --threads=1 --json=%t.json 2>/dev/null \
// RUN:   | FileCheck %s
// RUN: FileCheck --check-prefix=JSON %s < %t.json

// CHECK: measured FP32 peak on 1 threads: {{[1-9][0-9]*}} GFLOP/s ({{.*}} FMA loop, 12 accumulators)
// CHECK: % peak loss check
// CHECK: mlp-784 ens {{.*}} 1.00x {{[0-9.]+}} {{[0-9.]+}} reference
// CHECK-NEXT: mlp-784 libtorch-loop {{.*}} ok
// CHECK-NEXT: mlp-784 libtorch-bmm {{.*}} ok
// CHECK-NEXT: mlp-deep ens {{.*}} 1.00x {{[0-9.]+}} {{[0-9.]+}} reference
// CHECK-NEXT: mlp-deep libtorch-loop {{.*}} ok
// CHECK-NEXT: mlp-deep libtorch-bmm {{.*}} ok

// JSON: "fp32_peak_isa": "{{.*}}FMA"
// JSON: "name": "mlp-784"
// JSON: "layers": "2"
// JSON: "percent_of_peak":
// JSON: "name": "mlp-deep"
// JSON: "layers": "3"
