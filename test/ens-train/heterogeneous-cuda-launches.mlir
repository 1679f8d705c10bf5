// Issue #30: the CUDA plan of ens-train's one program for three models of
// different widths and depths (8 members each) takes no more launches per
// step than the deepest group's program alone: the groups' loops over
// members share launches (docs/batching.md, "Heterogeneous ensembles").
// The step is specialised to a batch of 64 and read by the kernel report.
//
// RUN: rm -rf %t && mkdir -p %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --model=%S/Inputs/het-deep.mlir --members=8,8,8 --data=%t/long-targets0.csv --batch-size=64 --emit-ir > %t/all.mlir
// RUN: ens-train --model=%S/Inputs/het-deep.mlir --members=8 --data=%t/long-targets0.csv --batch-size=64 --emit-ir > %t/deep.mlir
// RUN: %python %S/Inputs/static_step.py %t/all.mlir %t/all-private.mlir 64 > %t/all-types
// RUN: %python %S/Inputs/static_step.py %t/deep.mlir %t/deep-private.mlir 64 > %t/deep-types
// RUN: ens-opt %t/all-private.mlir "--ens-specialize=entry=ens_train_step arg-types=$(cat %t/all-types)" --symbol-dce --ens-stdlib -o %t/all-static.mlir
// RUN: ens-opt %t/deep-private.mlir "--ens-specialize=entry=ens_train_step arg-types=$(cat %t/deep-types)" --symbol-dce --ens-stdlib -o %t/deep-static.mlir
// RUN: FileCheck %s --check-prefix=VMAPS < %t/all-static.mlir
// RUN: ens-run %t/all-static.mlir --entry=ens_train_step --kernel-report=table | FileCheck %s --check-prefix=ALL
// RUN: ens-run %t/deep-static.mlir --entry=ens_train_step --kernel-report=table | FileCheck %s --check-prefix=DEEP
//
// The one step holds the three groups' loops over members.
// VMAPS-COUNT-3: ens.vmap
// VMAPS-NOT: ens.vmap
// ALL: {{^}}1 kernels,
// DEEP: {{^}}1 kernels,
