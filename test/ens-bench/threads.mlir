// ens-bench --threads with several counts runs every workload at each in
// turn, each on as many cores, measures the FP32 peak on each, and says
// how ens's step scaled; a bad count is one error.
//
// REQUIRES: libtorch-peer
// RUN: ens-bench --no-python --workloads=al-10x8 --impls=libtorch-bmm \
// RUN:   --threads=1,2 --repeats=1 --warmup-ms=0 --block-ms=1 --settle-ms=0 \
// RUN:   --json=%t.json 2>/dev/null | FileCheck %s
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: not ens-bench --threads=, 2>&1 | FileCheck --check-prefix=EMPTY %s
// RUN: not ens-bench --threads=1,0 2>&1 | FileCheck --check-prefix=ZERO %s

// CHECK: measured FP32 peak on 1 threads: {{[1-9][0-9]*}} GFLOP/s
// CHECK-NEXT: measured FP32 peak on 2 threads: {{[1-9][0-9]*}} GFLOP/s
// CHECK: workload implementation thr median ms
// CHECK: al-10x8 ens 1 {{.*}} 1.00x {{.*}} reference
// CHECK-NEXT: al-10x8 libtorch-bmm 1 {{.*}} ok
// CHECK-NEXT: al-10x8 ens 2 {{.*}} 1.00x {{.*}} reference
// CHECK-NEXT: al-10x8 libtorch-bmm 2 {{.*}} ok
// CHECK: al-10x8 (1 threads): fastest peer libtorch-bmm
// CHECK-NEXT: al-10x8 (2 threads): fastest peer libtorch-bmm
// CHECK-NEXT: al-10x8: ens's step {{[0-9.]+}}x faster on 2 threads than on 1

// JSON: "threads": [
// JSON-NEXT: 1,
// JSON-NEXT: 2
// JSON: "name": "al-10x8"
// JSON: "threads": 1
// JSON: "name": "al-10x8"
// JSON: "threads": 2

// EMPTY: ens-bench: error: --threads takes one count or more
// ZERO: ens-bench: error: bad value '0' for --threads
