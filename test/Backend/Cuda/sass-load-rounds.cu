// ens-sass's global load rounds (LoadRounds.h): the round trips to global
// memory that one pass through a hot loop makes one after another, on
// kernels whose chains are known by construction. A pointer chase waits
// for each load before the next (as many rounds as loads); loads whose
// results nothing uses before the last of them is issued are one round;
// a loop that loads, adds, and loads again from the sum's index has two a
// step.
//
// REQUIRES: cuobjdump
// RUN: ens-sass --arch=sm_90 %s | FileCheck %s
// RUN: ens-sass --json --arch=sm_90 %s | FileCheck %s --check-prefix=JSON
//
// cuobjdump lists the kernels last first.
// CHECK-LABEL: kernel gather_twice:
// CHECK:         hot loop {{.*}}%), LDG [[LOADS:[0-9]+]],
// CHECK:         global load rounds: [[LOADS]]
// CHECK-LABEL: kernel independent:
// CHECK:         hot loop {{.*}}%), LDG {{[2-9]|[1-9][0-9]+}},
// CHECK:         global load rounds: 1
// CHECK-LABEL: kernel chase:
// CHECK:         hot loop {{.*}}%), LDG [[CHASED:[0-9]+]],
// CHECK:         global load rounds: [[CHASED]]
//
// JSON: "name": "gather_twice"
// JSON: "ldg_rounds": {{[1-9]}}
// JSON: "name": "independent"
// JSON: "ldg_rounds": 1

// Each load's address is the load before it.
extern "C" __global__ void chase(const int *__restrict__ next,
                                 int *__restrict__ out, int n) {
  int p = threadIdx.x;
  for (int i = 0; i < n; ++i)
    p = next[p];
  out[threadIdx.x] = p;
}

// Three loads a step, all issued before the sum uses them.
extern "C" __global__ void independent(const float *__restrict__ a,
                                       const float *__restrict__ b,
                                       const float *__restrict__ c,
                                       float *__restrict__ out, int n) {
  float sum = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    sum += a[i] * b[i] + c[i];
  out[threadIdx.x] = sum;
}

// A step loads an index, then the element at it: two rounds a step.
extern "C" __global__ void gather_twice(const int *__restrict__ index,
                                        const float *__restrict__ values,
                                        float *__restrict__ out, int n) {
  float sum = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    sum += values[index[i]];
  out[threadIdx.x] = sum;
}
