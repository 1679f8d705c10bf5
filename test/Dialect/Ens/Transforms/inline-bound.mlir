// Every path that inlines holds a function to kMaxInlinedOps (2^20) ops
// once its calls are inlined, checked before inlining (issue #25): a call
// tree of 22 functions that each call the next twice is 2^22 ops, which
// the backends' pipelines ground through without bound before.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/call-tree.py 22 > %t/tree.mlir
// RUN: (%limit_6gb_address_space; not timeout 60 ens-opt %t/tree.mlir --ens-inline -o %t/out.mlir 2>&1) | FileCheck %s
// RUN: (%limit_6gb_address_space; not timeout 60 ens-opt %t/tree.mlir --ens-cpu-pipeline -o %t/out.mlir 2>&1) | FileCheck %s
// RUN: (%limit_6gb_address_space; not timeout 60 ens-opt %t/tree.mlir --ens-cuda-pipeline -o %t/out.mlir 2>&1) | FileCheck %s
// RUN: (%limit_6gb_address_space; not timeout 60 ens-run %t/tree.mlir --entry=f0 --backend=cpu --random-inputs=1 2>&1) | FileCheck %s
// RUN: (%limit_6gb_address_space; not timeout 60 ens-run %t/tree.mlir --entry=f0 --backend=cuda-emu --random-inputs=1 2>&1) | FileCheck %s
// CHECK: {{(tree.mlir:1:1: error: )?}}'func.func' op has more than 1048576 ops once its calls are inlined, too many to compile
//
// The interpreter does not inline; it stops at its own bound on the ops it
// runs.
// RUN: (%limit_6gb_address_space; not timeout 60 ens-run %t/tree.mlir --entry=f0 --random-inputs=1 2>&1) | FileCheck %s --check-prefix=INTERP
// INTERP: ens-run: error: {{.*}}the interpreter's limit
//
// The bound counts the ops full inlining would make: 3 levels make @f0 8
// exp ops and its return. (The upstream inliner leaves the calls of ens ops
// here; the pipelines inline after lowering to linalg, whose ops it moves.)
// RUN: python3 %S/Inputs/call-tree.py 3 > %t/small.mlir
// RUN: ens-opt %t/small.mlir --ens-inline=max-ops=9 | FileCheck %s --check-prefix=FITS
// FITS: func.func @f0
// RUN: not ens-opt %t/small.mlir --ens-inline=max-ops=8 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: small.mlir:1:1: error: 'func.func' op has more than 8 ops once its calls are inlined
//
// ens-opt has no unbounded inliner.
// RUN: not ens-opt %t/small.mlir --inline 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: Unknown command line argument '--inline'
