// The producers of convolutions' padded inputs writing into the padding's
// interior on the CPU (ens-write-into-slices), against the interpreter: a
// member of cnn-wide at odd sizes (3 members, batch 5, 8x12 images pooled
// to 4x6 and 2x3, channels 1, 3 and 5), whose step pads three images. The
// second convolution's filter gradient pads a transposed copy of the first
// pooling's result, and its input gradient the second pooling's routed
// adjoint: both producers write into the padding. The second convolution
// pads the first pooling's result itself, which the backward pass reads
// again: that producer keeps its own buffer.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=step --random-inputs=7 --output-dir=%t/step
// RUN: ens-run %s --entry=step --random-inputs=7 --backend=cpu --rtol=1e-5 --atol=1e-5 \
// RUN:   --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy \
// RUN:   --expect=%t/step/out3.npy
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg \
// RUN:   --ens-cpu-pipeline="threads=1 vector-bytes=64" \
// RUN:   --mlir-print-ir-after=ens-write-into-slices -o %t/lowered.mlir 2> %t/written
// RUN: FileCheck %s < %t/written

func.func private @loss(%x: tensor<5x1x8x12xf32>, %w1: tensor<3x1x3x3xf32>,
                        %w2: tensor<5x3x3x3xf32>, %w3: tensor<30x7xf32>)
    -> tensor<f32> {
  %c1 = ens.conv %x, %w1 {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>,
                          out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<5x1x8x12xf32>, tensor<3x1x3x3xf32> -> tensor<5x3x8x12xf32>
  %r1 = ens.relu %c1 : tensor<5x3x8x12xf32>
  %p1 = ens.reduce_window max, %r1 {window_dimensions = array<i64: 1, 1, 2, 2>,
                                    window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<5x3x8x12xf32> -> tensor<5x3x4x6xf32>
  %c2 = ens.conv %p1, %w2 {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>,
                           out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<5x3x4x6xf32>, tensor<5x3x3x3xf32> -> tensor<5x5x4x6xf32>
  %r2 = ens.relu %c2 : tensor<5x5x4x6xf32>
  %p2 = ens.reduce_window max, %r2 {window_dimensions = array<i64: 1, 1, 2, 2>,
                                    window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<5x5x4x6xf32> -> tensor<5x5x2x3xf32>
  %f = ens.reshape %p2 : tensor<5x5x2x3xf32> -> tensor<5x30xf32>
  %z = ens.matmul %f, %w3 : tensor<5x30xf32>, tensor<30x7xf32> -> tensor<5x7xf32>
  %t = ens.tanh %z : tensor<5x7xf32>
  %l = ens.reduce_sum %t {dims = array<i64: 0, 1>} : tensor<5x7xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func private @member(%x: tensor<5x1x8x12xf32>, %w1: tensor<3x1x3x3xf32>,
                          %w2: tensor<5x3x3x3xf32>, %w3: tensor<30x7xf32>)
    -> (tensor<f32>, tensor<3x1x3x3xf32>, tensor<5x3x3x3xf32>, tensor<30x7xf32>) {
  %l, %g1, %g2, %g3 = ens.value_and_grad @loss(%x, %w1, %w2, %w3) {wrt = array<i64: 1, 2, 3>}
      : (tensor<5x1x8x12xf32>, tensor<3x1x3x3xf32>, tensor<5x3x3x3xf32>, tensor<30x7xf32>)
      -> (tensor<f32>, tensor<3x1x3x3xf32>, tensor<5x3x3x3xf32>, tensor<30x7xf32>)
  return %l, %g1, %g2, %g3 : tensor<f32>, tensor<3x1x3x3xf32>, tensor<5x3x3x3xf32>, tensor<30x7xf32>
}

func.func @step(%x: tensor<5x1x8x12xf32>, %w1: tensor<3x3x1x3x3xf32>,
                %w2: tensor<3x5x3x3x3xf32>, %w3: tensor<3x30x7xf32>)
    -> (tensor<3xf32>, tensor<3x3x1x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<3x30x7xf32>) {
  %l, %g1, %g2, %g3 = ens.vmap @member(%x, %w1, %w2, %w3)
      {in_axes = array<i64: -1, 0, 0, 0>, out_axes = array<i64: 0, 0, 0, 0>, size = 3 : i64}
      : (tensor<5x1x8x12xf32>, tensor<3x3x1x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<3x30x7xf32>)
      -> (tensor<3xf32>, tensor<3x3x1x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<3x30x7xf32>)
  return %l, %g1, %g2, %g3 : tensor<3xf32>, tensor<3x3x1x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<3x30x7xf32>
}

// CHECK-LABEL: func.func @step
// The first pooling's result, read again after its insert, keeps its own
// destination:
// CHECK-NOT:   tensor.extract_slice {{.*}}[0, 0, 1, 1] [5, 9, 4, 6]
// CHECK:       tensor.insert_slice {{.*}}[0, 0, 1, 1] [5, 9, 4, 6]
// the routed adjoint of the second pooling writes into the padding of the
// input gradient's convolution:
// CHECK:       %[[Z2:.*]] = scf.for {{.*}} -> (tensor<5x15x6x8xf32>)
// CHECK:       %[[S2:.*]] = tensor.extract_slice %[[Z2]][0, 0, 1, 1] [5, 15, 4, 6]
// CHECK-NEXT:  %[[X2:.*]] = tensor.expand_shape %[[S2]] {{.*}} into tensor<5x3x1x5x1x2x2x3x2xf32>
// CHECK-NEXT:  scf.for {{.*}} iter_args(%{{.*}} = %[[X2]])
// CHECK:       tensor.insert_slice %{{.*}} into %[[Z2]][0, 0, 1, 1] [5, 15, 4, 6]
// and the transposed copy of the first pooling's result into the padding
// of the filter gradient's.
// CHECK:       %[[Z3:.*]] = scf.for {{.*}} -> (tensor<15x3x6x8xf32>)
// CHECK:       %[[S3:.*]] = tensor.extract_slice %[[Z3]][0, 0, 1, 1] [15, 3, 4, 6]
// CHECK-NEXT:  %[[X3:.*]] = tensor.expand_shape %[[S3]] {{.*}} into tensor<3x5x3x4x6xf32>
// CHECK-NEXT:  scf.for {{.*}} iter_args(%{{.*}} = %[[X3]])
// CHECK:       tensor.insert_slice %{{.*}} into %[[Z3]][0, 0, 1, 1] [15, 3, 4, 6]
