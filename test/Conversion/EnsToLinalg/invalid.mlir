// RUN: not ens-opt %s --convert-ens-to-linalg 2>&1 | FileCheck %s

// The one way the lowering fails on a verified op: a contraction is an
// einsum over the letters a-z, so one that needs more than 26 labels (here
// 14 free lhs dims and 13 free rhs dims) stays illegal, with the reason.

// CHECK: error: 'ens.tensordot' op needs more than 26 einsum labels
// CHECK: error: failed to legalize operation 'ens.tensordot' that was explicitly marked illegal
func.func @too_many_labels(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>, %b: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32> {
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64>, rhs_dims = array<i64>} : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>, tensor<1x1x1x1x1x1x1x1x1x1x1x1x1xf32> -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>
  return %0 : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>
}
