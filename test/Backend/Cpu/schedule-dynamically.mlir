// RUN: ens-opt %s --ens-cpu-schedule-dynamically | FileCheck %s

// Every worksharing loop hands out its iterations dynamically, whatever
// schedule it had; the loop nest and its body stay as they are.
// CHECK-LABEL: func.func @loops
// CHECK:         omp.parallel {
// CHECK-NEXT:      omp.wsloop schedule(dynamic) {
// CHECK-NEXT:        omp.loop_nest (%[[I:.*]]) : index = (%c0) to (%c128) step (%c1) {
// CHECK-NEXT:          memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<128xf32>
// CHECK:           omp.wsloop schedule(dynamic) {
// CHECK-NEXT:        omp.loop_nest (%[[J:.*]]) : index = (%c0) to (%c128) step (%c1) {
// CHECK-NEXT:          memref.load %{{.*}}[%[[J]]] : memref<128xf32>
func.func @loops(%buffer: memref<128xf32>, %other: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c128) step (%c1) {
        memref.store %one, %buffer[%i] : memref<128xf32>
        omp.yield
      }
      omp.terminator
    }
    omp.wsloop schedule(static) {
      omp.loop_nest (%j) : index = (%c0) to (%c128) step (%c1) {
        %v = memref.load %buffer[%j] : memref<128xf32>
        memref.store %v, %other[%j] : memref<128xf32>
        omp.yield
      }
      omp.terminator
    }
    omp.terminator
  }
  return
}
