// --help shows the ens passes, MLIR's options and the generic ones, and
// none of the LLVM backend options the LLVM library registers; those are
// hidden, not gone: --help-hidden lists them.
//
// RUN: ens-opt --help | FileCheck %s
// RUN: ens-opt --help-hidden | FileCheck %s --check-prefix=HIDDEN
// RUN: ens-train --help | FileCheck %s --check-prefix=TRAIN
// RUN: ens-train --help-hidden | FileCheck %s --check-prefix=HIDDEN
// RUN: ens-run --help | FileCheck %s --check-prefix=RUNHELP
// RUN: ens-run --help-hidden | FileCheck %s --check-prefix=HIDDEN

// CHECK-NOT: --aarch64
// CHECK-NOT: --amdgpu
// CHECK-NOT: --x86-
// CHECK-NOT: --polly
// CHECK: --allow-unregistered-dialect
// CHECK-NOT: --aarch64
// CHECK-NOT: --amdgpu
// CHECK: Compiler passes to run
// CHECK-DAG: --convert-ens-to-linalg
// CHECK-DAG: --ens-autodiff
// CHECK-DAG: --ens-batch
// CHECK-DAG: --ens-fuse-elementwise
// CHECK-DAG: --ens-fuse-members
// CHECK-DAG: --ens-stdlib
// CHECK-DAG: --ens-forward-results
// CHECK-DAG: --ens-cpu-approximate-tanh
// CHECK-DAG: --ens-cpu-hoist-transfers
// CHECK-DAG: --ens-cpu-lower-vectors
// CHECK-DAG: --ens-cpu-schedule-dynamically
// CHECK-DAG: --ens-cpu-tile-and-vectorize
// CHECK-DAG: --ens-front
// CHECK-DAG: --ens-cpu-pipeline
// CHECK-DAG: --ens-cuda-pipeline
// CHECK-NOT: --amdgpu
// CHECK-NOT: --x86-
// CHECK-NOT: --polly
// CHECK: --help
// CHECK-NOT: --polly
// CHECK-NOT: --x86-

// HIDDEN: --aarch64-neon-syntax
// HIDDEN: --amdgpu-

// TRAIN-NOT: --amdgpu
// TRAIN: --help
// TRAIN: ens-train options:
// TRAIN: --members
// TRAIN-NOT: --amdgpu

// RUNHELP-NOT: --amdgpu
// RUNHELP: --help
// RUNHELP: ens-run options:
// RUNHELP: --backend
// RUNHELP: --max-buffer-bytes
// RUNHELP-NOT: --amdgpu
