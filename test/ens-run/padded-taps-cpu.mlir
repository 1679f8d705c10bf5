// Convolutions over flattened image rows (ens-cpu-split-reductions) whose
// image is padded: the copy per column tap is zeros with windows of the
// unpadded image, and the padded image is never made. Against the
// interpreter, at sizes that the tiles (32 positions) do not divide: a
// member of a two-convolution network at 6x8 images (48 positions; 3, 5
// and 7 channels, batch 5, 3 members), whose forward convolutions and
// input gradient are flattened inside the loop over the batch that fusion
// makes, and an input gradient padded on one side of each dimension alone
// (rows after the image, columns before it), whose taps read 6, 7 and 8
// of the copy's 8 columns.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=step --random-inputs=7 --output-dir=%t/step
// RUN: ens-run %s --entry=step --random-inputs=7 --backend=cpu --rtol=1e-5 --atol=1e-5 \
// RUN:   --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy
// RUN: ens-run %s --entry=one_sided --random-inputs=7 --output-dir=%t/one_sided
// RUN: ens-run %s --entry=one_sided --random-inputs=7 --backend=cpu --rtol=1e-5 --atol=1e-5 \
// RUN:   --expect=%t/one_sided/out0.npy
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg \
// RUN:   --ens-cpu-pipeline="threads=1 vector-bytes=64" \
// RUN:   --mlir-print-ir-after=ens-cpu-split-reductions -o %t/lowered.mlir 2> %t/split
// RUN: FileCheck %s --check-prefix=STEP < %t/split
// RUN: FileCheck %s --check-prefix=SIDED < %t/split
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg \
// RUN:   --ens-cpu-pipeline="threads=1 vector-bytes=64" \
// RUN:   --mlir-print-ir-after=ens-write-into-slices -o %t/lowered.mlir 2> %t/written
// RUN: FileCheck %s --check-prefix=PADS --implicit-check-not="tensor<5x21x8x10xf32>" \
// RUN:   --implicit-check-not="tensor<5x15x8x10xf32>" < %t/written

func.func private @loss(%x: tensor<5x3x6x8xf32>, %w1: tensor<5x3x3x3xf32>,
                        %w2: tensor<7x5x3x3xf32>) -> tensor<f32> {
  %c1 = ens.conv %x, %w1 {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>,
                          out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<5x3x6x8xf32>, tensor<5x3x3x3xf32> -> tensor<5x5x6x8xf32>
  %r1 = ens.relu %c1 : tensor<5x5x6x8xf32>
  %c2 = ens.conv %r1, %w2 {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>,
                           out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<5x5x6x8xf32>, tensor<7x5x3x3xf32> -> tensor<5x7x6x8xf32>
  %t = ens.tanh %c2 : tensor<5x7x6x8xf32>
  %l = ens.reduce_sum %t {dims = array<i64: 0, 1, 2, 3>} : tensor<5x7x6x8xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func private @member(%x: tensor<5x3x6x8xf32>, %w1: tensor<5x3x3x3xf32>,
                          %w2: tensor<7x5x3x3xf32>)
    -> (tensor<f32>, tensor<5x3x3x3xf32>, tensor<7x5x3x3xf32>) {
  %l, %g1, %g2 = ens.value_and_grad @loss(%x, %w1, %w2) {wrt = array<i64: 1, 2>}
      : (tensor<5x3x6x8xf32>, tensor<5x3x3x3xf32>, tensor<7x5x3x3xf32>)
      -> (tensor<f32>, tensor<5x3x3x3xf32>, tensor<7x5x3x3xf32>)
  return %l, %g1, %g2 : tensor<f32>, tensor<5x3x3x3xf32>, tensor<7x5x3x3xf32>
}

func.func @step(%x: tensor<5x3x6x8xf32>, %w1: tensor<3x5x3x3x3xf32>,
                %w2: tensor<3x7x5x3x3xf32>)
    -> (tensor<3xf32>, tensor<3x5x3x3x3xf32>, tensor<3x7x5x3x3xf32>) {
  %l, %g1, %g2 = ens.vmap @member(%x, %w1, %w2)
      {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0, 0, 0>, size = 3 : i64}
      : (tensor<5x3x6x8xf32>, tensor<3x5x3x3x3xf32>, tensor<3x7x5x3x3xf32>)
      -> (tensor<3xf32>, tensor<3x5x3x3x3xf32>, tensor<3x7x5x3x3xf32>)
  return %l, %g1, %g2 : tensor<3xf32>, tensor<3x5x3x3x3xf32>, tensor<3x7x5x3x3xf32>
}

func.func @one_sided(%dy: tensor<3x6x6x8xf32>, %w: tensor<6x5x3x3xf32>) -> tensor<3x5x6x8xf32> {
  %0 = ens.conv %dy, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                         out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 0, 2, 2, 0>,
                         rhs_dims = array<i64: 1, 0, 2, 3>}
      : tensor<3x6x6x8xf32>, tensor<6x5x3x3xf32> -> tensor<3x5x6x8xf32>
  return %0 : tensor<3x5x6x8xf32>
}

// STEP-LABEL: func.func @step(
// The input gradient, in the loop over the batch: its copy is zeros, and
// each tap's window of the unpadded output gradient (a slice of the
// loop's example) lies in rows 1 to 6, in columns 1 to 7, 0 to 7 and 0 to
// 6.
// STEP:         %[[DY:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0, 0, 0, 0] [1, 3, 7, 6, 8]
// STEP:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3x7x3x8x8xf32>)
// STEP:         tensor.extract_slice %[[DY]][0, 0, 0, 0, 0] [1, 3, 7, 6, 7]
// STEP:         %[[T0:.*]] = tensor.insert_slice %{{.*}} into %[[ZEROS]][0, 0, 0, 0, 1, 1] [1, 3, 7, 1, 6, 7]
// STEP:         %[[T1:.*]] = tensor.insert_slice %{{.*}} into %[[T0]][0, 0, 0, 1, 1, 0] [1, 3, 7, 1, 6, 8]
// STEP:         tensor.extract_slice %[[DY]][0, 0, 0, 0, 1] [1, 3, 7, 6, 7]
// STEP:         %[[T2:.*]] = tensor.insert_slice %{{.*}} into %[[T1]][0, 0, 0, 2, 1, 0] [1, 3, 7, 1, 6, 7]
// STEP:         tensor.collapse_shape %[[T2]] {{\[}}[0], [1], [2], [3, 4, 5]] : tensor<1x3x7x3x8x8xf32> into tensor<1x3x7x192xf32>

// The padded images of the second convolution's input and of the input
// gradient's output gradient are gone once the split convolutions no
// longer read them; the filter gradients, which are not split, still read
// the padded input and first activation.
// PADS-LABEL: func.func @step(
// PADS-DAG:   tensor<5x3x8x10xf32>
// PADS-DAG:   tensor<15x5x8x10xf32>

// SIDED-LABEL: func.func @one_sided(
// SIDED-SAME:    %[[DY:[^:]*]]: tensor<3x6x6x8xf32>
// SIDED:         %[[EX:.*]] = tensor.extract_slice %[[DY]][%{{.*}}, 0, 0, 0] [1, 6, 6, 8]
// SIDED:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x3x8x8xf32>)
// SIDED:         tensor.extract_slice %[[EX]][0, 0, 0, 0] [1, 6, 6, 6]
// SIDED:         %[[T0:.*]] = tensor.insert_slice %{{.*}} into %[[ZEROS]][0, 0, 0, 0, 2] [1, 6, 1, 6, 6]
// SIDED:         tensor.extract_slice %[[EX]][0, 0, 0, 0] [1, 6, 6, 7]
// SIDED:         %[[T1:.*]] = tensor.insert_slice %{{.*}} into %[[T0]][0, 0, 1, 0, 1] [1, 6, 1, 6, 7]
// SIDED:         %[[T2:.*]] = tensor.insert_slice %{{.*}} into %[[T1]][0, 0, 2, 0, 0] [1, 6, 1, 6, 8]
