// ens-bench's CNN workload (examples/cnn.mlir's member, 8 members, SGD) on
// ens's side only: the harness generates the member, lifts it with
// Module::vmap, compiles it for the CPU and times a few steps. The peers
// need Python (torch, jax), which CI does not have;
// docs/notes/benchmark-results.md has the measured table.
//
// RUN: ens-bench --no-python --workloads=cnn --impls=torch-func-vmap \
// RUN:   --repeats=1 --warmup-ms=0 --block-ms=1 --settle-ms=0 --threads=1 \
// RUN:   --json=%t.json 2>/dev/null | FileCheck %s
// RUN: FileCheck --check-prefix=JSON %s < %t.json

// CHECK: cnn ens 1 {{[0-9.]+}} {{.*}} 1.00x {{.*}} reference
// CHECK-NEXT: cnn torch-func-vmap 1 unavailable: --no-python
// CHECK: cnn (1 threads): no peer measured

// JSON: "name": "cnn"
