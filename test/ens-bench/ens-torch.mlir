// ens-bench's `ens-torch` runs ens's own compiled code through ens.torch,
// the Python front door: its losses must match ens's C++ path, and the
// summary compares it with ens on a line of its own, never as the fastest
// of the frameworks ens is measured against.
//
// REQUIRES: ens-torch-peer
// RUN: ens-bench --python=%peer_python --workloads=al-10x8 --impls=ens-torch \
// RUN:   --repeats=1 --warmup-ms=0 --block-ms=1 --settle-ms=0 --threads=1 \
// RUN:   2>%t.err | FileCheck %s

// CHECK: al-10x8 ens 1 {{.*}} reference
// CHECK-NEXT: al-10x8 ens-torch 1 {{.*}} ok
// CHECK: al-10x8 (1 threads): no peer measured
// CHECK-NEXT: al-10x8 (1 threads): ens-torch at {{[0-9.]+}}x ens's time
