// RUN: ens-opt %s --split-input-file --ens-write-into-slices | FileCheck %s

// A producer whose result, collapsed, is inserted into the interior of a
// padded tensor computes into that interior: the padding's zeros move
// before it, and its destination is their slice, expanded to its shape.
// CHECK-LABEL: func.func @collapsed
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x5xf32>)
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<6x7xf32>
// CHECK:       %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<6x7xf32>)
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[Z]][0, 1] [6, 5] [1, 1]
// CHECK:       %[[X:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [2, 3, 5]
// CHECK:       %[[P:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<2x3x5xf32>) outs(%[[X]] : tensor<2x3x5xf32>)
// CHECK:       %[[C:.*]] = tensor.collapse_shape %[[P]]
// CHECK:       tensor.insert_slice %[[C]] into %[[Z]][0, 1] [6, 5] [1, 1]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @collapsed(%a: tensor<2x3x5xf32>) -> tensor<6x7xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x3x5xf32>
  %p = linalg.generic {indexing_maps = [#id3, #id3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x5xf32>) outs(%empty : tensor<2x3x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x3x5xf32>
  %c = tensor.collapse_shape %p [[0, 1], [2]] : tensor<2x3x5xf32> into tensor<6x5xf32>
  %e = tensor.empty() : tensor<6x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
  %i = tensor.insert_slice %c into %z[0, 1] [6, 5] [1, 1] : tensor<6x5xf32> into tensor<6x7xf32>
  return %i : tensor<6x7xf32>
}

// -----

// An scf.forall producer (a loop over the batch, as fusion makes) and a
// tiled fill, itself an scf.forall, with no reshape between them.
// CHECK-LABEL: func.func @loops
// CHECK:       %[[Z:.*]] = scf.forall {{.*}} -> (tensor<4x6x6xf32>)
// CHECK:         linalg.fill
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[Z]][0, 1, 1] [4, 4, 4] [1, 1, 1]
// CHECK:       %[[P:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[S]]) -> (tensor<4x4x4xf32>)
// CHECK:       tensor.insert_slice %[[P]] into %[[Z]][0, 1, 1] [4, 4, 4] [1, 1, 1]
func.func @loops(%a: tensor<4x4x4xf32>) -> tensor<4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x4x4xf32>
  %p = scf.forall (%n) in (4) shared_outs(%out = %empty) -> (tensor<4x4x4xf32>) {
    %s = tensor.extract_slice %a[%n, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<4x4x4xf32> to tensor<1x4x4xf32>
    %t = tensor.empty() : tensor<1x4x4xf32>
    %r = linalg.abs ins(%s : tensor<1x4x4xf32>) outs(%t : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %out[%n, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<1x4x4xf32> into tensor<4x4x4xf32>
    }
  }
  %e = tensor.empty() : tensor<4x6x6xf32>
  %z = scf.forall (%n) in (4) shared_outs(%out = %e) -> (tensor<4x6x6xf32>) {
    %t = tensor.empty() : tensor<1x6x6xf32>
    %f = linalg.fill ins(%zero : f32) outs(%t : tensor<1x6x6xf32>) -> tensor<1x6x6xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %out[%n, 0, 0] [1, 6, 6] [1, 1, 1] : tensor<1x6x6xf32> into tensor<4x6x6xf32>
    }
  }
  %i = tensor.insert_slice %p into %z[0, 1, 1] [4, 4, 4] [1, 1, 1] : tensor<4x4x4xf32> into tensor<4x6x6xf32>
  return %i : tensor<4x6x6xf32>
}

// -----

// Not rewritten: the producer's result is read again after the insert
// (bufferization would copy it out of the slice and back).
// CHECK-LABEL: func.func @read_after
// CHECK:       linalg.abs ins(%{{.*}}) outs(%[[E:.*]] : tensor<4x4xf32>)
// CHECK-NOT:   tensor.extract_slice
func.func @read_after(%a: tensor<4x4xf32>) -> (tensor<4x6xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x4xf32>
  %p = linalg.abs ins(%a : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %i = tensor.insert_slice %p into %z[0, 1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x6xf32>
  %empty2 = tensor.empty() : tensor<4x4xf32>
  %q = linalg.exp ins(%p : tensor<4x4xf32>) outs(%empty2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %i, %q : tensor<4x6xf32>, tensor<4x4xf32>
}

// -----

// Not rewritten: the producer accumulates into its destination, which is
// no tensor.empty.
// CHECK-LABEL: func.func @accumulates
// CHECK-NOT:   tensor.extract_slice
func.func @accumulates(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %p = linalg.add ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  %i = tensor.insert_slice %p into %z[0, 1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x6xf32>
  return %i : tensor<4x6xf32>
}

// -----

// Not rewritten: an expand_shape between the producer and the insert (its
// inverse would collapse a strided slice).
// CHECK-LABEL: func.func @expanded
// CHECK-NOT:   tensor.extract_slice
func.func @expanded(%a: tensor<8xf32>) -> tensor<2x6xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %p = linalg.abs ins(%a : tensor<8xf32>) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %x = tensor.expand_shape %p [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6xf32>) -> tensor<2x6xf32>
  %i = tensor.insert_slice %x into %z[0, 1] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x6xf32>
  return %i : tensor<2x6xf32>
}

// -----

// Not rewritten: the destination depends on the producer, so it cannot be
// computed before it.
// CHECK-LABEL: func.func @dependent_destination
// CHECK-NOT:   tensor.extract_slice
func.func @dependent_destination(%a: tensor<4x4xf32>) -> tensor<4x6xf32> {
  %empty = tensor.empty() : tensor<4x4xf32>
  %p = linalg.abs ins(%a : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %p[%c0, %c0] : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%v : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %i = tensor.insert_slice %p into %z[0, 1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x6xf32>
  return %i : tensor<4x6xf32>
}

// -----

// Not rewritten: the destination is an argument, whose buffer
// bufferization may not write.
// CHECK-LABEL: func.func @argument_destination
// CHECK-NOT:   tensor.extract_slice
func.func @argument_destination(%a: tensor<4x4xf32>, %z: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %empty = tensor.empty() : tensor<4x4xf32>
  %p = linalg.abs ins(%a : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) -> tensor<4x4xf32>
  %i = tensor.insert_slice %p into %z[0, 1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x6xf32>
  return %i : tensor<4x6xf32>
}
