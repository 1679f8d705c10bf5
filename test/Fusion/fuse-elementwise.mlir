// RUN: ens-opt %s --split-input-file --ens-fuse-elementwise | FileCheck %s

// An elementwise chain becomes one op.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @chain(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%t, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %r = arith.mulf %x, %z : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A producer of a contraction stays a producer: fused, it would be
// recomputed for every step of the reduction.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @contraction_operand
// CHECK: math.tanh
// CHECK: linalg.yield
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
// CHECK-NOT: math.tanh
func.func @contraction_operand(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>,
                               %acc: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %z : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A broadcast of a 0-d hyperparameter is recomputed where it is read
// through a projection, but not inside a reduction loop.
#scalar = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
#row = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#sum = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @broadcast_scalar
// CHECK: %[[LR:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel"]
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %arg1 : tensor<f32>, tensor<3x4xf32>)
// CHECK: arith.mulf %[[IN:.*]], %[[IN]]
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
// CHECK-SAME: ins(%[[LR]], %arg1 : tensor<4xf32>, tensor<3x4xf32>)
func.func @broadcast_scalar(%lr: tensor<f32>, %g: tensor<3x4xf32>,
                            %init: tensor<3xf32>)
    -> (tensor<3x4xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#scalar, #id1], iterator_types = ["parallel"]}
      ins(%lr : tensor<f32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<3x4xf32>
  %u = linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b, %g : tensor<4xf32>, tensor<3x4xf32>) outs(%e2 : tensor<3x4xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %r = arith.subf %z, %x : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  %s = linalg.generic {indexing_maps = [#row, #id2, #sum], iterator_types = ["parallel", "reduction"]}
      ins(%b, %g : tensor<4xf32>, tensor<3x4xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %z : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %u, %s : tensor<3x4xf32>, tensor<3xf32>
}

// -----

// An op that reads its outputs' initial values is not computed from
// scalars: fusing it into a larger iteration space would accumulate into
// its result several times.
#id1 = affine_map<(d0) -> (d0)>
#row = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @reads_init
// CHECK: linalg.generic
// CHECK-SAME: outs(%arg0 : tensor<1xf32>)
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<1xf32>)
func.func @reads_init(%init: tensor<1xf32>) -> tensor<3x1xf32> {
  %c = arith.constant 5.0e-01 : f32
  %m = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]}
      outs(%init : tensor<1xf32>) {
  ^bb0(%o: f32):
    %r = arith.maximumf %o, %c : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %e = tensor.empty() : tensor<3x1xf32>
  %b = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<1xf32>) outs(%e : tensor<3x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<3x1xf32>
  return %b : tensor<3x1xf32>
}

// -----

// A producer also used after its consumer is computed once: the fused op
// yields its result for the later use too.
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @used_after
// CHECK: %[[F:.*]]:2 = linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return %[[F]]#{{.}}, %[[F]]#{{.}}
func.func @used_after(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}

// -----

// A producer read twice by one consumer is computed once: fusing it through
// one operand would leave it in place for the other and fuse it again.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @read_twice
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK-NOT: math.tanh
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @read_twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %r = arith.mulf %x, %z : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A mask read after a collapse of its producer (relu's mask after a max
// pooling's routing, which writes the windows' shape) runs in the
// producer's shape, reading its other operand expanded, and the two fuse.
// The same consumer of a producer that is also used elsewhere keeps its
// shape: the producer stays, and so does the consumer's pass.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @mask_after_collapse
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x2xf32>, %[[R:.*]]: tensor<2x6xf32>)
// CHECK: %[[RX:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0], [1, 2]] output_shape [2, 3, 2]
// CHECK: %[[M:.*]] = linalg.generic
// CHECK-SAME: ins(%[[RX]], %[[A]] : tensor<2x3x2xf32>, tensor<2x3x2xf32>)
// CHECK: math.tanh
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK-NOT: linalg.generic
// CHECK: tensor.collapse_shape %[[M]] {{\[\[}}0], [1, 2]] : tensor<2x3x2xf32> into tensor<2x6xf32>
func.func @mask_after_collapse(%a: tensor<2x3x2xf32>, %r: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %e3 = tensor.empty() : tensor<2x3x2xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x2xf32>) outs(%e3 : tensor<2x3x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.tanh %x : f32
    linalg.yield %v : f32
  } -> tensor<2x3x2xf32>
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x2xf32> into tensor<2x6xf32>
  %e2 = tensor.empty() : tensor<2x6xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r, %c : tensor<2x6xf32>, tensor<2x6xf32>) outs(%e2 : tensor<2x6xf32>) {
  ^bb0(%x: f32, %g: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %zero : f32
    %v = arith.select %p, %g, %zero : f32
    linalg.yield %v : f32
  } -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// CHECK-LABEL: func.func @collapsed_producer_used_twice
// CHECK: math.tanh
// CHECK: tensor.collapse_shape
// CHECK: linalg.generic
// CHECK-SAME: tensor<2x6xf32>, tensor<2x6xf32>
// CHECK: arith.cmpf ogt
func.func @collapsed_producer_used_twice(%a: tensor<2x3x2xf32>, %r: tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x3x2xf32>) {
  %e3 = tensor.empty() : tensor<2x3x2xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x2xf32>) outs(%e3 : tensor<2x3x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.tanh %x : f32
    linalg.yield %v : f32
  } -> tensor<2x3x2xf32>
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x2xf32> into tensor<2x6xf32>
  %e2 = tensor.empty() : tensor<2x6xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r, %c : tensor<2x6xf32>, tensor<2x6xf32>) outs(%e2 : tensor<2x6xf32>) {
  ^bb0(%x: f32, %g: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %zero : f32
    %v = arith.select %p, %g, %zero : f32
    linalg.yield %v : f32
  } -> tensor<2x6xf32>
  return %y, %t : tensor<2x6xf32>, tensor<2x3x2xf32>
}
