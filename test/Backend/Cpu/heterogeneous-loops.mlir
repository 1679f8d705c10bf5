// A heterogeneous ensemble on the CPU (issue #30): the three groups of
// examples/heterogeneous_three.mlir, 8 members each, share only their
// inputs, so each is a loop over its own members (ens-fuse-members with
// join-independent=false), not one loop whose body runs every group's
// member in turn. With two threads each loop is a worksharing loop over its
// 8 members with a dynamic schedule: both threads split every group's
// members. test/ens-run/heterogeneous-three.mlir checks the results.
//
// RUN: ens-opt %ens_src_root/examples/heterogeneous_three.mlir --ens-front \
// RUN:   --convert-ens-to-linalg --ens-cpu-pipeline="threads=2 vector-bytes=32" \
// RUN:   -o %t.mlir
// RUN: FileCheck %s < %t.mlir

// CHECK-LABEL: llvm.func @train_step(
// CHECK:         %[[MEMBERS:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK:         omp.parallel num_threads
// CHECK-NEXT:      omp.wsloop schedule(dynamic)
// CHECK-NEXT:        omp.loop_nest ({{.*}}) : i64 = ({{.*}}) to (%[[MEMBERS]])
// CHECK:         omp.parallel num_threads
// CHECK-NEXT:      omp.wsloop schedule(dynamic)
// CHECK-NEXT:        omp.loop_nest ({{.*}}) : i64 = ({{.*}}) to (%[[MEMBERS]])
// CHECK:         omp.parallel num_threads
// CHECK-NEXT:      omp.wsloop schedule(dynamic)
// CHECK-NEXT:        omp.loop_nest ({{.*}}) : i64 = ({{.*}}) to (%[[MEMBERS]])
// CHECK-NOT:     omp.parallel
// CHECK:         llvm.return
