// ens-bench's heterogeneous workload against libtorch's loop over the
// models of each architecture (issue #30): its first three losses must
// agree with ens's one program within 1e-4 (relative).
//
// REQUIRES: libtorch-peer
// RUN: ens-bench --no-python --workloads=hetero --impls=libtorch-loop \
// RUN:   --repeats=1 --warmup-ms=0 --block-ms=1 --settle-ms=0 --threads=1 \
// RUN:   2>%t.err | FileCheck %s

// CHECK: hetero ens 1 {{.*}} 1.00x {{[0-9.]+}} {{[0-9.]+}} reference
// CHECK-NEXT: hetero libtorch-loop 1 {{.*}} ok
