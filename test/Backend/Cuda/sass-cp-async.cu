// The device prelude's cp.async helpers compile, with NVRTC, to what they
// name: on sm_90 one LDGSTS per asynchronous copy (16 bytes through .cg, 8
// and 4 through .ca, each with its src-size) and no ordinary global load;
// before sm_80 to plain loads and stores. In a loop of asynchronous copies
// ptxas pads each LDGSTS with loads that never run ("@!PT LDS RZ, [RZ]"):
// ens-sass counts them as no shared loads.
//
// REQUIRES: cuobjdump
// RUN: cat %ens_src_root/lib/Backend/Cuda/Prelude.cuh %s > %t.cu
// RUN: ens-sass --arch=sm_90 %t.cu | FileCheck %s --check-prefix=SM90
// RUN: ens-sass --arch=sm_75 %t.cu | FileCheck %s --check-prefix=SM75
//
// SM90-LABEL: kernel copy_loop: {{.*}} LDG 0, LDS 1, {{.*}} LDGSTS 1,
// SM90-NEXT:  spills: no
// SM90-NEXT:  hot loop {{.*}}LDG 0, LDS 0, {{.*}} LDGSTS 1,
// SM90-LABEL: kernel stage: {{.*}} LDG 0, {{.*}} LDGSTS 3,
// SM75: kernel stage: {{.*}} LDG {{[1-9][0-9]*}}, {{.*}} LDGSTS 0,

extern "C" __global__ void stage(const float *__restrict__ x,
                                 float *__restrict__ y, int n) {
  __shared__ __align__(16) float tile[3 * 256];
  unsigned t = threadIdx.x;
  ens_cp_async<16>(&tile[4 * t], x + 4 * t, 16);
  ens_cp_async<8>(&tile[512 + 2 * t], x + 512 + 2 * t, n);
  ens_cp_async_commit();
  ens_cp_async<4>(&tile[640 + t], x + 640 + t, 4);
  ens_cp_async_commit();
  ens_cp_async_wait<1>();
  __syncthreads();
  y[t] = tile[(t + 1) % 64] + tile[512 + t % 128];
  ens_cp_async_wait<0>();
  __syncthreads();
  y[64 + t] = tile[640 + (t + 5) % 64];
}

extern "C" __global__ void copy_loop(const float *__restrict__ x,
                                     float *__restrict__ y, int n) {
  __shared__ float tile[2048];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    ens_cp_async<4>(&tile[i], x + i, 4);
  ens_cp_async_commit();
  ens_cp_async_wait<0>();
  __syncthreads();
  y[threadIdx.x] = tile[(threadIdx.x + 1) % 2048];
}
