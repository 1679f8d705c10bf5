// RUN: ens-opt %s | FileCheck %s
// RUN: ens-opt %s -mlir-print-op-generic | ens-opt | FileCheck %s

// The ops written by hand in generic MLIR form, as an external producer
// writes them: op names, attribute names and enum syntax are those fixed by
// the dialect. Each must parse, verify, and print in its custom form.

// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<2x3xf32>, %[[I:[^:]*]]: tensor<4xi32>)
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>,
                       %i: tensor<4xi32>) {
  // CHECK-NEXT: ens.add %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.sub %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.mul %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.div %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.max %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.min %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.pow %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.add %[[I]], %[[I]] : tensor<4xi32>
  %0 = "ens.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "ens.sub"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "ens.mul"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "ens.div"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "ens.max"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = "ens.min"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = "ens.pow"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = "ens.add"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>

  // CHECK-NEXT: ens.neg %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.exp %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.log %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.tanh %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.sigmoid %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.relu %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.sqrt %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.rsqrt %[[A]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.abs %[[I]] : tensor<4xi32>
  // CHECK-NEXT: ens.square %[[I]] : tensor<4xi32>
  %10 = "ens.neg"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = "ens.exp"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %12 = "ens.log"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %13 = "ens.tanh"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %14 = "ens.sigmoid"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %15 = "ens.relu"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %16 = "ens.sqrt"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %17 = "ens.rsqrt"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %18 = "ens.abs"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  %19 = "ens.square"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @cmp_select_convert(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<2x3xf32>, %[[I:[^:]*]]: tensor<4xi32>)
func.func @cmp_select_convert(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>,
                              %i: tensor<4xi32>) {
  // CHECK-NEXT: %[[LT:.*]] = ens.cmp lt, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.cmp le, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.cmp gt, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.cmp ge, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: ens.cmp eq, %[[I]], %[[I]] : tensor<4xi32>
  // CHECK-NEXT: ens.cmp ne, %[[I]], %[[I]] : tensor<4xi32>
  %0 = "ens.cmp"(%a, %b) {predicate = #ens<cmp_predicate lt>}
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = "ens.cmp"(%a, %b) {predicate = #ens<cmp_predicate le>}
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = "ens.cmp"(%a, %b) {predicate = #ens<cmp_predicate gt>}
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = "ens.cmp"(%a, %b) {predicate = #ens<cmp_predicate ge>}
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %4 = "ens.cmp"(%i, %i) {predicate = #ens<cmp_predicate eq>}
      : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // Properties syntax is accepted as well as an attribute dictionary.
  %5 = "ens.cmp"(%i, %i) <{predicate = #ens<cmp_predicate ne>}>
      : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>

  // CHECK-NEXT: ens.select %[[LT]], %[[A]], %[[B]] : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK-NEXT: ens.convert %[[A]] : tensor<2x3xf32> -> tensor<2x3xi32>
  // CHECK-NEXT: ens.convert %[[LT]] : tensor<2x3xi1> -> tensor<2x3xbf16>
  %6 = "ens.select"(%0, %a, %b)
      : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = "ens.convert"(%a) : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %8 = "ens.convert"(%0) : (tensor<2x3xi1>) -> tensor<2x3xbf16>
  return
}

// CHECK-LABEL: func.func @shapes(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xf32>, %[[V:[^:]*]]: tensor<3xf32>, %[[IDS:[^:]*]]: tensor<5xi32>)
func.func @shapes(%x: tensor<2x3xf32>, %v: tensor<3xf32>, %ids: tensor<5xi32>) {
  // CHECK-NEXT: ens.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>
  // CHECK-NEXT: ens.broadcast_in_dim %[[V]] {dims = array<i64: 1>} : tensor<3xf32> -> tensor<4x3xf32>
  // CHECK-NEXT: ens.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK-NEXT: ens.transpose %[[X]] {permutation = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK-NEXT: ens.slice %[[X]] {limit = array<i64: 2, 3>, start = array<i64: 1, 0>, stride = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<1x2xf32>
  // CHECK-NEXT: ens.concat %[[X]], %[[X]] {dim = 0 : i64} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  // CHECK-NEXT: ens.take %[[X]], %[[IDS]] {axis = 1 : i64} : tensor<2x3xf32>, tensor<5xi32> -> tensor<2x5xf32>
  // CHECK-NEXT: ens.one_hot %[[IDS]] : tensor<5xi32> -> tensor<5x7xf32>
  %0 = "ens.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf64>}
      : () -> tensor<2xf64>
  %1 = "ens.broadcast_in_dim"(%v) {dims = array<i64: 1>}
      : (tensor<3xf32>) -> tensor<4x3xf32>
  %2 = "ens.reshape"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = "ens.transpose"(%x) {permutation = array<i64: 1, 0>}
      : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = "ens.slice"(%x) {start = array<i64: 1, 0>, limit = array<i64: 2, 3>,
                        stride = array<i64: 1, 2>}
      : (tensor<2x3xf32>) -> tensor<1x2xf32>
  %5 = "ens.concat"(%x, %x) {dim = 0 : i64}
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %6 = "ens.take"(%x, %ids) {axis = 1 : i64}
      : (tensor<2x3xf32>, tensor<5xi32>) -> tensor<2x5xf32>
  %7 = "ens.one_hot"(%ids) : (tensor<5xi32>) -> tensor<5x7xf32>
  return
}

// CHECK-LABEL: func.func @reductions_and_contractions(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<3x4xf32>, %[[C:[^:]*]]: tensor<4x3x2xf32>)
func.func @reductions_and_contractions(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>,
                                       %c: tensor<4x3x2xf32>) {
  // CHECK-NEXT: ens.reduce_sum %[[A]] {dims = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>
  // CHECK-NEXT: ens.reduce_max %[[A]] {dims = array<i64: 0>} : tensor<2x3xf32> -> tensor<3xf32>
  // CHECK-NEXT: ens.reduce_mean %[[A]] {dims = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<f32>
  // CHECK-NEXT: ens.logsumexp %[[A]] {dims = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>
  %0 = "ens.reduce_sum"(%a) {dims = array<i64: 1>}
      : (tensor<2x3xf32>) -> tensor<2xf32>
  %1 = "ens.reduce_max"(%a) {dims = array<i64: 0>}
      : (tensor<2x3xf32>) -> tensor<3xf32>
  %2 = "ens.reduce_mean"(%a) {dims = array<i64: 0, 1>}
      : (tensor<2x3xf32>) -> tensor<f32>
  %3 = "ens.logsumexp"(%a) {dims = array<i64: 1>}
      : (tensor<2x3xf32>) -> tensor<2xf32>

  // CHECK-NEXT: ens.einsum %[[A]], %[[B]] {spec = "ij,jk->ik"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  // CHECK-NEXT: ens.einsum %[[C]], %[[A]] {spec = "kji,ij->kj"} : tensor<4x3x2xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  // CHECK-NEXT: ens.tensordot %[[C]], %[[A]] {lhs_dims = array<i64: 2, 1>, rhs_dims = array<i64: 0, 1>} : tensor<4x3x2xf32>, tensor<2x3xf32> -> tensor<4xf32>
  // CHECK-NEXT: ens.matmul %[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  // CHECK-NEXT: ens.matmul %[[C]], %[[A]] : tensor<4x3x2xf32>, tensor<2x3xf32> -> tensor<4x3x3xf32>
  %4 = "ens.einsum"(%a, %b) {spec = "ij,jk->ik"}
      : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %5 = "ens.einsum"(%c, %a) {spec = "kji,ij->kj"}
      : (tensor<4x3x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %6 = "ens.tensordot"(%c, %a) {lhs_dims = array<i64: 2, 1>,
                                rhs_dims = array<i64: 0, 1>}
      : (tensor<4x3x2xf32>, tensor<2x3xf32>) -> tensor<4xf32>
  %7 = "ens.matmul"(%a, %b)
      : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %8 = "ens.matmul"(%c, %a)
      : (tensor<4x3x2xf32>, tensor<2x3xf32>) -> tensor<4x3x3xf32>

  // CHECK-NEXT: ens.softmax %[[A]] {dim = 1 : i64} : tensor<2x3xf32>
  // CHECK-NEXT: ens.log_softmax %[[A]] {dim = 0 : i64} : tensor<2x3xf32>
  %9 = "ens.softmax"(%a) {dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = "ens.log_softmax"(%a) {dim = 0 : i64}
      : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: return
  return
}

// The generic form of ens.conv is fixed by its attribute names.
// CHECK-LABEL: func.func @conv_generic(
func.func @conv_generic(%x: tensor<2x3x8xf32>, %w: tensor<6x1x3xf32>)
    -> tensor<2x6x2xf32> {
  // CHECK: ens.conv %{{.*}}, %{{.*}} {feature_group_count = 3 : i64, lhs_dilation = array<i64: 1>, lhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, padding = array<i64: 0, 0>, rhs_dilation = array<i64: 2>, rhs_dims = array<i64: 0, 1, 2>, window_strides = array<i64: 2>} : tensor<2x3x8xf32>, tensor<6x1x3xf32> -> tensor<2x6x2xf32>
  %0 = "ens.conv"(%x, %w) {lhs_dims = array<i64: 0, 1, 2>,
                           rhs_dims = array<i64: 0, 1, 2>,
                           out_dims = array<i64: 0, 1, 2>,
                           window_strides = array<i64: 2>,
                           padding = array<i64: 0, 0>,
                           lhs_dilation = array<i64: 1>,
                           rhs_dilation = array<i64: 2>,
                           feature_group_count = 3 : i64}
      : (tensor<2x3x8xf32>, tensor<6x1x3xf32>) -> tensor<2x6x2xf32>
  return %0 : tensor<2x6x2xf32>
}

// CHECK-LABEL: func.func @reduce_window_generic(
func.func @reduce_window_generic(%x: tensor<5x4xf64>) -> tensor<2x4xf64> {
  // CHECK: ens.reduce_window max, %{{.*}} {padding = array<i64: 0, 0, 0, 0>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : tensor<5x4xf64> -> tensor<2x4xf64>
  %0 = "ens.reduce_window"(%x) {kind = #ens<window_kind max>,
                                window_dimensions = array<i64: 2, 1>,
                                window_strides = array<i64: 2, 1>,
                                padding = array<i64: 0, 0, 0, 0>}
      : (tensor<5x4xf64>) -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}
