// ens-sass's opt-in checks of issue #31 on kernels whose SASS is known:
// --require-wide-loads (64/128-bit or asynchronous global loads in a
// kernel with a contraction), --max-lsu-per-fma (load/store instructions
// per FFMA in a contraction's hot loop) and --require-32-bit-counters (no
// 64-bit comparison, ISETP .EX, in a hot loop). Each kernel below meets or
// misses them by construction, and the report's counts say why.
//
// REQUIRES: cuobjdump
// RUN: ens-sass --arch=sm_90 %s | FileCheck %s --check-prefix=COUNTS
// RUN: not ens-sass --check --arch=sm_90 --require-wide-loads \
// RUN:   --max-lsu-per-fma=0.35 --require-32-bit-counters %s \
// RUN:   | FileCheck %s --check-prefix=VERDICTS
// Without the opt-in checks the older thresholds alone decide: the scalar
// tile (0.5 loads per FFMA, no wide load) passes them.
// RUN: not ens-sass --check --arch=sm_90 %s | FileCheck %s --check-prefix=DEFAULT
//
// cuobjdump lists the kernels last first.
// COUNTS-LABEL: kernel dot_counter32:
// COUNTS-NOT:     64-bit compares {{[1-9]}}
// COUNTS:         spills: no
// COUNTS-LABEL: kernel dot_counter64:
// COUNTS:         hot loop {{.*}} 64-bit compares {{[1-9][0-9]*}}
// COUNTS-LABEL: kernel stage_async:
// COUNTS-SAME:    LDGSTS {{[1-9][0-9]*}},
// COUNTS-LABEL: kernel tile_scalar:
// COUNTS-SAME:    wide LDG 0, LDGSTS 0,
// COUNTS:         hot loop {{.*}} load/stores per FMA 0.50,
// COUNTS-LABEL: kernel tile_wide:
// COUNTS-SAME:    wide LDG {{[1-9][0-9]*}}, LDGSTS 0,
// COUNTS:         hot loop {{.*}} load/stores per FMA 0.12,
//
// VERDICTS-LABEL: kernel dot_counter32:
// VERDICTS:         thresholds: missed
// VERDICTS-LABEL: kernel dot_counter64:
// VERDICTS:         thresholds: missed
// VERDICTS-LABEL: kernel stage_async:
// VERDICTS:         thresholds: met
// VERDICTS-LABEL: kernel tile_scalar:
// VERDICTS:         thresholds: missed
// VERDICTS-LABEL: kernel tile_wide:
// VERDICTS:         thresholds: met
// VERDICTS: thresholds missed: {{.*}}, load/stores per FMA <= 0.35, wide or asynchronous global loads, 32-bit loop counters
//
// DEFAULT-LABEL: kernel tile_scalar:
// DEFAULT:         thresholds: met
// DEFAULT-LABEL: kernel tile_wide:
// DEFAULT:         thresholds: met
// DEFAULT: thresholds missed: FMA share >= 0.7, loads per FMA <= 0.6, no spills{{$}}

/// A 4x4 register tile fed by two 128-bit loads per step: 2 load/stores
/// per 16 FFMA, and wide loads.
extern "C" __global__ void tile_wide(const float4 *__restrict__ a,
                                     const float4 *__restrict__ b,
                                     float *__restrict__ c, int k) {
  float acc[4][4] = {};
  for (int i = 0; i < k; ++i) {
    float4 x = a[i * blockDim.x + threadIdx.x], y = b[i];
    float xs[4] = {x.x, x.y, x.z, x.w}, ys[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int s = 0; s < 4; ++s)
        acc[r][s] += xs[r] * ys[s];
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int s = 0; s < 4; ++s)
      c[(r * 4 + s) * blockDim.x + threadIdx.x] = acc[r][s];
}

/// The same tile fed by eight scalar loads a step (strided, so that they
/// cannot be merged): 8 per 16 FFMA, and no wide load.
extern "C" __global__ void tile_scalar(const float *__restrict__ a,
                                       const float *__restrict__ b,
                                       float *__restrict__ c, int k, int lda) {
  float acc[4][4] = {};
  for (int i = 0; i < k; ++i) {
    float xs[4], ys[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      xs[r] = a[(i * 4 + r) * lda + threadIdx.x];
      ys[r] = b[(i * 4 + r) * lda];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int s = 0; s < 4; ++s)
        acc[r][s] += xs[r] * ys[s];
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int s = 0; s < 4; ++s)
      c[(r * 4 + s) * blockDim.x + threadIdx.x] = acc[r][s];
}

/// Operands staged into shared memory with cp.async (LDGSTS), then a
/// 4x4 tile from shared memory with 128-bit shared loads.
extern "C" __global__ void stage_async(const float4 *__restrict__ a,
                                       float *__restrict__ c, int k) {
  __shared__ float4 tile[256];
  float acc[4][4] = {};
  for (int step = 0; step < k; ++step) {
    unsigned destination =
        static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     destination),
                 "l"(a + step * 256 + threadIdx.x));
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    for (int i = 0; i < 128; ++i) {
      float4 x = tile[i], y = tile[i + 128];
      float xs[4] = {x.x, x.y, x.z, x.w}, ys[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int s = 0; s < 4; ++s)
          acc[r][s] += xs[r] * ys[s];
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int s = 0; s < 4; ++s)
      c[(r * 4 + s) * blockDim.x + threadIdx.x] = acc[r][s];
}

/// A dot product counted in 64 bits: its loop compares 64-bit integers.
extern "C" __global__ void dot_counter64(const float *__restrict__ x,
                                         const float *__restrict__ w,
                                         float *__restrict__ y, long long n) {
  float acc = 0.0f;
  for (long long i = threadIdx.x; i < n; i += 1024)
    acc += x[i] * w[i];
  y[threadIdx.x] = acc;
}

/// The same counted in 32 bits: no 64-bit comparison, but two scalar loads
/// per FFMA.
extern "C" __global__ void dot_counter32(const float *__restrict__ x,
                                         const float *__restrict__ w,
                                         float *__restrict__ y, int n) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += 1024)
    acc += x[i] * w[i];
  y[threadIdx.x] = acc;
}
