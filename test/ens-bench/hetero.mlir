// ens-bench's heterogeneous workload (issue #30): 24 members of three
// architectures (32-16-8, 32-64-64-8, 32-128-8) trained by ens's one
// program (one ens.vmap per architecture), by one program per architecture
// run one after another, and by one program of all members padded to the
// widest architecture with masked weights and gated layers. The separate
// programs must give ens's first three losses bit for bit (a difference of
// 0), and the padded program the same losses within the check's tolerance,
// so that a member wired or masked wrongly fails here.
//
// RUN: ens-bench --no-python --workloads=hetero \
// RUN:   --impls=ens-separate,ens-padded --repeats=1 --warmup-ms=0 \
// RUN:   --block-ms=1 --settle-ms=0 --threads=1 --json=%t.json 2>%t.err \
// RUN:   | FileCheck %s
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: ens-bench --list | FileCheck --check-prefix=LIST %s

// CHECK: workload implementation thr median ms
// CHECK: hetero ens 1 {{.*}} 1.00x {{[0-9.]+}} {{[0-9.]+}} reference
// CHECK-NEXT: hetero ens-separate 1 {{.*}} 0.0e+00 ok
// CHECK-NEXT: hetero ens-padded 1 {{.*}} ok
// ens's other forms of the step are not peers: the summary compares them
// with ens on lines of their own.
// CHECK: hetero (1 threads): no peer measured
// CHECK-NEXT: hetero (1 threads): ens-separate at {{[0-9.]+}}x ens's time
// CHECK-NEXT: hetero (1 threads): ens-padded at {{[0-9.]+}}x ens's time

// JSON: "name": "hetero"
// JSON: "archs": "16x1,64x2,128x1"
// JSON: "impl": "ens"
// JSON: "notes": "one program: one vmap(value_and_grad + Adam) per architecture, side by side"
// JSON: "impl": "ens-separate"
// JSON: "loss_ok": true
// JSON: "impl": "ens-padded"
// JSON: "loss_ok": true
// JSON: "notes": "one program of all members padded to 128 units x 2 layers, weights masked, layers gated"

// LIST: hetero: 24 members of three architectures, 8 each
