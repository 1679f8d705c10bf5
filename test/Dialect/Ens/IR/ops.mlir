// RUN: ens-opt %s | ens-opt | FileCheck %s
// RUN: ens-opt %s --mlir-print-op-generic | ens-opt | FileCheck %s

// Every ens op in its custom form: it parses, verifies, prints back in the
// same form, and its generic form parses back to the same IR. The CHECK lines
// pin each printed form, inferred result types included.

//===----------------------------------------------------------------------===//
// Elementwise binary
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary_f32(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<2x3xf32>)
func.func @binary_f32(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK-NEXT: %[[ADD:.*]] = ens.add %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[SUB:.*]] = ens.sub %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[MUL:.*]] = ens.mul %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[DIV:.*]] = ens.div %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[MAX:.*]] = ens.max %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[MIN:.*]] = ens.min %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[POW:.*]] = ens.pow %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[MAX]], %[[MIN]], %[[POW]]
  %0 = ens.add %a, %b : tensor<2x3xf32>
  %1 = ens.sub %a, %b : tensor<2x3xf32>
  %2 = ens.mul %a, %b : tensor<2x3xf32>
  %3 = ens.div %a, %b : tensor<2x3xf32>
  %4 = ens.max %a, %b : tensor<2x3xf32>
  %5 = ens.min %a, %b : tensor<2x3xf32>
  %6 = ens.pow %a, %b : tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @binary_f64(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<4xf64>, %[[B:[^:]*]]: tensor<4xf64>)
func.func @binary_f64(%a: tensor<4xf64>, %b: tensor<4xf64>)
    -> (tensor<4xf64>, tensor<4xf64>) {
  // CHECK-NEXT: %[[DIV:.*]] = ens.div %[[A]], %[[B]] : tensor<4xf64>
  // CHECK-NEXT: %[[POW:.*]] = ens.pow %[[A]], %[[B]] : tensor<4xf64>
  %0 = ens.div %a, %b : tensor<4xf64>
  %1 = ens.pow %a, %b : tensor<4xf64>
  return %0, %1 : tensor<4xf64>, tensor<4xf64>
}

// Integer arithmetic on i32; scalars are rank-0 tensors.
// CHECK-LABEL: func.func @binary_i32(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<i32>, %[[B:[^:]*]]: tensor<i32>)
func.func @binary_i32(%a: tensor<i32>, %b: tensor<i32>)
    -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) {
  // CHECK-NEXT: %[[ADD:.*]] = ens.add %[[A]], %[[B]] : tensor<i32>
  // CHECK-NEXT: %[[SUB:.*]] = ens.sub %[[A]], %[[B]] : tensor<i32>
  // CHECK-NEXT: %[[MUL:.*]] = ens.mul %[[A]], %[[B]] : tensor<i32>
  // CHECK-NEXT: %[[MAX:.*]] = ens.max %[[A]], %[[B]] : tensor<i32>
  // CHECK-NEXT: %[[MIN:.*]] = ens.min %[[A]], %[[B]] : tensor<i32>
  %0 = ens.add %a, %b : tensor<i32>
  %1 = ens.sub %a, %b : tensor<i32>
  %2 = ens.mul %a, %b : tensor<i32>
  %3 = ens.max %a, %b : tensor<i32>
  %4 = ens.min %a, %b : tensor<i32>
  return %0, %1, %2, %3, %4
      : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
}

// f16 and bf16 are accepted.
// CHECK-LABEL: func.func @binary_half(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<8xf16>, %[[B:[^:]*]]: tensor<8xbf16>)
func.func @binary_half(%a: tensor<8xf16>, %b: tensor<8xbf16>)
    -> (tensor<8xf16>, tensor<8xbf16>) {
  // CHECK-NEXT: %[[H:.*]] = ens.div %[[A]], %[[A]] : tensor<8xf16>
  // CHECK-NEXT: %[[BF:.*]] = ens.add %[[B]], %[[B]] : tensor<8xbf16>
  %0 = ens.div %a, %a : tensor<8xf16>
  %1 = ens.add %b, %b : tensor<8xbf16>
  return %0, %1 : tensor<8xf16>, tensor<8xbf16>
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary_float(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<3xf32>)
func.func @unary_float(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK-NEXT: %[[NEG:.*]] = ens.neg %[[X]] : tensor<3xf32>
  // CHECK-NEXT: %[[EXP:.*]] = ens.exp %[[NEG]] : tensor<3xf32>
  // CHECK-NEXT: %[[LOG:.*]] = ens.log %[[EXP]] : tensor<3xf32>
  // CHECK-NEXT: %[[TANH:.*]] = ens.tanh %[[LOG]] : tensor<3xf32>
  // CHECK-NEXT: %[[SIG:.*]] = ens.sigmoid %[[TANH]] : tensor<3xf32>
  // CHECK-NEXT: %[[RELU:.*]] = ens.relu %[[SIG]] : tensor<3xf32>
  // CHECK-NEXT: %[[SQRT:.*]] = ens.sqrt %[[RELU]] : tensor<3xf32>
  // CHECK-NEXT: %[[RSQRT:.*]] = ens.rsqrt %[[SQRT]] : tensor<3xf32>
  // CHECK-NEXT: %[[ABS:.*]] = ens.abs %[[RSQRT]] : tensor<3xf32>
  // CHECK-NEXT: %[[SQ:.*]] = ens.square %[[ABS]] : tensor<3xf32>
  // CHECK-NEXT: return %[[SQ]] : tensor<3xf32>
  %0 = ens.neg %x : tensor<3xf32>
  %1 = ens.exp %0 : tensor<3xf32>
  %2 = ens.log %1 : tensor<3xf32>
  %3 = ens.tanh %2 : tensor<3xf32>
  %4 = ens.sigmoid %3 : tensor<3xf32>
  %5 = ens.relu %4 : tensor<3xf32>
  %6 = ens.sqrt %5 : tensor<3xf32>
  %7 = ens.rsqrt %6 : tensor<3xf32>
  %8 = ens.abs %7 : tensor<3xf32>
  %9 = ens.square %8 : tensor<3xf32>
  return %9 : tensor<3xf32>
}

// CHECK-LABEL: func.func @unary_other_types(
// CHECK-SAME:      %[[D:[^:]*]]: tensor<2x2xf64>, %[[I:[^:]*]]: tensor<5xi32>, %[[H:[^:]*]]: tensor<1xf16>, %[[BF:[^:]*]]: tensor<1xbf16>)
func.func @unary_other_types(%d: tensor<2x2xf64>, %i: tensor<5xi32>,
                             %h: tensor<1xf16>, %bf: tensor<1xbf16>)
    -> (tensor<2x2xf64>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>,
        tensor<1xf16>, tensor<1xbf16>) {
  // CHECK-NEXT: %[[TANH:.*]] = ens.tanh %[[D]] : tensor<2x2xf64>
  // CHECK-NEXT: %[[NEG:.*]] = ens.neg %[[I]] : tensor<5xi32>
  // CHECK-NEXT: %[[ABS:.*]] = ens.abs %[[I]] : tensor<5xi32>
  // CHECK-NEXT: %[[SQ:.*]] = ens.square %[[I]] : tensor<5xi32>
  // CHECK-NEXT: %[[EXP:.*]] = ens.exp %[[H]] : tensor<1xf16>
  // CHECK-NEXT: %[[SIG:.*]] = ens.sigmoid %[[BF]] : tensor<1xbf16>
  %0 = ens.tanh %d : tensor<2x2xf64>
  %1 = ens.neg %i : tensor<5xi32>
  %2 = ens.abs %i : tensor<5xi32>
  %3 = ens.square %i : tensor<5xi32>
  %4 = ens.exp %h : tensor<1xf16>
  %5 = ens.sigmoid %bf : tensor<1xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<2x2xf64>, tensor<5xi32>,
      tensor<5xi32>, tensor<5xi32>, tensor<1xf16>, tensor<1xbf16>
}

//===----------------------------------------------------------------------===//
// Comparison, select, convert
//===----------------------------------------------------------------------===//

// The result type of cmp is inferred: an i1 tensor of the operand shape.
// CHECK-LABEL: func.func @cmp(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<2x3xf32>, %[[I:[^:]*]]: tensor<4xi32>, %[[D:[^:]*]]: tensor<f64>)
func.func @cmp(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<4xi32>,
               %d: tensor<f64>)
    -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>,
        tensor<4xi1>, tensor<i1>) {
  // CHECK-NEXT: %[[LT:.*]] = ens.cmp lt, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[LE:.*]] = ens.cmp le, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[GT:.*]] = ens.cmp gt, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[GE:.*]] = ens.cmp ge, %[[A]], %[[B]] : tensor<2x3xf32>
  // CHECK-NEXT: %[[EQ:.*]] = ens.cmp eq, %[[I]], %[[I]] : tensor<4xi32>
  // CHECK-NEXT: %[[NE:.*]] = ens.cmp ne, %[[D]], %[[D]] : tensor<f64>
  // CHECK-NEXT: return %[[LT]], %[[LE]], %[[GT]], %[[GE]], %[[EQ]], %[[NE]] : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>, tensor<i1>
  %0 = ens.cmp lt, %a, %b : tensor<2x3xf32>
  %1 = ens.cmp le, %a, %b : tensor<2x3xf32>
  %2 = ens.cmp gt, %a, %b : tensor<2x3xf32>
  %3 = ens.cmp ge, %a, %b : tensor<2x3xf32>
  %4 = ens.cmp eq, %i, %i : tensor<4xi32>
  %5 = ens.cmp ne, %d, %d : tensor<f64>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xi1>, tensor<2x3xi1>,
      tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>, tensor<i1>
}

// CHECK-LABEL: func.func @select(
// CHECK-SAME:      %[[C:[^:]*]]: tensor<2x3xi1>, %[[A:[^:]*]]: tensor<2x3xf32>, %[[I:[^:]*]]: tensor<2x3xi32>)
func.func @select(%c: tensor<2x3xi1>, %a: tensor<2x3xf32>, %i: tensor<2x3xi32>)
    -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi1>) {
  // CHECK-NEXT: %[[F:.*]] = ens.select %[[C]], %[[A]], %[[A]] : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK-NEXT: %[[I2:.*]] = ens.select %[[C]], %[[I]], %[[I]] : tensor<2x3xi1>, tensor<2x3xi32>
  // CHECK-NEXT: %[[M:.*]] = ens.select %[[C]], %[[C]], %[[C]] : tensor<2x3xi1>, tensor<2x3xi1>
  %0 = ens.select %c, %a, %a : tensor<2x3xi1>, tensor<2x3xf32>
  %1 = ens.select %c, %i, %i : tensor<2x3xi1>, tensor<2x3xi32>
  %2 = ens.select %c, %c, %c : tensor<2x3xi1>, tensor<2x3xi1>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi1>
}

// CHECK-LABEL: func.func @convert(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3xf32>)
func.func @convert(%x: tensor<2x3xf32>)
    -> (tensor<2x3xf64>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xf16>,
        tensor<2x3xbf16>, tensor<2x3xf32>) {
  // CHECK-NEXT: %[[D:.*]] = ens.convert %[[X]] : tensor<2x3xf32> -> tensor<2x3xf64>
  // CHECK-NEXT: %[[I:.*]] = ens.convert %[[D]] : tensor<2x3xf64> -> tensor<2x3xi32>
  // CHECK-NEXT: %[[M:.*]] = ens.convert %[[I]] : tensor<2x3xi32> -> tensor<2x3xi1>
  // CHECK-NEXT: %[[H:.*]] = ens.convert %[[M]] : tensor<2x3xi1> -> tensor<2x3xf16>
  // CHECK-NEXT: %[[BF:.*]] = ens.convert %[[H]] : tensor<2x3xf16> -> tensor<2x3xbf16>
  // CHECK-NEXT: %[[F:.*]] = ens.convert %[[BF]] : tensor<2x3xbf16> -> tensor<2x3xf32>
  %0 = ens.convert %x : tensor<2x3xf32> -> tensor<2x3xf64>
  %1 = ens.convert %0 : tensor<2x3xf64> -> tensor<2x3xi32>
  %2 = ens.convert %1 : tensor<2x3xi32> -> tensor<2x3xi1>
  %3 = ens.convert %2 : tensor<2x3xi1> -> tensor<2x3xf16>
  %4 = ens.convert %3 : tensor<2x3xf16> -> tensor<2x3xbf16>
  %5 = ens.convert %4 : tensor<2x3xbf16> -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf64>, tensor<2x3xi32>,
      tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// Constants and shape manipulation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant()
func.func @constant()
    -> (tensor<2xf32>, tensor<f64>, tensor<2x2xi32>, tensor<3xi1>,
        tensor<4xf16>, tensor<2xbf16>) {
  // CHECK-NEXT: %[[F:.*]] = ens.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>
  // CHECK-NEXT: %[[D:.*]] = ens.constant dense<-3.000000e+00> : tensor<f64>
  // CHECK-NEXT: %[[I:.*]] = ens.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK-NEXT: %[[M:.*]] = ens.constant dense<[true, false, true]> : tensor<3xi1>
  // CHECK-NEXT: %[[H:.*]] = ens.constant dense<0.000000e+00> : tensor<4xf16>
  // CHECK-NEXT: %[[BF:.*]] = ens.constant dense<1.000000e+00> : tensor<2xbf16>
  // CHECK-NEXT: return %[[F]], %[[D]], %[[I]], %[[M]], %[[H]], %[[BF]]
  %0 = ens.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %1 = ens.constant dense<-3.0> : tensor<f64>
  %2 = ens.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %3 = ens.constant dense<[true, false, true]> : tensor<3xi1>
  %4 = ens.constant dense<0.0> : tensor<4xf16>
  %5 = ens.constant dense<1.0> : tensor<2xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<f64>,
      tensor<2x2xi32>, tensor<3xi1>, tensor<4xf16>, tensor<2xbf16>
}

// CHECK-LABEL: func.func @broadcast_in_dim(
// CHECK-SAME:      %[[V:[^:]*]]: tensor<8xf32>, %[[S:[^:]*]]: tensor<i32>, %[[M:[^:]*]]: tensor<3x1xi1>)
func.func @broadcast_in_dim(%v: tensor<8xf32>, %s: tensor<i32>,
                            %m: tensor<3x1xi1>)
    -> (tensor<4x8xf32>, tensor<2x3xi32>, tensor<5x3x4xi1>) {
  // CHECK-NEXT: %[[R0:.*]] = ens.broadcast_in_dim %[[V]] {dims = array<i64: 1>} : tensor<8xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: %[[R1:.*]] = ens.broadcast_in_dim %[[S]] {dims = array<i64>} : tensor<i32> -> tensor<2x3xi32>
  // CHECK-NEXT: %[[R2:.*]] = ens.broadcast_in_dim %[[M]] {dims = array<i64: 1, 2>} : tensor<3x1xi1> -> tensor<5x3x4xi1>
  %0 = ens.broadcast_in_dim %v {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<4x8xf32>
  %1 = ens.broadcast_in_dim %s {dims = array<i64>}
      : tensor<i32> -> tensor<2x3xi32>
  %2 = ens.broadcast_in_dim %m {dims = array<i64: 1, 2>}
      : tensor<3x1xi1> -> tensor<5x3x4xi1>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<2x3xi32>, tensor<5x3x4xi1>
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf64>, %[[S:[^:]*]]: tensor<i1>)
func.func @reshape(%x: tensor<2x3x4xf64>, %s: tensor<i1>)
    -> (tensor<6x4xf64>, tensor<24xf64>, tensor<1x1xi1>) {
  // CHECK-NEXT: %[[R0:.*]] = ens.reshape %[[X]] : tensor<2x3x4xf64> -> tensor<6x4xf64>
  // CHECK-NEXT: %[[R1:.*]] = ens.reshape %[[R0]] : tensor<6x4xf64> -> tensor<24xf64>
  // CHECK-NEXT: %[[R2:.*]] = ens.reshape %[[S]] : tensor<i1> -> tensor<1x1xi1>
  %0 = ens.reshape %x : tensor<2x3x4xf64> -> tensor<6x4xf64>
  %1 = ens.reshape %0 : tensor<6x4xf64> -> tensor<24xf64>
  %2 = ens.reshape %s : tensor<i1> -> tensor<1x1xi1>
  return %0, %1, %2 : tensor<6x4xf64>, tensor<24xf64>, tensor<1x1xi1>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>, %[[M:[^:]*]]: tensor<5x6xi1>)
func.func @transpose(%x: tensor<2x3x4xf32>, %m: tensor<5x6xi1>)
    -> (tensor<4x2x3xf32>, tensor<6x5xi1>) {
  // CHECK-NEXT: %[[T0:.*]] = ens.transpose %[[X]] {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  // CHECK-NEXT: %[[T1:.*]] = ens.transpose %[[M]] {permutation = array<i64: 1, 0>} : tensor<5x6xi1> -> tensor<6x5xi1>
  %0 = ens.transpose %x {permutation = array<i64: 2, 0, 1>}
      : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = ens.transpose %m {permutation = array<i64: 1, 0>}
      : tensor<5x6xi1> -> tensor<6x5xi1>
  return %0, %1 : tensor<4x2x3xf32>, tensor<6x5xi1>
}

// Result sizes are ceil((limit - start) / stride).
// CHECK-LABEL: func.func @slice(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<10x8xf32>, %[[I:[^:]*]]: tensor<7xi32>)
func.func @slice(%x: tensor<10x8xf32>, %i: tensor<7xi32>)
    -> (tensor<3x8xf32>, tensor<4xi32>, tensor<0xi32>) {
  // CHECK-NEXT: %[[S0:.*]] = ens.slice %[[X]] {limit = array<i64: 9, 8>, start = array<i64: 2, 0>, stride = array<i64: 3, 1>} : tensor<10x8xf32> -> tensor<3x8xf32>
  // CHECK-NEXT: %[[S1:.*]] = ens.slice %[[I]] {limit = array<i64: 7>, start = array<i64: 0>, stride = array<i64: 2>} : tensor<7xi32> -> tensor<4xi32>
  // CHECK-NEXT: %[[S2:.*]] = ens.slice %[[I]] {limit = array<i64: 3>, start = array<i64: 3>, stride = array<i64: 1>} : tensor<7xi32> -> tensor<0xi32>
  %0 = ens.slice %x {start = array<i64: 2, 0>, limit = array<i64: 9, 8>,
                     stride = array<i64: 3, 1>}
      : tensor<10x8xf32> -> tensor<3x8xf32>
  %1 = ens.slice %i {start = array<i64: 0>, limit = array<i64: 7>,
                     stride = array<i64: 2>}
      : tensor<7xi32> -> tensor<4xi32>
  %2 = ens.slice %i {start = array<i64: 3>, limit = array<i64: 3>,
                     stride = array<i64: 1>}
      : tensor<7xi32> -> tensor<0xi32>
  return %0, %1, %2 : tensor<3x8xf32>, tensor<4xi32>, tensor<0xi32>
}

// A stride larger than the extent keeps only the start index; the size
// computation must not overflow.
// CHECK-LABEL: func.func @slice_huge_stride(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<5xf32>)
func.func @slice_huge_stride(%x: tensor<5xf32>) -> tensor<1xf32> {
  // CHECK-NEXT: %[[S:.*]] = ens.slice %[[X]] {limit = array<i64: 5>, start = array<i64: 2>, stride = array<i64: 9223372036854775807>} : tensor<5xf32> -> tensor<1xf32>
  %0 = ens.slice %x {start = array<i64: 2>, limit = array<i64: 5>,
                     stride = array<i64: 9223372036854775807>}
      : tensor<5xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// CHECK-LABEL: func.func @concat(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<2x5xf32>, %[[M:[^:]*]]: tensor<4xi1>)
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %m: tensor<4xi1>)
    -> (tensor<2x11xf32>, tensor<4xi1>) {
  // CHECK-NEXT: %[[C0:.*]] = ens.concat %[[A]], %[[B]], %[[A]] {dim = 1 : i64} : tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32> -> tensor<2x11xf32>
  // CHECK-NEXT: %[[C1:.*]] = ens.concat %[[M]] {dim = 0 : i64} : tensor<4xi1> -> tensor<4xi1>
  %0 = ens.concat %a, %b, %a {dim = 1 : i64}
      : tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32> -> tensor<2x11xf32>
  %1 = ens.concat %m {dim = 0 : i64} : tensor<4xi1> -> tensor<4xi1>
  return %0, %1 : tensor<2x11xf32>, tensor<4xi1>
}

// The result shape is table[:axis] + indices + table[axis+1:].
// CHECK-LABEL: func.func @take(
// CHECK-SAME:      %[[T:[^:]*]]: tensor<100x16xf32>, %[[IDS:[^:]*]]: tensor<8xi32>, %[[T3:[^:]*]]: tensor<2x5x3xi1>, %[[I2:[^:]*]]: tensor<4x6xi32>, %[[S:[^:]*]]: tensor<i32>)
func.func @take(%t: tensor<100x16xf32>, %ids: tensor<8xi32>,
                %t3: tensor<2x5x3xi1>, %i2: tensor<4x6xi32>, %s: tensor<i32>)
    -> (tensor<8x16xf32>, tensor<2x4x6x3xi1>, tensor<16xf32>) {
  // CHECK-NEXT: %[[R0:.*]] = ens.take %[[T]], %[[IDS]] {axis = 0 : i64} : tensor<100x16xf32>, tensor<8xi32> -> tensor<8x16xf32>
  // CHECK-NEXT: %[[R1:.*]] = ens.take %[[T3]], %[[I2]] {axis = 1 : i64} : tensor<2x5x3xi1>, tensor<4x6xi32> -> tensor<2x4x6x3xi1>
  // CHECK-NEXT: %[[R2:.*]] = ens.take %[[T]], %[[S]] {axis = 0 : i64} : tensor<100x16xf32>, tensor<i32> -> tensor<16xf32>
  %0 = ens.take %t, %ids {axis = 0 : i64}
      : tensor<100x16xf32>, tensor<8xi32> -> tensor<8x16xf32>
  %1 = ens.take %t3, %i2 {axis = 1 : i64}
      : tensor<2x5x3xi1>, tensor<4x6xi32> -> tensor<2x4x6x3xi1>
  %2 = ens.take %t, %s {axis = 0 : i64}
      : tensor<100x16xf32>, tensor<i32> -> tensor<16xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<2x4x6x3xi1>, tensor<16xf32>
}

// CHECK-LABEL: func.func @one_hot(
// CHECK-SAME:      %[[I:[^:]*]]: tensor<2x3xi32>, %[[S:[^:]*]]: tensor<i32>)
func.func @one_hot(%i: tensor<2x3xi32>, %s: tensor<i32>)
    -> (tensor<2x3x10xf32>, tensor<4xi32>) {
  // CHECK-NEXT: %[[R0:.*]] = ens.one_hot %[[I]] : tensor<2x3xi32> -> tensor<2x3x10xf32>
  // CHECK-NEXT: %[[R1:.*]] = ens.one_hot %[[S]] : tensor<i32> -> tensor<4xi32>
  %0 = ens.one_hot %i : tensor<2x3xi32> -> tensor<2x3x10xf32>
  %1 = ens.one_hot %s : tensor<i32> -> tensor<4xi32>
  return %0, %1 : tensor<2x3x10xf32>, tensor<4xi32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reductions(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>, %[[I:[^:]*]]: tensor<5x6xi32>, %[[D:[^:]*]]: tensor<7xf64>)
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<5x6xi32>,
                      %d: tensor<7xf64>)
    -> (tensor<3xf32>, tensor<2x3x4xf32>, tensor<5xi32>, tensor<i32>,
        tensor<2x4xf32>, tensor<f64>) {
  // CHECK-NEXT: %[[S0:.*]] = ens.reduce_sum %[[X]] {dims = array<i64: 2, 0>} : tensor<2x3x4xf32> -> tensor<3xf32>
  // CHECK-NEXT: %[[S1:.*]] = ens.reduce_sum %[[X]] {dims = array<i64>} : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  // CHECK-NEXT: %[[M0:.*]] = ens.reduce_max %[[I]] {dims = array<i64: 1>} : tensor<5x6xi32> -> tensor<5xi32>
  // CHECK-NEXT: %[[M1:.*]] = ens.reduce_max %[[I]] {dims = array<i64: 0, 1>} : tensor<5x6xi32> -> tensor<i32>
  // CHECK-NEXT: %[[MEAN:.*]] = ens.reduce_mean %[[X]] {dims = array<i64: 1>} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  // CHECK-NEXT: %[[LSE:.*]] = ens.logsumexp %[[D]] {dims = array<i64: 0>} : tensor<7xf64> -> tensor<f64>
  %0 = ens.reduce_sum %x {dims = array<i64: 2, 0>}
      : tensor<2x3x4xf32> -> tensor<3xf32>
  %1 = ens.reduce_sum %x {dims = array<i64>}
      : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %2 = ens.reduce_max %i {dims = array<i64: 1>} : tensor<5x6xi32> -> tensor<5xi32>
  %3 = ens.reduce_max %i {dims = array<i64: 0, 1>} : tensor<5x6xi32> -> tensor<i32>
  %4 = ens.reduce_mean %x {dims = array<i64: 1>}
      : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %5 = ens.logsumexp %d {dims = array<i64: 0>} : tensor<7xf64> -> tensor<f64>
  return %0, %1, %2, %3, %4, %5 : tensor<3xf32>, tensor<2x3x4xf32>,
      tensor<5xi32>, tensor<i32>, tensor<2x4xf32>, tensor<f64>
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @einsum(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4x3xf32>, %[[W:[^:]*]]: tensor<3x2xf32>, %[[K:[^:]*]]: tensor<5x6x2xf32>, %[[Y:[^:]*]]: tensor<2x7xf32>, %[[I:[^:]*]]: tensor<3xi32>, %[[D:[^:]*]]: tensor<2x3xf64>)
func.func @einsum(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>,
                  %k: tensor<5x6x2xf32>, %y: tensor<2x7xf32>,
                  %i: tensor<3xi32>, %d: tensor<2x3xf64>)
    -> (tensor<4x2xf32>, tensor<7x6x5xf32>, tensor<i32>, tensor<3x3xi32>,
        tensor<3x2xf64>, tensor<2x2xf64>) {
  // CHECK-NEXT: %[[E0:.*]] = ens.einsum %[[X]], %[[W]] {spec = "bi,io->bo"} : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
  // Labels in a non-trivial order: k=5, b=6, i=2 from lhs, j=7 from rhs.
  // CHECK-NEXT: %[[E1:.*]] = ens.einsum %[[K]], %[[Y]] {spec = "kbi,ij->jbk"} : tensor<5x6x2xf32>, tensor<2x7xf32> -> tensor<7x6x5xf32>
  // Dot product to a scalar, and an outer product.
  // CHECK-NEXT: %[[E2:.*]] = ens.einsum %[[I]], %[[I]] {spec = "i,i->"} : tensor<3xi32>, tensor<3xi32> -> tensor<i32>
  // CHECK-NEXT: %[[E3:.*]] = ens.einsum %[[I]], %[[I]] {spec = "i,j->ij"} : tensor<3xi32>, tensor<3xi32> -> tensor<3x3xi32>
  // A label summed within one operand only, and a transposed output.
  // CHECK-NEXT: %[[E4:.*]] = ens.einsum %[[D]], %[[D]] {spec = "ab,cb->ba"} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<3x2xf64>
  // CHECK-NEXT: %[[E5:.*]] = ens.einsum %[[D]], %[[D]] {spec = "ab,cb->ac"} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x2xf64>
  %0 = ens.einsum %x, %w {spec = "bi,io->bo"}
      : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
  %1 = ens.einsum %k, %y {spec = "kbi,ij->jbk"}
      : tensor<5x6x2xf32>, tensor<2x7xf32> -> tensor<7x6x5xf32>
  %2 = ens.einsum %i, %i {spec = "i,i->"}
      : tensor<3xi32>, tensor<3xi32> -> tensor<i32>
  %3 = ens.einsum %i, %i {spec = "i,j->ij"}
      : tensor<3xi32>, tensor<3xi32> -> tensor<3x3xi32>
  %4 = ens.einsum %d, %d {spec = "ab,cb->ba"}
      : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<3x2xf64>
  %5 = ens.einsum %d, %d {spec = "ab,cb->ac"}
      : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x2xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<4x2xf32>, tensor<7x6x5xf32>,
      tensor<i32>, tensor<3x3xi32>, tensor<3x2xf64>, tensor<2x2xf64>
}

// The result is the free dims of lhs then those of rhs, each in order.
// CHECK-LABEL: func.func @tensordot(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2x3x4x5xf32>, %[[B:[^:]*]]: tensor<5x6x3xf32>, %[[I:[^:]*]]: tensor<3x4xi32>, %[[J:[^:]*]]: tensor<2x5xi32>)
func.func @tensordot(%a: tensor<2x3x4x5xf32>, %b: tensor<5x6x3xf32>,
                     %i: tensor<3x4xi32>, %j: tensor<2x5xi32>)
    -> (tensor<2x4x6xf32>, tensor<3x4x2x5xi32>, tensor<i32>) {
  // CHECK-NEXT: %[[T0:.*]] = ens.tensordot %[[A]], %[[B]] {lhs_dims = array<i64: 3, 1>, rhs_dims = array<i64: 0, 2>} : tensor<2x3x4x5xf32>, tensor<5x6x3xf32> -> tensor<2x4x6xf32>
  // CHECK-NEXT: %[[T1:.*]] = ens.tensordot %[[I]], %[[J]] {lhs_dims = array<i64>, rhs_dims = array<i64>} : tensor<3x4xi32>, tensor<2x5xi32> -> tensor<3x4x2x5xi32>
  // CHECK-NEXT: %[[T2:.*]] = ens.tensordot %[[I]], %[[I]] {lhs_dims = array<i64: 1, 0>, rhs_dims = array<i64: 1, 0>} : tensor<3x4xi32>, tensor<3x4xi32> -> tensor<i32>
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64: 3, 1>,
                             rhs_dims = array<i64: 0, 2>}
      : tensor<2x3x4x5xf32>, tensor<5x6x3xf32> -> tensor<2x4x6xf32>
  %1 = ens.tensordot %i, %j {lhs_dims = array<i64>, rhs_dims = array<i64>}
      : tensor<3x4xi32>, tensor<2x5xi32> -> tensor<3x4x2x5xi32>
  %2 = ens.tensordot %i, %i {lhs_dims = array<i64: 1, 0>,
                             rhs_dims = array<i64: 1, 0>}
      : tensor<3x4xi32>, tensor<3x4xi32> -> tensor<i32>
  return %0, %1, %2 : tensor<2x4x6xf32>, tensor<3x4x2x5xi32>, tensor<i32>
}

// numpy.matmul: rank-1 operands are promoted then the added dim dropped;
// batch dims broadcast.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[M:[^:]*]]: tensor<2x3xf32>, %[[N:[^:]*]]: tensor<3x4xf32>, %[[V:[^:]*]]: tensor<3xf32>, %[[U:[^:]*]]: tensor<2xf32>, %[[BA:[^:]*]]: tensor<5x1x2x3xf32>, %[[BB:[^:]*]]: tensor<6x3x4xf32>, %[[I:[^:]*]]: tensor<4x2x3xi32>, %[[IV:[^:]*]]: tensor<3xi32>, %[[D:[^:]*]]: tensor<3x3xf64>, %[[DV:[^:]*]]: tensor<3xf64>)
func.func @matmul(%m: tensor<2x3xf32>, %n: tensor<3x4xf32>, %v: tensor<3xf32>,
                  %u: tensor<2xf32>, %ba: tensor<5x1x2x3xf32>,
                  %bb: tensor<6x3x4xf32>, %i: tensor<4x2x3xi32>,
                  %iv: tensor<3xi32>, %d: tensor<3x3xf64>, %dv: tensor<3xf64>)
    -> (tensor<2x4xf32>, tensor<2xf32>, tensor<3xf32>, tensor<f32>,
        tensor<5x6x2x4xf32>, tensor<4x2xi32>, tensor<3x3xf64>,
        tensor<3xf64>) {
  // CHECK-NEXT: %[[R0:.*]] = ens.matmul %[[M]], %[[N]] : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  // CHECK-NEXT: %[[R1:.*]] = ens.matmul %[[M]], %[[V]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
  // CHECK-NEXT: %[[R2:.*]] = ens.matmul %[[U]], %[[M]] : tensor<2xf32>, tensor<2x3xf32> -> tensor<3xf32>
  // CHECK-NEXT: %[[R3:.*]] = ens.matmul %[[V]], %[[V]] : tensor<3xf32>, tensor<3xf32> -> tensor<f32>
  // CHECK-NEXT: %[[R4:.*]] = ens.matmul %[[BA]], %[[BB]] : tensor<5x1x2x3xf32>, tensor<6x3x4xf32> -> tensor<5x6x2x4xf32>
  // CHECK-NEXT: %[[R5:.*]] = ens.matmul %[[I]], %[[IV]] : tensor<4x2x3xi32>, tensor<3xi32> -> tensor<4x2xi32>
  // CHECK-NEXT: %[[R6:.*]] = ens.matmul %[[D]], %[[D]] : tensor<3x3xf64>, tensor<3x3xf64> -> tensor<3x3xf64>
  // CHECK-NEXT: %[[R7:.*]] = ens.matmul %[[DV]], %[[D]] : tensor<3xf64>, tensor<3x3xf64> -> tensor<3xf64>
  %0 = ens.matmul %m, %n : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  %1 = ens.matmul %m, %v : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
  %2 = ens.matmul %u, %m : tensor<2xf32>, tensor<2x3xf32> -> tensor<3xf32>
  %3 = ens.matmul %v, %v : tensor<3xf32>, tensor<3xf32> -> tensor<f32>
  %4 = ens.matmul %ba, %bb
      : tensor<5x1x2x3xf32>, tensor<6x3x4xf32> -> tensor<5x6x2x4xf32>
  %5 = ens.matmul %i, %iv : tensor<4x2x3xi32>, tensor<3xi32> -> tensor<4x2xi32>
  %6 = ens.matmul %d, %d : tensor<3x3xf64>, tensor<3x3xf64> -> tensor<3x3xf64>
  %7 = ens.matmul %dv, %d : tensor<3xf64>, tensor<3x3xf64> -> tensor<3xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x4xf32>, tensor<2xf32>,
      tensor<3xf32>, tensor<f32>, tensor<5x6x2x4xf32>, tensor<4x2xi32>,
      tensor<3x3xf64>, tensor<3xf64>
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @normalisations(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x5xf32>, %[[D:[^:]*]]: tensor<3xf64>, %[[H:[^:]*]]: tensor<4x2xf16>, %[[BF:[^:]*]]: tensor<4xbf16>)
func.func @normalisations(%x: tensor<2x5xf32>, %d: tensor<3xf64>,
                          %h: tensor<4x2xf16>, %bf: tensor<4xbf16>)
    -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<3xf64>, tensor<4x2xf16>,
        tensor<2xf32>, tensor<bf16>) {
  // CHECK-NEXT: %[[S:.*]] = ens.softmax %[[X]] {dim = 1 : i64} : tensor<2x5xf32>
  // CHECK-NEXT: %[[LS0:.*]] = ens.log_softmax %[[X]] {dim = 0 : i64} : tensor<2x5xf32>
  // CHECK-NEXT: %[[LS1:.*]] = ens.log_softmax %[[D]] {dim = 0 : i64} : tensor<3xf64>
  // CHECK-NEXT: %[[SH:.*]] = ens.softmax %[[H]] {dim = 0 : i64} : tensor<4x2xf16>
  // CHECK-NEXT: %[[LSE0:.*]] = ens.logsumexp %[[X]] {dims = array<i64: 1>} : tensor<2x5xf32> -> tensor<2xf32>
  // CHECK-NEXT: %[[LSE1:.*]] = ens.logsumexp %[[BF]] {dims = array<i64: 0>} : tensor<4xbf16> -> tensor<bf16>
  %0 = ens.softmax %x {dim = 1 : i64} : tensor<2x5xf32>
  %1 = ens.log_softmax %x {dim = 0 : i64} : tensor<2x5xf32>
  %2 = ens.log_softmax %d {dim = 0 : i64} : tensor<3xf64>
  %3 = ens.softmax %h {dim = 0 : i64} : tensor<4x2xf16>
  %4 = ens.logsumexp %x {dims = array<i64: 1>} : tensor<2x5xf32> -> tensor<2xf32>
  %5 = ens.logsumexp %bf {dims = array<i64: 0>} : tensor<4xbf16> -> tensor<bf16>
  return %0, %1, %2, %3, %4, %5 : tensor<2x5xf32>, tensor<2x5xf32>,
      tensor<3xf64>, tensor<4x2xf16>, tensor<2xf32>, tensor<bf16>
}

//===----------------------------------------------------------------------===//
// Unknown sizes (`?`): a check involving one passes; an inferred size that
// depends on one is `?`, unless a static size it must equal is known.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dynamic_elementwise(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<?x4xf32>, %[[B:[^:]*]]: tensor<?x4xf32>)
func.func @dynamic_elementwise(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>)
    -> (tensor<?x4xf32>, tensor<?x4xi32>) {
  // CHECK-NEXT: %[[ADD:.*]] = ens.add %[[A]], %[[B]] : tensor<?x4xf32>
  // CHECK-NEXT: %[[EXP:.*]] = ens.exp %[[ADD]] : tensor<?x4xf32>
  // CHECK-NEXT: %[[LT:.*]] = ens.cmp lt, %[[A]], %[[EXP]] : tensor<?x4xf32>
  // CHECK-NEXT: %[[SEL:.*]] = ens.select %[[LT]], %[[A]], %[[B]] : tensor<?x4xi1>, tensor<?x4xf32>
  // CHECK-NEXT: %[[CVT:.*]] = ens.convert %[[SEL]] : tensor<?x4xf32> -> tensor<?x4xi32>
  // CHECK-NEXT: %[[SM:.*]] = ens.softmax %[[SEL]] {dim = 1 : i64} : tensor<?x4xf32>
  // CHECK-NEXT: return %[[SM]], %[[CVT]]
  %0 = ens.add %a, %b : tensor<?x4xf32>
  %1 = ens.exp %0 : tensor<?x4xf32>
  %2 = ens.cmp lt, %a, %1 : tensor<?x4xf32>
  %3 = ens.select %2, %a, %b : tensor<?x4xi1>, tensor<?x4xf32>
  %4 = ens.convert %3 : tensor<?x4xf32> -> tensor<?x4xi32>
  %5 = ens.softmax %3 {dim = 1 : i64} : tensor<?x4xf32>
  return %5, %4 : tensor<?x4xf32>, tensor<?x4xi32>
}

// CHECK-LABEL: func.func @dynamic_shapes(
func.func @dynamic_shapes(%x: tensor<?x4xf32>, %s: tensor<3x4xf32>,
                          %t: tensor<2x?xf32>, %ids: tensor<?xi32>,
                          %table: tensor<10x4xf32>, %v: tensor<4xf32>)
    -> (tensor<4x?xf32>, tensor<2x4xf32>, tensor<?x6xf32>, tensor<?x4xf32>,
        tensor<2x?xf32>, tensor<?x4xf32>, tensor<?xf32>, tensor<?x4xf32>,
        tensor<?x2x2xf32>, tensor<?x10xf32>, tensor<?x4xf32>) {
  // CHECK: ens.transpose %{{.*}} {permutation = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  // CHECK: ens.slice %{{.*}} {{.*}} : tensor<?x4xf32> -> tensor<2x4xf32>
  // CHECK: ens.pad %{{.*}} {{.*}} : tensor<?x4xf32> -> tensor<?x6xf32>
  // CHECK: ens.concat %{{.*}}, %{{.*}} {dim = 0 : i64} : tensor<?x4xf32>, tensor<3x4xf32> -> tensor<?x4xf32>
  // CHECK: ens.concat %{{.*}}, %{{.*}} {dim = 1 : i64} : tensor<?x4xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: ens.take %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<10x4xf32>, tensor<?xi32> -> tensor<?x4xf32>
  // CHECK: ens.reduce_sum %{{.*}} {dims = array<i64: 1>} : tensor<?x4xf32> -> tensor<?xf32>
  // CHECK: ens.broadcast_in_dim %{{.*}} {dims = array<i64: 1>} : tensor<4xf32> -> tensor<?x4xf32>
  // CHECK: ens.reshape %{{.*}} : tensor<?x4xf32> -> tensor<?x2x2xf32>
  // CHECK: ens.one_hot %{{.*}} : tensor<?xi32> -> tensor<?x10xf32>
  // CHECK: ens.scatter_add %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<?x4xf32>, tensor<?xi32> -> tensor<?x4xf32>
  %0 = ens.transpose %x {permutation = array<i64: 1, 0>}
      : tensor<?x4xf32> -> tensor<4x?xf32>
  %1 = ens.slice %x {start = array<i64: 0, 0>, limit = array<i64: 2, 4>,
                     stride = array<i64: 1, 1>}
      : tensor<?x4xf32> -> tensor<2x4xf32>
  %2 = ens.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 1>,
                   interior = array<i64: 0, 0>}
      : tensor<?x4xf32> -> tensor<?x6xf32>
  %3 = ens.concat %x, %s {dim = 0 : i64}
      : tensor<?x4xf32>, tensor<3x4xf32> -> tensor<?x4xf32>
  %4 = ens.concat %x, %t {dim = 1 : i64}
      : tensor<?x4xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %5 = ens.take %table, %ids {axis = 0 : i64}
      : tensor<10x4xf32>, tensor<?xi32> -> tensor<?x4xf32>
  %6 = ens.reduce_sum %x {dims = array<i64: 1>} : tensor<?x4xf32> -> tensor<?xf32>
  %7 = ens.broadcast_in_dim %v {dims = array<i64: 1>}
      : tensor<4xf32> -> tensor<?x4xf32>
  %8 = ens.reshape %x : tensor<?x4xf32> -> tensor<?x2x2xf32>
  %9 = ens.one_hot %ids : tensor<?xi32> -> tensor<?x10xf32>
  %10 = ens.scatter_add %x, %ids {axis = 0 : i64}
      : tensor<?x4xf32>, tensor<?xi32> -> tensor<?x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10
      : tensor<4x?xf32>, tensor<2x4xf32>, tensor<?x6xf32>, tensor<?x4xf32>,
        tensor<2x?xf32>, tensor<?x4xf32>, tensor<?xf32>, tensor<?x4xf32>,
        tensor<?x2x2xf32>, tensor<?x10xf32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @dynamic_contractions(
func.func @dynamic_contractions(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>,
                                %u: tensor<2x?xf32>, %b: tensor<?x2x4xf32>,
                                %c: tensor<5x4x3xf32>)
    -> (tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>, tensor<5x2x3xf32>,
        tensor<2x3xf32>) {
  // CHECK: ens.einsum %{{.*}}, %{{.*}} {spec = "bi,io->bo"} : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  // CHECK: ens.einsum %{{.*}}, %{{.*}} {spec = "bi,io->bo"} : tensor<2x?xf32>, tensor<4x3xf32> -> tensor<2x3xf32>
  // CHECK: ens.matmul %{{.*}}, %{{.*}} : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  // CHECK: ens.matmul %{{.*}}, %{{.*}} : tensor<?x2x4xf32>, tensor<5x4x3xf32> -> tensor<5x2x3xf32>
  // CHECK: ens.tensordot %{{.*}}, %{{.*}} {{.*}} : tensor<2x?xf32>, tensor<4x3xf32> -> tensor<2x3xf32>
  %0 = ens.einsum %x, %w {spec = "bi,io->bo"}
      : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %1 = ens.einsum %u, %w {spec = "bi,io->bo"}
      : tensor<2x?xf32>, tensor<4x3xf32> -> tensor<2x3xf32>
  %2 = ens.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %3 = ens.matmul %b, %c
      : tensor<?x2x4xf32>, tensor<5x4x3xf32> -> tensor<5x2x3xf32>
  %4 = ens.tensordot %u, %w {lhs_dims = array<i64: 1>, rhs_dims = array<i64: 0>}
      : tensor<2x?xf32>, tensor<4x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<?x3xf32>, tensor<2x3xf32>,
      tensor<?x3xf32>, tensor<5x2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_random(
func.func @dynamic_random(%key: tensor<?x2xi32>, %data: tensor<?xi32>)
    -> (tensor<?x3xf32>, tensor<?x4x2xi32>, tensor<?x2xi32>) {
  // CHECK: ens.random_uniform %{{.*}} : tensor<?x2xi32> -> tensor<?x3xf32>
  // CHECK: ens.random_split %{{.*}} : tensor<?x2xi32> -> tensor<?x4x2xi32>
  // CHECK: ens.random_fold_in %{{.*}}, %{{.*}} : tensor<?x2xi32>, tensor<?xi32> -> tensor<?x2xi32>
  %0 = ens.random_uniform %key : tensor<?x2xi32> -> tensor<?x3xf32>
  %1 = ens.random_split %key : tensor<?x2xi32> -> tensor<?x4x2xi32>
  %2 = ens.random_fold_in %key, %data
      : tensor<?x2xi32>, tensor<?xi32> -> tensor<?x2xi32>
  return %0, %1, %2 : tensor<?x3xf32>, tensor<?x4x2xi32>, tensor<?x2xi32>
}

// A member written with a `?` batch accepts any batch from ens.vmap and
// ens.value_and_grad; ens-specialize gives it the caller's sizes.
func.func @dynamic_member(%x: tensor<?x4xf32>, %w: tensor<4xf32>)
    -> tensor<f32> {
  %y = ens.einsum %x, %w {spec = "bi,i->b"}
      : tensor<?x4xf32>, tensor<4xf32> -> tensor<?xf32>
  %l = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @dynamic_callers(
func.func @dynamic_callers(%x: tensor<8x4xf32>, %w: tensor<3x4xf32>)
    -> (tensor<3xf32>, tensor<f32>, tensor<4xf32>) {
  // CHECK: ens.vmap @dynamic_member({{.*}}) {{.*}} : (tensor<8x4xf32>, tensor<3x4xf32>) -> tensor<3xf32>
  // CHECK: ens.value_and_grad @dynamic_member({{.*}}) {{.*}} : (tensor<8x4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  %0 = ens.vmap @dynamic_member(%x, %w) {in_axes = array<i64: -1, 0>,
                                         out_axes = array<i64: 0>,
                                         size = 3 : i64}
      : (tensor<8x4xf32>, tensor<3x4xf32>) -> tensor<3xf32>
  %w0 = ens.slice %w {start = array<i64: 0, 0>, limit = array<i64: 1, 4>,
                      stride = array<i64: 1, 1>}
      : tensor<3x4xf32> -> tensor<1x4xf32>
  %w1 = ens.reshape %w0 : tensor<1x4xf32> -> tensor<4xf32>
  %1:2 = ens.value_and_grad @dynamic_member(%x, %w1) {wrt = array<i64: 1>}
      : (tensor<8x4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %0, %1#0, %1#1 : tensor<3xf32>, tensor<f32>, tensor<4xf32>
}

// The layouts of ens.conv are all one op: NCHW/OIHW, NHWC/HWIO and a 1-D
// grouped, strided, padded and dilated convolution in a mixed layout. The
// optional window attributes print only when given.
// CHECK-LABEL: func.func @conv(
func.func @conv(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>,
                %xn: tensor<2x8x8x3xf64>, %wn: tensor<3x3x3x4xf64>,
                %x1: tensor<9x2x4xf32>, %w1: tensor<3x2x6xf32>)
    -> (tensor<2x4x8x8xf32>, tensor<2x6x6x4xf64>, tensor<6x2x5xf32>) {
  // CHECK: ens.conv %{{.*}}, %{{.*}} {lhs_dims = array<i64: 0, 1, 2, 3>, out_dims = array<i64: 0, 1, 2, 3>, padding = array<i64: 1, 1, 1, 1>, rhs_dims = array<i64: 0, 1, 2, 3>} : tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<2x4x8x8xf32>
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                        rhs_dims = array<i64: 0, 1, 2, 3>,
                        out_dims = array<i64: 0, 1, 2, 3>,
                        padding = array<i64: 1, 1, 1, 1>}
      : tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<2x4x8x8xf32>
  // CHECK: ens.conv %{{.*}}, %{{.*}} {lhs_dims = array<i64: 0, 3, 1, 2>, out_dims = array<i64: 0, 3, 1, 2>, rhs_dims = array<i64: 3, 2, 0, 1>} : tensor<2x8x8x3xf64>, tensor<3x3x3x4xf64> -> tensor<2x6x6x4xf64>
  %1 = ens.conv %xn, %wn {lhs_dims = array<i64: 0, 3, 1, 2>,
                          rhs_dims = array<i64: 3, 2, 0, 1>,
                          out_dims = array<i64: 0, 3, 1, 2>}
      : tensor<2x8x8x3xf64>, tensor<3x3x3x4xf64> -> tensor<2x6x6x4xf64>
  // CHECK: ens.conv %{{.*}}, %{{.*}} {feature_group_count = 2 : i64, lhs_dilation = array<i64: 2>, lhs_dims = array<i64: 1, 2, 0>, out_dims = array<i64: 1, 0, 2>, padding = array<i64: 1, -1>, rhs_dilation = array<i64: 2>, rhs_dims = array<i64: 2, 1, 0>, window_strides = array<i64: 3>} : tensor<9x2x4xf32>, tensor<3x2x6xf32> -> tensor<6x2x5xf32>
  %2 = ens.conv %x1, %w1 {lhs_dims = array<i64: 1, 2, 0>,
                          rhs_dims = array<i64: 2, 1, 0>,
                          out_dims = array<i64: 1, 0, 2>,
                          window_strides = array<i64: 3>,
                          padding = array<i64: 1, -1>,
                          lhs_dilation = array<i64: 2>,
                          rhs_dilation = array<i64: 2>,
                          feature_group_count = 2 : i64}
      : tensor<9x2x4xf32>, tensor<3x2x6xf32> -> tensor<6x2x5xf32>
  return %0, %1, %2
      : tensor<2x4x8x8xf32>, tensor<2x6x6x4xf64>, tensor<6x2x5xf32>
}

// Pooling is ens.reduce_window; the optional window attributes print only
// when given.
// CHECK-LABEL: func.func @reduce_window(
func.func @reduce_window(%x: tensor<2x3x8x8xf32>)
    -> (tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>) {
  // CHECK: ens.reduce_window max, %{{.*}} {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 1, 1, 2, 2>,
                                  window_strides = array<i64: 1, 1, 2, 2>}
      : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  // CHECK: ens.reduce_window add, %{{.*}} {padding = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 3>} : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  %1 = ens.reduce_window add, %x {window_dimensions = array<i64: 1, 1, 3, 3>,
                                  padding = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>}
      : tensor<2x3x8x8xf32> -> tensor<2x3x8x8xf32>
  return %0, %1 : tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>
}
