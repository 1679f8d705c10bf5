// The width of a loop's index arithmetic (lib/Backend/Cuda/IndexWidth.cpp):
// its kernels count and index in 32 bits where no index they compute can
// reach 2^31. The plan bounds every index by the largest of: the members,
// the elements of each buffer the loop reads or writes (one allocated in
// the loop once per member), and the points of each op (all its loops, the
// reduction's too) for all members. 32 bits where that is at most 2^30, so
// that a counter one step past its bound still fits.
//
// RUN: ens-run %s --entry=fits --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=FITS
// RUN: ens-run %s --entry=past --cuda-plan --cuda-strategy=member-per-block | FileCheck %s --check-prefix=PAST
// RUN: ens-run %s --entry=past --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=PAST-TILED
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg --ens-cuda-pipeline --ens-cuda-generalize --ens-cuda-merge-elementwise --ens-cuda-plan=target=h100-sxm -o %t.mlir
// RUN: FileCheck %s --check-prefix=ATTR < %t.mlir
//
// The kernels' source names the width once, as the type of their indices.
// RUN: rm -rf %t.one %t.two
// RUN: ens-run %s --entry=fits --kernel-report=json --cuda-strategy=member-per-block --cuda-dump=%t.one > %t.one.json
// RUN: FileCheck %s --check-prefix=SOURCE32 < %t.one/fits.cu
// RUN: ens-run %s --entry=past --kernel-report=json --cuda-strategy=member-per-block --cuda-dump=%t.two > %t.two.json
// RUN: FileCheck %s --check-prefix=SOURCE64 < %t.two/past.cu

// Two members of x (512x1024) times w (1024x1024): the products have
// 2 * 512 * 1024 * 1024 = 2^30 points, the buffers at most 2^21
// elements: 32 bits.
// FITS: kernel k0_members: member-per-block, 2 members, 256 threads, {{[0-9]+}} bytes of shared memory, 32-bit indices
// SOURCE32: __global__ void k0_members(
// SOURCE32-NEXT: typedef int ens_index;
// SOURCE32: for (ens_index p =

// With x 1024x1024: 2 * 2^30 = 2^31 points, past 2^30: 64 bits, with
// either strategy (the bound does not depend on it).
// PAST: kernel k0_members: member-per-block, 2 members, 256 threads, {{[0-9]+}} bytes of shared memory, 64-bit indices
// PAST-TILED: loop: tiled, 2 members, 256 threads, 0 bytes of shared memory, 64-bit indices
// SOURCE64: __global__ void k0_members(
// SOURCE64-NEXT: typedef long long ens_index;

// The plan records the width in the loop's config.
// ATTR: func.func @fits(
// ATTR: ens_cuda.kernel_config = {index_bits = 32 : i64,
// ATTR: func.func @past(
// ATTR: ens_cuda.kernel_config = {index_bits = 64 : i64,

func.func @half(%x: tensor<512x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<512x1024xf32> {
  %y = ens.matmul %x, %w : tensor<512x1024xf32>, tensor<1024x1024xf32> -> tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}

func.func @fits(%x: tensor<512x1024xf32>, %w: tensor<2x1024x1024xf32>) -> tensor<2x512x1024xf32> {
  %y = ens.vmap @half(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<512x1024xf32>, tensor<2x1024x1024xf32>) -> tensor<2x512x1024xf32>
  return %y : tensor<2x512x1024xf32>
}

func.func @whole(%x: tensor<1024x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %y = ens.matmul %x, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}

func.func @past(%x: tensor<1024x1024xf32>, %w: tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32> {
  %y = ens.vmap @whole(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<1024x1024xf32>, tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  return %y : tensor<2x1024x1024xf32>
}
