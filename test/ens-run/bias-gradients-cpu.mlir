// Bias and filter gradients summed inside the loops over the batch on the
// CPU (ens-cpu-reduce-in-loops), against the interpreter: a member of
// cnn-wide with biases at odd sizes (3 members, batch 5, 46x62 images
// pooled to 23x31 and 11x15, channels 8 and 5). Each convolution's bias
// gradient sums the pooling's routed adjoint over the batch and the image,
// and the first convolution's filter gradient multiplies it with the
// padded input image. The loop over the batch that routes the first
// pooling's adjoint (1.4 MB) computes a partial bias and filter gradient
// per example, reading that example's image (whose padding moves before
// the loop), and the sums over the batch read those after the loop. The
// gradients sum 14,260 terms in f32 against the interpreter's double:
// main's results differ from it by up to 4.7e-4 (of values up to 23), the
// branch's from main's by 6e-6.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=step --random-inputs=11 --output-dir=%t/step
// RUN: ens-run %s --entry=step --random-inputs=11 --backend=cpu --rtol=1e-4 --atol=2e-3 \
// RUN:   --expect=%t/step/out0.npy --expect=%t/step/out1.npy --expect=%t/step/out2.npy \
// RUN:   --expect=%t/step/out3.npy --expect=%t/step/out4.npy
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg \
// RUN:   --ens-cpu-pipeline="threads=1 vector-bytes=64" \
// RUN:   --mlir-print-ir-after=ens-cpu-reduce-in-loops -o %t/lowered.mlir 2> %t/reduced
// RUN: FileCheck %s < %t/reduced

func.func private @loss(%x: tensor<5x1x46x62xf32>, %w1: tensor<8x1x3x3xf32>, %b1: tensor<8xf32>,
                        %w2: tensor<5x8x3x3xf32>, %b2: tensor<5xf32>, %w3: tensor<825x7xf32>)
    -> tensor<f32> {
  %c1 = ens.conv %x, %w1 {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>,
                          out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<5x1x46x62xf32>, tensor<8x1x3x3xf32> -> tensor<5x8x46x62xf32>
  %bb1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<8xf32> -> tensor<5x8x46x62xf32>
  %a1 = ens.add %c1, %bb1 : tensor<5x8x46x62xf32>
  %r1 = ens.relu %a1 : tensor<5x8x46x62xf32>
  %p1 = ens.reduce_window max, %r1 {window_dimensions = array<i64: 1, 1, 2, 2>,
                                    window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<5x8x46x62xf32> -> tensor<5x8x23x31xf32>
  %c2 = ens.conv %p1, %w2 {lhs_dims = array<i64: 0, 1, 2, 3>, rhs_dims = array<i64: 0, 1, 2, 3>,
                           out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<5x8x23x31xf32>, tensor<5x8x3x3xf32> -> tensor<5x5x23x31xf32>
  %bb2 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<5xf32> -> tensor<5x5x23x31xf32>
  %a2 = ens.add %c2, %bb2 : tensor<5x5x23x31xf32>
  %r2 = ens.relu %a2 : tensor<5x5x23x31xf32>
  %p2 = ens.reduce_window max, %r2 {window_dimensions = array<i64: 1, 1, 2, 2>,
                                    window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<5x5x23x31xf32> -> tensor<5x5x11x15xf32>
  %f = ens.reshape %p2 : tensor<5x5x11x15xf32> -> tensor<5x825xf32>
  %z = ens.matmul %f, %w3 : tensor<5x825xf32>, tensor<825x7xf32> -> tensor<5x7xf32>
  %t = ens.tanh %z : tensor<5x7xf32>
  %l = ens.reduce_sum %t {dims = array<i64: 0, 1>} : tensor<5x7xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func private @member(%x: tensor<5x1x46x62xf32>, %w1: tensor<8x1x3x3xf32>, %b1: tensor<8xf32>,
                          %w2: tensor<5x8x3x3xf32>, %b2: tensor<5xf32>, %w3: tensor<825x7xf32>)
    -> (tensor<f32>, tensor<8x1x3x3xf32>, tensor<8xf32>, tensor<5x8x3x3xf32>, tensor<5xf32>) {
  %l, %g1, %gb1, %g2, %gb2 = ens.value_and_grad @loss(%x, %w1, %b1, %w2, %b2, %w3) {wrt = array<i64: 1, 2, 3, 4>}
      : (tensor<5x1x46x62xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>, tensor<5x8x3x3xf32>, tensor<5xf32>, tensor<825x7xf32>)
      -> (tensor<f32>, tensor<8x1x3x3xf32>, tensor<8xf32>, tensor<5x8x3x3xf32>, tensor<5xf32>)
  return %l, %g1, %gb1, %g2, %gb2 : tensor<f32>, tensor<8x1x3x3xf32>, tensor<8xf32>, tensor<5x8x3x3xf32>, tensor<5xf32>
}

func.func @step(%x: tensor<5x1x46x62xf32>, %w1: tensor<3x8x1x3x3xf32>, %b1: tensor<3x8xf32>,
                %w2: tensor<3x5x8x3x3xf32>, %b2: tensor<3x5xf32>, %w3: tensor<3x825x7xf32>)
    -> (tensor<3xf32>, tensor<3x8x1x3x3xf32>, tensor<3x8xf32>, tensor<3x5x8x3x3xf32>, tensor<3x5xf32>) {
  %l, %g1, %gb1, %g2, %gb2 = ens.vmap @member(%x, %w1, %b1, %w2, %b2, %w3)
      {in_axes = array<i64: -1, 0, 0, 0, 0, 0>, out_axes = array<i64: 0, 0, 0, 0, 0>, size = 3 : i64}
      : (tensor<5x1x46x62xf32>, tensor<3x8x1x3x3xf32>, tensor<3x8xf32>, tensor<3x5x8x3x3xf32>, tensor<3x5xf32>, tensor<3x825x7xf32>)
      -> (tensor<3xf32>, tensor<3x8x1x3x3xf32>, tensor<3x8xf32>, tensor<3x5x8x3x3xf32>, tensor<3x5xf32>)
  return %l, %g1, %gb1, %g2, %gb2 : tensor<3xf32>, tensor<3x8x1x3x3xf32>, tensor<3x8xf32>, tensor<3x5x8x3x3xf32>, tensor<3x5xf32>
}

// CHECK-LABEL: func.func @step
// The second layer's routed adjoint, 213 KB, which the sum reads back from
// cache, is summed after its loop as before:
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<5x3x5x23x31xf32>) outs(%{{.*}} : tensor<3x5xf32>)
// the first layer's gets a partial bias and filter gradient per example in
// its loop:
// CHECK:       %[[LOOP:.*]]:3 = scf.forall (%[[I:.*]]) in (5) shared_outs({{.*}}) -> (tensor<5x3x1x8x1x23x2x31x2xf32>, tensor<5x3x8xf32>, tensor<5x24x1x3x3xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<1x3x8x46x62xf32>) outs(%{{.*}} : tensor<1x3x8xf32>)
// CHECK:         %[[IMAGE:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0, 0, 0] [1, 1, 48, 64] [1, 1, 1, 1] : tensor<5x1x48x64xf32> to tensor<1x1x48x64xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[IMAGE]], %{{.*}} : tensor<1x1x48x64xf32>, tensor<1x24x46x62xf32>) outs(%{{.*}} : tensor<1x24x1x3x3xf32>)
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], 0, 0] [1, 3, 8]
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], 0, 0, 0, 0] [1, 24, 1, 3, 3]
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[LOOP]]#1 : tensor<5x3x8xf32>) outs(%{{.*}} : tensor<3x8xf32>)
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "parallel", "parallel"]} ins(%[[LOOP]]#2 : tensor<5x24x1x3x3xf32>) outs(%{{.*}} : tensor<24x1x3x3xf32>)
