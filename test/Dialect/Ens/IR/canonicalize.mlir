// RUN: ens-opt %s -canonicalize -split-input-file | FileCheck %s

// The folders of the ens dialect, and cases that must not fold.

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// Two transposes compose into one: x[p[q[i]]].
// CHECK-LABEL: func.func @transpose_compose(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T:.*]] = ens.transpose %[[X]] {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT:    return %[[T]] : tensor<4x2x3xf32>
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 1, 2, 0>}
      : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = ens.transpose %0 {permutation = array<i64: 1, 2, 0>}
      : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// A non-commuting pair: composing in the wrong order would give [0, 2, 1]
// or [1, 0, 2] instead.
// CHECK-LABEL: func.func @transpose_compose_order(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T:.*]] = ens.transpose %[[X]] {permutation = array<i64: 2, 1, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT:    return %[[T]] : tensor<4x3x2xf32>
func.func @transpose_compose_order(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 1, 0, 2>}
      : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %1 = ens.transpose %0 {permutation = array<i64: 2, 0, 1>}
      : tensor<3x2x4xf32> -> tensor<4x3x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// -----

// A transpose followed by its inverse disappears.
// CHECK-LABEL: func.func @transpose_inverse(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>)
// CHECK-NOT:     ens.transpose
// CHECK:         return %[[X]] : tensor<2x3x4xf32>
func.func @transpose_inverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 2, 0, 1>}
      : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = ens.transpose %0 {permutation = array<i64: 1, 2, 0>}
      : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xi1>)
// CHECK-NEXT:    return %[[X]] : tensor<2x3xi1>
func.func @transpose_identity(%x: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = ens.transpose %x {permutation = array<i64: 0, 1>}
      : tensor<2x3xi1> -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// A square transpose has the same type as its operand but is no identity.
// CHECK-LABEL: func.func @transpose_square_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<3x3xf32>)
// CHECK-NEXT:    %[[T:.*]] = ens.transpose %[[X]] {permutation = array<i64: 1, 0>} : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT:    return %[[T]] : tensor<3x3xf32>
func.func @transpose_square_kept(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 1, 0>}
      : tensor<3x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// The inner transpose stays while it has another use; the outer one is
// rewritten to read the original operand.
// CHECK-LABEL: func.func @transpose_compose_shared(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T0:.*]] = ens.transpose %[[X]] {permutation = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
// CHECK-NEXT:    %[[T1:.*]] = ens.transpose %[[X]] {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT:    return %[[T0]], %[[T1]]
func.func @transpose_compose_shared(%x: tensor<2x3x4xf32>)
    -> (tensor<3x4x2xf32>, tensor<4x2x3xf32>) {
  %0 = ens.transpose %x {permutation = array<i64: 1, 2, 0>}
      : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = ens.transpose %0 {permutation = array<i64: 1, 2, 0>}
      : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %0, %1 : tensor<3x4x2xf32>, tensor<4x2x3xf32>
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @reshape_reshape(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = ens.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    return %[[R]] : tensor<4x6xf32>
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = ens.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = ens.reshape %0 : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// A chain that returns to the original shape disappears.
// CHECK-LABEL: func.func @reshape_round_trip(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xi32>)
// CHECK-NEXT:    return %[[X]] : tensor<2x3xi32>
func.func @reshape_round_trip(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = ens.reshape %x : tensor<2x3xi32> -> tensor<6xi32>
  %1 = ens.reshape %0 : tensor<6xi32> -> tensor<3x2xi32>
  %2 = ens.reshape %1 : tensor<3x2xi32> -> tensor<2x3xi32>
  return %2 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_identity(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xf32>)
// CHECK-NEXT:    return %[[X]] : tensor<2x3xf32>
func.func @reshape_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ens.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Reshaping a constant keeps the row-major element order.
// CHECK-LABEL: func.func @reshape_constant()
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NOT:     ens.reshape
// CHECK-NEXT:    return %[[C]] : tensor<2x3xf32>
func.func @reshape_constant() -> tensor<2x3xf32> {
  %0 = ens.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %1 = ens.reshape %0 : tensor<6xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_splat_constant()
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<7> : tensor<2x2xi32>
// CHECK-NEXT:    return %[[C]] : tensor<2x2xi32>
func.func @reshape_splat_constant() -> tensor<2x2xi32> {
  %0 = ens.constant dense<7> : tensor<4xi32>
  %1 = ens.reshape %0 : tensor<4xi32> -> tensor<2x2xi32>
  return %1 : tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_mask_constant()
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<{{\[}}[true, false, false], [true, true, false]]> : tensor<2x3xi1>
// CHECK-NEXT:    return %[[C]] : tensor<2x3xi1>
func.func @reshape_mask_constant() -> tensor<2x3xi1> {
  %0 = ens.constant dense<[true, false, false, true, true, false]> : tensor<6xi1>
  %1 = ens.reshape %0 : tensor<6xi1> -> tensor<2x3xi1>
  return %1 : tensor<2x3xi1>
}

//===----------------------------------------------------------------------===//
// add, mul
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @add_zero(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>)
// CHECK-NOT:     ens.add
// CHECK:         return %[[X]], %[[X]] : tensor<4xf32>, tensor<4xf32>
func.func @add_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = ens.constant dense<0.0> : tensor<4xf32>
  %0 = ens.add %x, %zero : tensor<4xf32>
  %1 = ens.add %zero, %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Negative zero is a zero too; integer and f64 zeros fold alike.
// CHECK-LABEL: func.func @add_zero_other_types(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x2xi32>, %[[D:[^:]*]]: tensor<f64>)
// CHECK-NOT:     ens.add
// CHECK:         return %[[X]], %[[D]] : tensor<2x2xi32>, tensor<f64>
func.func @add_zero_other_types(%x: tensor<2x2xi32>, %d: tensor<f64>)
    -> (tensor<2x2xi32>, tensor<f64>) {
  %zero = ens.constant dense<0> : tensor<2x2xi32>
  %0 = ens.add %zero, %x : tensor<2x2xi32>
  %nzero = ens.constant dense<-0.0> : tensor<f64>
  %1 = ens.add %d, %nzero : tensor<f64>
  return %0, %1 : tensor<2x2xi32>, tensor<f64>
}

// -----

// CHECK-LABEL: func.func @fold_half_types(
// CHECK-SAME:      %[[H:[^:]*]]: tensor<2xf16>, %[[B:[^:]*]]: tensor<2xbf16>)
// CHECK-NEXT:    return %[[H]], %[[B]] : tensor<2xf16>, tensor<2xbf16>
func.func @fold_half_types(%h: tensor<2xf16>, %b: tensor<2xbf16>)
    -> (tensor<2xf16>, tensor<2xbf16>) {
  %zero = ens.constant dense<0.0> : tensor<2xf16>
  %0 = ens.add %h, %zero : tensor<2xf16>
  %one = ens.constant dense<1.0> : tensor<2xbf16>
  %1 = ens.mul %one, %b : tensor<2xbf16>
  return %0, %1 : tensor<2xf16>, tensor<2xbf16>
}

// -----

// CHECK-LABEL: func.func @add_nonzero_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = ens.add %[[X]], %[[C]] : tensor<4xf32>
// CHECK-NEXT:    return %[[A]] : tensor<4xf32>
func.func @add_nonzero_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = ens.constant dense<1.0> : tensor<4xf32>
  %0 = ens.add %x, %one : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A non-splat constant is not a zero even where some elements are.
// CHECK-LABEL: func.func @add_non_splat_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2xf32>)
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<[0.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[A:.*]] = ens.add %[[X]], %[[C]] : tensor<2xf32>
// CHECK-NEXT:    return %[[A]] : tensor<2xf32>
func.func @add_non_splat_kept(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = ens.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = ens.add %x, %c : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Only add folds a zero: sub is not covered by the folders.
// CHECK-LABEL: func.func @sub_zero_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>)
// CHECK:         %[[S:.*]] = ens.sub %[[X]], %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    return %[[S]] : tensor<4xf32>
func.func @sub_zero_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = ens.constant dense<0.0> : tensor<4xf32>
  %0 = ens.sub %x, %zero : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mul_one(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>, %[[I:[^:]*]]: tensor<3xi32>)
// CHECK-NOT:     ens.mul
// CHECK:         return %[[X]], %[[X]], %[[I]] : tensor<4xf32>, tensor<4xf32>, tensor<3xi32>
func.func @mul_one(%x: tensor<4xf32>, %i: tensor<3xi32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<3xi32>) {
  %one = ens.constant dense<1.0> : tensor<4xf32>
  %0 = ens.mul %x, %one : tensor<4xf32>
  %1 = ens.mul %one, %x : tensor<4xf32>
  %ione = ens.constant dense<1> : tensor<3xi32>
  %2 = ens.mul %i, %ione : tensor<3xi32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @mul_two_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = ens.mul %[[X]], %[[C]] : tensor<4xf32>
// CHECK-NEXT:    return %[[M]] : tensor<4xf32>
func.func @mul_two_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = ens.constant dense<2.0> : tensor<4xf32>
  %0 = ens.mul %x, %two : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Multiplying by zero is not folded (0 * NaN is NaN).
// CHECK-LABEL: func.func @mul_zero_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = ens.mul %[[X]], %[[C]] : tensor<4xf32>
// CHECK-NEXT:    return %[[M]] : tensor<4xf32>
func.func @mul_zero_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = ens.constant dense<0.0> : tensor<4xf32>
  %0 = ens.mul %x, %zero : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// broadcast_in_dim
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @broadcast_splat_constant()
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<2.500000e+00> : tensor<4x3xf32>
// CHECK-NOT:     ens.broadcast_in_dim
// CHECK-NEXT:    return %[[C]] : tensor<4x3xf32>
func.func @broadcast_splat_constant() -> tensor<4x3xf32> {
  %0 = ens.constant dense<2.5> : tensor<3xf32>
  %1 = ens.broadcast_in_dim %0 {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_scalar_constant()
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<true> : tensor<2x5xi1>
// CHECK-NEXT:    return %[[C]] : tensor<2x5xi1>
func.func @broadcast_scalar_constant() -> tensor<2x5xi1> {
  %0 = ens.constant dense<true> : tensor<i1>
  %1 = ens.broadcast_in_dim %0 {dims = array<i64>}
      : tensor<i1> -> tensor<2x5xi1>
  return %1 : tensor<2x5xi1>
}

// -----

// CHECK-LABEL: func.func @broadcast_identity(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xf32>)
// CHECK-NEXT:    return %[[X]] : tensor<2x3xf32>
func.func @broadcast_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ens.broadcast_in_dim %x {dims = array<i64: 0, 1>}
      : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Same type, but the dims permute: this is a transpose, not an identity.
// CHECK-LABEL: func.func @broadcast_permuting_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<3x3xf32>)
// CHECK-NEXT:    %[[B:.*]] = ens.broadcast_in_dim %[[X]] {dims = array<i64: 1, 0>} : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT:    return %[[B]] : tensor<3x3xf32>
func.func @broadcast_permuting_kept(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = ens.broadcast_in_dim %x {dims = array<i64: 1, 0>}
      : tensor<3x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_non_splat_kept()
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[B:.*]] = ens.broadcast_in_dim %[[C]] {dims = array<i64: 1>} : tensor<3xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[B]] : tensor<4x3xf32>
func.func @broadcast_non_splat_kept() -> tensor<4x3xf32> {
  %0 = ens.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %1 = ens.broadcast_in_dim %0 {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_argument_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[B:.*]] = ens.broadcast_in_dim %[[X]] {dims = array<i64: 1>} : tensor<3xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[B]] : tensor<4x3xf32>
func.func @broadcast_argument_kept(%x: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = ens.broadcast_in_dim %x {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// convert
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @convert_identity(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xf32>)
// CHECK-NEXT:    return %[[X]] : tensor<2x3xf32>
func.func @convert_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ens.convert %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @convert_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[C:.*]] = ens.convert %[[X]] : tensor<2x3xf32> -> tensor<2x3xf64>
// CHECK-NEXT:    return %[[C]] : tensor<2x3xf64>
func.func @convert_kept(%x: tensor<2x3xf32>) -> tensor<2x3xf64> {
  %0 = ens.convert %x : tensor<2x3xf32> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// A round trip through a narrower type is not an identity.
// CHECK-LABEL: func.func @convert_round_trip_kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[I:.*]] = ens.convert %[[X]] : tensor<4xf32> -> tensor<4xi32>
// CHECK-NEXT:    %[[F:.*]] = ens.convert %[[I]] : tensor<4xi32> -> tensor<4xf32>
// CHECK-NEXT:    return %[[F]] : tensor<4xf32>
func.func @convert_round_trip_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.convert %x : tensor<4xf32> -> tensor<4xi32>
  %1 = ens.convert %0 : tensor<4xi32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// constants
//===----------------------------------------------------------------------===//

// -----

// Identical constants are uniqued and unused ones erased.
// CHECK-LABEL: func.func @constant_cse()
// CHECK-NEXT:    %[[C:.*]] = ens.constant dense<3> : tensor<2xi32>
// CHECK-NEXT:    return %[[C]], %[[C]] : tensor<2xi32>, tensor<2xi32>
func.func @constant_cse() -> (tensor<2xi32>, tensor<2xi32>) {
  %0 = ens.constant dense<3> : tensor<2xi32>
  %1 = ens.constant dense<3> : tensor<2xi32>
  %2 = ens.constant dense<4> : tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
}
