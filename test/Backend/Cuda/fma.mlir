// Multiply-adds round once: a contraction's step, and an elementwise
// multiply whose only use is an add, are emitted as fmaf (fma in f64), which
// NVRTC (--fmad=false) and the emulator (-ffp-contract=off) compile to one
// correctly rounded operation each; a product used twice is not fused.
// docs/cuda.md ("FMA, tolerances and hoisting") derives the tolerances
// against the interpreter, which rounds every op to f32 from double.
//
// RUN: rm -rf %t && mkdir -p %t
//
// K = 256, inputs in [-1, 1): the error of an f32 dot product is about
// sqrt(K) u sum|a_i b_i| = 16 * 2^-24 * 64 ~ 6e-5 (at most K u sum|a_i b_i|
// ~ 1e-3).
// RUN: ens-run %s --entry=matmul --random-inputs=7 --output-dir=%t/matmul-ref
// RUN: ens-run %s --entry=matmul --random-inputs=7 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-dump=%t/matmul --rtol=0 --atol=1e-4 --expect=%t/matmul-ref/out0.npy
// RUN: FileCheck %s --check-prefix=MATMUL < %t/matmul/matmul.cu
// Four steps at a time, their loads first (64 iterations, which ptxas
// keeps a loop: #pragma unroll 1), then one step at a time for
// the steps left (none here); each step's fmaf in order.
// MATMUL:      float acc0 = v0;
// MATMUL-NEXT: ens_index d2 = 0;
// MATMUL-NEXT: #pragma unroll 1
// MATMUL-NEXT: for (; d2 + 3 < 256; d2 += 4) {
// MATMUL-NEXT:   float in0_u0 = staged0[{{.*}} d2 * 1];
// MATMUL-NEXT:   float in1_u0 = b1[{{.*}} d2 * 32
// MATMUL-NEXT:   float in0_u1 = staged0[{{.*}} (d2 + 1) * 1];
// MATMUL-NEXT:   float in1_u1 = b1[{{.*}} (d2 + 1) * 32
// MATMUL-NEXT:   float in0_u2 = staged0[{{.*}} (d2 + 2) * 1];
// MATMUL-NEXT:   float in1_u2 = b1[{{.*}} (d2 + 2) * 32
// MATMUL-NEXT:   float in0_u3 = staged0[{{.*}} (d2 + 3) * 1];
// MATMUL-NEXT:   float in1_u3 = b1[{{.*}} (d2 + 3) * 32
// MATMUL-NEXT:   float [[V0:v[0-9]+]] = fmaf(in0_u0, in1_u0, acc0);
// MATMUL-NEXT:   acc0 = [[V0]];
// MATMUL-NEXT:   float [[V1:v[0-9]+]] = fmaf(in0_u1, in1_u1, acc0);
// MATMUL-NEXT:   acc0 = [[V1]];
// MATMUL-NEXT:   float [[V2:v[0-9]+]] = fmaf(in0_u2, in1_u2, acc0);
// MATMUL-NEXT:   acc0 = [[V2]];
// MATMUL-NEXT:   float [[V3:v[0-9]+]] = fmaf(in0_u3, in1_u3, acc0);
// MATMUL-NEXT:   acc0 = [[V3]];
// MATMUL-NEXT: }
// MATMUL-NEXT: for (; d2 < 256; ++d2) {
// MATMUL-NEXT:   float in0 = staged0[
// MATMUL-NEXT:   float in1 = b1[
// MATMUL-NEXT:   float [[V:v[0-9]+]] = fmaf(in0, in1, acc0);
// MATMUL-NEXT:   acc0 = [[V]];
// MATMUL-NEXT: }
//
// The f64 interpreter accumulates in double as the kernel does.
// RUN: ens-run %s --entry=matmul_f64 --random-inputs=7 --output-dir=%t/f64-ref
// RUN: ens-run %s --entry=matmul_f64 --random-inputs=7 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-dump=%t/f64 --rtol=1e-12 --atol=1e-12 --expect=%t/f64-ref/out0.npy
// RUN: FileCheck %s --check-prefix=F64 < %t/f64/matmul_f64.cu
// F64: for (; d2 + 3 < 64; d2 += 4) {
// F64: double [[V:v[0-9]+]] = fma(in0_u0, in1_u0, acc0);
// F64-NEXT: acc0 = [[V]];
//
// One rounding of x * y + z against the interpreter's two differs by at
// most u |x y| + 2 u |x y + z| (u = 2^-24, |x y| < 1).
// RUN: ens-run %s --entry=muladd --random-inputs=7 --output-dir=%t/muladd-ref
// RUN: ens-run %s --entry=muladd --random-inputs=7 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-dump=%t/muladd --rtol=1.2e-7 --atol=6e-8 --expect=%t/muladd-ref/out0.npy
// RUN: FileCheck %s --check-prefix=MULADD < %t/muladd/muladd.cu
// MULADD:      for (ens_index p = threadIdx.x; p < 256; p += blockDim.x) {
// MULADD:        float in0 = b0[
// MULADD-NEXT:   float in1 = b1[
// MULADD-NEXT:   float in2 = b2[
// MULADD-NEXT:   float [[V:v[0-9]+]] = fmaf(in0, in1, in2);
// MULADD-NEXT:   acc0 = [[V]];
//
// RUN: ens-run %s --entry=product_twice --random-inputs=7 --output-dir=%t/twice-ref
// RUN: ens-run %s --entry=product_twice --random-inputs=7 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-dump=%t/twice --rtol=0 --atol=0 --expect=%t/twice-ref/out0.npy
// RUN: FileCheck %s --check-prefix=TWICE < %t/twice/product_twice.cu
// TWICE-NOT:   fmaf(
// TWICE:       float [[P:v[0-9]+]] = (in0 * in1);
// TWICE-NEXT:  float [[S:v[0-9]+]] = ([[P]] + in2);
// TWICE-NEXT:  float {{v[0-9]+}} = ([[S]] * [[P]]);
// TWICE-NOT:   fmaf(

func.func @matmul(%a: tensor<64x256xf32>, %b: tensor<256x32xf32>) -> tensor<64x32xf32> {
  %c = ens.matmul %a, %b : tensor<64x256xf32>, tensor<256x32xf32> -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

func.func @matmul_f64(%a: tensor<16x64xf64>, %b: tensor<64x8xf64>) -> tensor<16x8xf64> {
  %c = ens.matmul %a, %b : tensor<16x64xf64>, tensor<64x8xf64> -> tensor<16x8xf64>
  return %c : tensor<16x8xf64>
}

func.func @muladd(%x: tensor<4x256xf32>, %y: tensor<4x256xf32>,
                  %z: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %p = ens.mul %x, %y : tensor<4x256xf32>
  %s = ens.add %p, %z : tensor<4x256xf32>
  return %s : tensor<4x256xf32>
}

func.func @product_twice(%x: tensor<4x256xf32>, %y: tensor<4x256xf32>,
                         %z: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %p = ens.mul %x, %y : tensor<4x256xf32>
  %s = ens.add %p, %z : tensor<4x256xf32>
  %t = ens.mul %s, %p : tensor<4x256xf32>
  return %t : tensor<4x256xf32>
}
