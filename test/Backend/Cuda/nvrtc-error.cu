// An NVRTC failure carries the source name and the compiler's log.
//
// REQUIRES: nvrtc
// RUN: not ens-run --cuda-nvrtc-compile=%s unused.mlir 2>&1 | FileCheck %s
// CHECK: NVRTC cannot compile nvrtc-error.cu for sm_90
// CHECK: nvrtc-error.cu
// CHECK-SAME: error
extern "C" __global__ void broken(float *out) { out[0] = undefined_name; }
