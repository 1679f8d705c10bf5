// The forward pass of the 128-member MLP (examples/ensemble_mlp.mlir) is
// one kernel with a block per member (docs/pipeline.md explains it): each
// contraction stages the member's weights into shared memory (asynchronous
// copies, cp.async, behind one wait before the barrier; the inputs, shared
// by every member, stay in global memory, so the first layer loads 8 steps
// of them at a time, the second 4 of the hidden layer), gives each
// thread a register tile of its output (the hidden layer's 256x32 points
// are 32x8 tiles of 8x4, 256 in all: planTallTiles), and applies its
// epilogue (bias, tanh) to
// each point in registers; the hidden layer lives in shared memory and the
// output goes straight to the caller's buffer.
//
// RUN: rm -rf %t
// RUN: ens-run %ens_src_root/examples/ensemble_mlp.mlir --entry=ensemble_forward --random-inputs=1 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-dump=%t --summary
// RUN: FileCheck %s < %t/ensemble_forward.cu
// RUN: FileCheck %s --check-prefix=PLAN < %t/plan.txt
//
// CHECK-LABEL: extern "C" __global__ void k0_members(
// CHECK: const unsigned ens_block = blockIdx.x;
// CHECK: ENS_DYNAMIC_SHARED(ens_shared);
// CHECK: ens_index m = ens_block;
// CHECK: float *t0 = (float *)(ens_shared + 0);
// CHECK: { // ens.einsum, ens.add, ens.tanh
// CHECK: ens_cp_async<4>(&staged0[i], &b1[{{.*}}m * 2048
// CHECK: ens_cp_async_commit();
// CHECK-NEXT: ens_cp_async_wait<0>();
// CHECK-NEXT: __syncthreads();
// CHECK: for (ens_index p = threadIdx.x; p < 256; p += blockDim.x) {
// CHECK: float acc0_7_3 =
// CHECK: ens_index d3 = 0;
// CHECK-NEXT: const ens_index d3_end = 64;
// CHECK-NEXT: for (; d3 + 7 < d3_end; d3 += 8) {
// CHECK: float in0_7_0_u7 =
// CHECK: acc0_7_3 = v{{[0-9]+}};
// CHECK: for (; d3 < d3_end; ++d3) {
// CHECK: acc0_7_3 = v{{[0-9]+}};
// CHECK: tanhf(
// CHECK: t0[{{.*}}] = v{{[0-9]+}};
// CHECK: __syncthreads();
// CHECK: { // ens.einsum, ens.add
// CHECK: ens_cp_async<4>(&staged0[i], &b3[
// CHECK: for (; d3 + 3 < d3_end; d3 += 4) {
// CHECK: b5[{{.*}}m * 2048{{.*}}] = v{{[0-9]+}};
// The empty kernel that names the plan (ens/Runtime/Plan.h), last.
// CHECK: __global__ void ens_plan_{{[0-9a-f]+}}() {}
// CHECK-NOT: __global__
//
// PLAN: launch k0_members grid (128, 1, 1) block (256, 1, 1) shared 40960 bytes
// PLAN-NOT: launch
