// RUN: ens-opt %s --split-input-file --ens-autodiff --convert-ens-to-linalg --ens-inline --symbol-dce --canonicalize --ens-fuse-elementwise --canonicalize | FileCheck %s

// Max pooling's adjoint, where the windows tile the operand, searches for
// each window's first maximum beside the pooling in the forward pass
// (ens-autodiff); both read the same strided taps of the operand at the
// result's shape, so fusion makes them one op, which yields the pooled
// value for its later use (the loss) and the first maximum for the routing,
// and the routing no longer reads the operand.

func.func private @loss(%x: tensor<6x10xf32>) -> tensor<f32> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : tensor<6x10xf32> -> tensor<3x5xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1>} : tensor<3x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<6x10xf32>) -> (tensor<f32>, tensor<6x10xf32>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<6x10xf32>) -> (tensor<f32>, tensor<6x10xf32>)
  return %l, %g : tensor<f32>, tensor<6x10xf32>
}
// CHECK-LABEL: func.func @grads(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<6x10xf32>)
// CHECK:         %[[BOTH:.*]]:2 = linalg.generic {{.*}} ins({{.*}} : tensor<3x5xf32>, tensor<3x5xf32>, {{.*}}) outs({{.*}} : tensor<3x5xf32>, tensor<3x5xf32>)
// CHECK:           %[[M0:.*]] = arith.maximumf
// CHECK:           %[[M1:.*]] = arith.maximumf %[[M0]]
// CHECK:           %[[MAX:.*]] = arith.maximumf %[[M1]]
// CHECK-COUNT-4:   arith.cmpf oeq, %{{.*}}, %[[MAX]]
// CHECK:           linalg.yield %[[MAX]], %{{.*}} : f32, f32
// CHECK:         linalg.generic {{.*}} ins(%[[BOTH]]#0 : tensor<3x5xf32>) outs({{.*}} : tensor<f32>)
// CHECK:         %[[ROUTED:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[BOTH]]#1 : tensor<2x2xf32>, tensor<3x5xf32>) outs({{.*}} : tensor<3x2x5x2xf32>)
// CHECK-NOT:       arith.maximumf
// CHECK:         tensor.collapse_shape %[[ROUTED]]

// -----

// Overlapping windows (3x3, 2 apart) take the per-tap adjoint in the
// adjoint sweep: the forward pooling is a reduction of its own, yielding
// the pooled value alone.
func.func private @loss(%x: tensor<7x9xf32>) -> tensor<f32> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>} : tensor<7x9xf32> -> tensor<3x4xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1>} : tensor<3x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grads(%x: tensor<7x9xf32>) -> (tensor<f32>, tensor<7x9xf32>) {
  %l, %g = ens.value_and_grad @loss(%x) {wrt = array<i64: 0>} : (tensor<7x9xf32>) -> (tensor<f32>, tensor<7x9xf32>)
  return %l, %g : tensor<f32>, tensor<7x9xf32>
}
// CHECK-LABEL: func.func @grads(
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:        outs({{.*}} : tensor<3x4xf32>)
// CHECK:           arith.maximumf
// CHECK-NOT:       arith.cmpf
// CHECK:           linalg.yield %{{.*}} : f32
// CHECK:         linalg.generic {{.*}} ins(%[[Y]] : tensor<3x4xf32>) outs({{.*}} : tensor<f32>)
