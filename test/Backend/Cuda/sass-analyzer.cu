// ens-sass on kernels whose SASS is known: a multiply-add loop compiled with
// contraction on is all FFMA, with --fmad=false none; a kernel that needs
// more registers than its launch bounds allow spills (local loads and
// stores). --check fails on the latter two.
//
// REQUIRES: cuobjdump
// RUN: ens-sass --arch=sm_80 --nvrtc-option=--fmad=true %s | FileCheck %s --check-prefix=FMAD
// RUN: ens-sass --arch=sm_90 --nvrtc-option=--fmad=false %s | FileCheck %s --check-prefix=NOFMAD
// RUN: not ens-sass --check --arch=sm_80 --nvrtc-option=--fmad=false %s | FileCheck %s --check-prefix=CHECK-FAILS
// RUN: not ens-sass %t.missing.cubin 2>&1 | FileCheck %s --check-prefix=MISSING
//
// FMAD-LABEL: kernel forced_spill:
// FMAD-NEXT:    spills: yes
// FMAD-NEXT:    hot loop {{.*}} FMA 64 (100.0%), {{.*}} LDL {{[1-9][0-9]*}}, STL {{[1-9][0-9]*}}
// FMAD-LABEL: kernel multiply_add_loop:
// FMAD-SAME:    instructions {{[0-9]+}}, float arithmetic [[N:[1-9][0-9]*]], FMA [[N]] (100.0%), {{.*}} LDL 0, STL 0
// FMAD-NEXT:    spills: no
// FMAD-NEXT:    hot loop {{.*}}, FMA {{[1-9][0-9]*}} (100.0%),
//
// NOFMAD-LABEL: kernel multiply_add_loop: instructions {{[0-9]+}}, float arithmetic {{[1-9][0-9]*}}, FMA 0 (0.0%),
// NOFMAD-NEXT:    spills: no
// NOFMAD-NEXT:    hot loop {{.*}}, FMA 0 (0.0%),
//
// --check holds only a contraction's hot loop (one that multiplies and
// stores nothing) to the thresholds: the elementwise loop passes; the
// naive dot product (two loads per FFMA) and the multiply-add loop (one)
// miss, and with --fmad=false the latter is FMUL + FADD as well.
// RUN: not ens-sass --check --arch=sm_80 --nvrtc-option=--fmad=true %s | FileCheck %s --check-prefix=VERDICTS
// VERDICTS-LABEL: kernel naive_dot:
// VERDICTS:         thresholds: missed
// VERDICTS-LABEL: kernel elementwise_scale:
// VERDICTS:         thresholds: met
// VERDICTS-LABEL: kernel multiply_add_loop:
// VERDICTS:         thresholds: missed
//
// CHECK-FAILS-LABEL: kernel multiply_add_loop:
// CHECK-FAILS:         thresholds: missed
// CHECK-FAILS: thresholds missed: FMA share >= 0.7, loads per FMA <= 0.6, no spills
//
// MISSING: error: cuobjdump -sass {{.*}}missing.cubin failed

/// A loop of a * b + c: one FFMA per step with contraction on, an FMUL and
/// an FADD with --fmad=false.
extern "C" __global__ void multiply_add_loop(const float *x, float *y, int n) {
  float acc = 0.0f, scale = x[threadIdx.x];
  for (int i = 0; i < n; ++i)
    acc = acc * scale + x[i];
  y[threadIdx.x] = acc;
}

/// 64 live accumulators in a kernel limited to 32 registers per thread
/// (1024 threads, 2 blocks per SM): ptxas must spill.
extern "C" __global__ void __launch_bounds__(1024, 2)
    forced_spill(const float *x, float *y, int n) {
  float acc[64];
#pragma unroll
  for (int j = 0; j < 64; ++j)
    acc[j] = x[j * 1024 + threadIdx.x];
  for (int i = 0; i < n; ++i)
#pragma unroll
    for (int j = 0; j < 64; ++j)
      acc[j] = acc[j] * acc[(j + 1) % 64] + x[i];
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < 64; ++j)
    sum += acc[j];
  y[threadIdx.x] = sum;
}

/// y = a * x, one element per step: a loop that multiplies and stores each
/// result, not a contraction.
extern "C" __global__ void elementwise_scale(const float *x, float *y,
                                             float a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    y[i] = a * x[i];
}

/// A dot product that loads both operands for every FFMA.
extern "C" __global__ void naive_dot(const float *x, const float *w, float *y,
                                     int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += x[i * blockDim.x + threadIdx.x] * w[i];
  y[threadIdx.x] = acc;
}
