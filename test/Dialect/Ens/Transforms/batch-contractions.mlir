// RUN: ens-opt %s --ens-batch --split-input-file | FileCheck %s

// Shared data, batched weights: the einsum gains a batch label on the
// weights and the output only; the data is not broadcast.
func.func @member(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %y = ens.einsum %x, %w {spec = "bi,io->bo"} : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
func.func @rhs_batched(%x: tensor<4x3xf32>, %w: tensor<8x3x2xf32>) -> tensor<8x4x2xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64} : (tensor<4x3xf32>, tensor<8x3x2xf32>) -> tensor<8x4x2xf32>
  return %y : tensor<8x4x2xf32>
}
// CHECK-LABEL: func.func private @member_vmap
// CHECK-SAME:    (%[[X:.*]]: tensor<4x3xf32>, %[[W:.*]]: tensor<8x3x2xf32>) -> tensor<8x4x2xf32>
// CHECK-NEXT:    %[[E:.*]] = ens.einsum %[[X]], %[[W]] {spec = "bi,aio->abo"} : tensor<4x3xf32>, tensor<8x3x2xf32> -> tensor<8x4x2xf32>
// CHECK-NEXT:    return %[[E]]
// CHECK-LABEL: func.func @rhs_batched
// CHECK-NEXT:    %[[Y:.*]] = call @member_vmap(%arg0, %arg1)
// CHECK-NEXT:    return %[[Y]]

// -----

// Batched data at a non-leading axis, shared weights.
func.func @member(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %y = ens.einsum %x, %w {spec = "bi,io->bo"} : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
func.func @lhs_batched(%x: tensor<4x5x3xf32>, %w: tensor<3x2xf32>) -> tensor<4x2x5xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: 1, -1>, out_axes = array<i64: 2>, size = 5 : i64} : (tensor<4x5x3xf32>, tensor<3x2xf32>) -> tensor<4x2x5xf32>
  return %y : tensor<4x2x5xf32>
}
// CHECK-LABEL: func.func private @member_vmap
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "bai,io->abo"} : tensor<4x5x3xf32>, tensor<3x2xf32> -> tensor<5x4x2xf32>
// CHECK-LABEL: func.func @lhs_batched
// CHECK:         %[[Y:.*]] = call @member_vmap(%arg0, %arg1)
// The batch leads the einsum output; the vmap asked for axis 2.
// CHECK-NEXT:    %[[T:.*]] = ens.transpose %[[Y]] {permutation = array<i64: 1, 2, 0>} : tensor<5x4x2xf32> -> tensor<4x2x5xf32>

// -----

// Both batched.
func.func @member(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %y = ens.einsum %x, %w {spec = "bi,io->bo"} : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
func.func @both_batched(%x: tensor<8x4x3xf32>, %w: tensor<3x2x8xf32>) -> tensor<8x4x2xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: 0, 2>, out_axes = array<i64: 0>, size = 8 : i64} : (tensor<8x4x3xf32>, tensor<3x2x8xf32>) -> tensor<8x4x2xf32>
  return %y : tensor<8x4x2xf32>
}
// CHECK-LABEL: func.func private @member_vmap
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "abi,ioa->abo"} : tensor<8x4x3xf32>, tensor<3x2x8xf32> -> tensor<8x4x2xf32>
// CHECK-NOT:     ens.transpose

// -----

// tensordot has no batch dims: it becomes an einsum with a batch label.
func.func @predict(%x: tensor<3x2xf32>, %w: tensor<3x2x1xf32>) -> tensor<1xf32> {
  %y = ens.tensordot %x, %w {lhs_dims = array<i64: 0, 1>, rhs_dims = array<i64: 0, 1>} : tensor<3x2xf32>, tensor<3x2x1xf32> -> tensor<1xf32>
  return %y : tensor<1xf32>
}
func.func @tensordot_examples(%x: tensor<8x3x2xf32>, %w: tensor<3x2x1xf32>) -> tensor<8x1xf32> {
  %y = ens.vmap @predict(%x, %w) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 8 : i64} : (tensor<8x3x2xf32>, tensor<3x2x1xf32>) -> tensor<8x1xf32>
  return %y : tensor<8x1xf32>
}
// CHECK-LABEL: func.func private @predict_vmap
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "cab,abe->ce"} : tensor<8x3x2xf32>, tensor<3x2x1xf32> -> tensor<8x1xf32>

// -----

// tensordot with non-monotonic contracted pairs and batched weights.
func.func @contract(%x: tensor<2x3x4xf32>, %w: tensor<4x2x5xf32>) -> tensor<3x5xf32> {
  %y = ens.tensordot %x, %w {lhs_dims = array<i64: 2, 0>, rhs_dims = array<i64: 0, 1>} : tensor<2x3x4xf32>, tensor<4x2x5xf32> -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
func.func @tensordot_members(%x: tensor<2x3x4xf32>, %w: tensor<4x2x6x5xf32>) -> tensor<6x3x5xf32> {
  %y = ens.vmap @contract(%x, %w) {in_axes = array<i64: -1, 2>, out_axes = array<i64: 0>, size = 6 : i64} : (tensor<2x3x4xf32>, tensor<4x2x6x5xf32>) -> tensor<6x3x5xf32>
  return %y : tensor<6x3x5xf32>
}
// lhs labels abc; rhs dims (0, 1) pair with lhs (2, 0): rhs labels c a f.
// CHECK-LABEL: func.func private @contract_vmap
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "abc,cadf->dbf"} : tensor<2x3x4xf32>, tensor<4x2x6x5xf32> -> tensor<6x3x5xf32>

// -----

// matmul with only the lhs, only the rhs, or both batched: always one
// einsum, shared operands untouched.
func.func @mm(%a: tensor<4x3xf32>, %b: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %y = ens.matmul %a, %b : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
func.func @matmul_cases(%a: tensor<4x3xf32>, %b: tensor<3x2xf32>, %as: tensor<7x4x3xf32>, %bs: tensor<7x3x2xf32>)
    -> (tensor<7x4x2xf32>, tensor<7x4x2xf32>, tensor<7x4x2xf32>) {
  %l = ens.vmap @mm(%as, %b) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 7 : i64} : (tensor<7x4x3xf32>, tensor<3x2xf32>) -> tensor<7x4x2xf32>
  %r = ens.vmap @mm(%a, %bs) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 7 : i64} : (tensor<4x3xf32>, tensor<7x3x2xf32>) -> tensor<7x4x2xf32>
  %both = ens.vmap @mm(%as, %bs) {in_axes = array<i64: 0, 0>, out_axes = array<i64: 0>, size = 7 : i64} : (tensor<7x4x3xf32>, tensor<7x3x2xf32>) -> tensor<7x4x2xf32>
  return %l, %r, %both : tensor<7x4x2xf32>, tensor<7x4x2xf32>, tensor<7x4x2xf32>
}
// CHECK-LABEL: func.func private @mm_vmap_1
// CHECK-SAME:    tensor<7x4x3xf32>, %{{.*}}: tensor<7x3x2xf32>
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "dab,dbc->dac"}
// CHECK-LABEL: func.func private @mm_vmap_0
// CHECK-SAME:    tensor<4x3xf32>, %{{.*}}: tensor<7x3x2xf32>
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "ab,dbc->dac"}
// CHECK-LABEL: func.func private @mm_vmap
// CHECK-SAME:    tensor<7x4x3xf32>, %{{.*}}: tensor<3x2xf32>
// CHECK-NEXT:    ens.einsum %arg0, %arg1 {spec = "dab,bc->dac"}
// CHECK-LABEL: func.func @matmul_cases
// CHECK-NEXT:    call @mm_vmap(%arg2, %arg1)
// CHECK-NEXT:    call @mm_vmap_0(%arg0, %arg3)
// CHECK-NEXT:    call @mm_vmap_1(%arg2, %arg3)
// CHECK-NEXT:    return

// -----

// A matmul whose size-1 batch dim broadcasts: it is reshaped away, so the
// other operand's label alone indexes the output.
func.func @bmm(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %y = ens.matmul %a, %b : tensor<2x1x3x4xf32>, tensor<5x4x2xf32> -> tensor<2x5x3x2xf32>
  return %y : tensor<2x5x3x2xf32>
}
func.func @matmul_broadcast(%a: tensor<2x1x3x4x6xf32>, %b: tensor<5x4x2xf32>) -> tensor<6x2x5x3x2xf32> {
  %y = ens.vmap @bmm(%a, %b) {in_axes = array<i64: 4, -1>, out_axes = array<i64: 0>, size = 6 : i64} : (tensor<2x1x3x4x6xf32>, tensor<5x4x2xf32>) -> tensor<6x2x5x3x2xf32>
  return %y : tensor<6x2x5x3x2xf32>
}
// CHECK-LABEL: func.func private @bmm_vmap
// CHECK-NEXT:    %[[R:.*]] = ens.reshape %arg0 : tensor<2x1x3x4x6xf32> -> tensor<2x3x4x6xf32>
// CHECK-NEXT:    ens.einsum %[[R]], %arg1 {spec = "acdf,bde->fabce"} : tensor<2x3x4x6xf32>, tensor<5x4x2xf32> -> tensor<6x2x5x3x2xf32>
