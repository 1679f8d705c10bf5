// Scalar work that is the same at every point of a linalg.generic is
// written once per thread before the point loop: reads of 0-d and fully
// broadcast operands and the pure ops of those. In the training step, each
// Adam update's bias corrections (powf of beta1 and beta2 to the step) come
// before the loop over the parameter's elements, never inside it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %ens_src_root/examples/ensemble_train_step.mlir --entry=train_step --random-inputs=1 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-dump=%t/train --summary
// RUN: FileCheck %s --check-prefix=ADAM < %t/train/train_step.cu
// RUN: not grep -E '^ {6,}.*powf' %t/train/train_step.cu
// RUN: grep -cE '^    float v[0-9]+ = powf' %t/train/train_step.cu | FileCheck %s --check-prefix=HOISTED
//
// Four updates, each the epilogue of its gradient's phase (a warp
// reduction for the first, the output bias: its element loop starts at the
// warp's index; a contraction or a sum in points for the others, the
// weight gradients split within the block, whose thread takes one chunk
// of a tile, with no loop over points), each with its two corrections
// before its element loop (or point) and used inside it; no powf inside a
// point loop (indented six spaces or more) anywhere.
// HOISTED: {{^8$}}
// ADAM:      { // {{.*}}ens.pow
// ADAM-NOT:  for (ens_index p
// ADAM:      float [[P1:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B1:v[0-9]+]] = ({{v[0-9]+}} - [[P1]]);
// ADAM-NEXT: float [[P2:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B2:v[0-9]+]] = ({{v[0-9]+}} - [[P2]]);
// ADAM-NOT:  powf(
// ADAM:      ens_index p = {{threadIdx.x / 32|threadIdx.x|0}};
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B1]]);
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B2]]);
// ADAM-NOT:  powf(
// ADAM:      { // {{.*}}ens.pow
// ADAM-NOT:  for (ens_index p
// ADAM:      float [[P1:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B1:v[0-9]+]] = ({{v[0-9]+}} - [[P1]]);
// ADAM-NEXT: float [[P2:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B2:v[0-9]+]] = ({{v[0-9]+}} - [[P2]]);
// ADAM-NOT:  powf(
// ADAM:      ens_index p = {{threadIdx.x / 32|threadIdx.x|0}};
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B1]]);
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B2]]);
// ADAM-NOT:  powf(
// ADAM:      { // {{.*}}ens.pow
// ADAM-NOT:  for (ens_index p
// ADAM:      float [[P1:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B1:v[0-9]+]] = ({{v[0-9]+}} - [[P1]]);
// ADAM-NEXT: float [[P2:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B2:v[0-9]+]] = ({{v[0-9]+}} - [[P2]]);
// ADAM-NOT:  powf(
// ADAM:      ens_index p = {{threadIdx.x / 32|threadIdx.x|0}};
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B1]]);
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B2]]);
// ADAM-NOT:  powf(
// ADAM:      { // {{.*}}ens.pow
// ADAM-NOT:  for (ens_index p
// ADAM:      float [[P1:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B1:v[0-9]+]] = ({{v[0-9]+}} - [[P1]]);
// ADAM-NEXT: float [[P2:v[0-9]+]] = powf(
// ADAM-NEXT: float [[B2:v[0-9]+]] = ({{v[0-9]+}} - [[P2]]);
// ADAM-NOT:  powf(
// ADAM:      ens_index p = {{threadIdx.x / 32|threadIdx.x|0}};
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B1]]);
// ADAM-NOT:  powf(
// ADAM:      = ({{v[0-9]+}} / [[B2]]);
// ADAM-NOT:  powf(
//
// A grid of members, each scaling its 256 elements by exp of a shared
// scalar: expf once per thread.
// RUN: ens-run %s --entry=scale --random-inputs=3 --output-dir=%t/scale-ref
// RUN: ens-run %s --entry=scale --random-inputs=3 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-dump=%t/scale --rtol=0 --atol=0 --expect=%t/scale-ref/out0.npy
// RUN: FileCheck %s --check-prefix=SCALE < %t/scale/scale.cu
// SCALE:      float [[S:in[0-9]+]] = b1[0];
// SCALE-NEXT: float [[E:v[0-9]+]] = expf([[S]]);
// SCALE-NEXT: for (ens_index p = threadIdx.x; p < 256; p += blockDim.x) {
// SCALE-NOT:  expf(
// SCALE:      float [[V:v[0-9]+]] = ({{in[0-9]+}} * [[E]]);
// SCALE-NOT:  expf(

func.func @scale(%x: tensor<4x256xf32>, %s: tensor<f32>) -> tensor<4x256xf32> {
  %e = ens.exp %s : tensor<f32>
  %b = ens.broadcast_in_dim %e {dims = array<i64>} : tensor<f32> -> tensor<4x256xf32>
  %y = ens.mul %x, %b : tensor<4x256xf32>
  return %y : tensor<4x256xf32>
}
