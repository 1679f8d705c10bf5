// A classifier member for ens-train --task=classify: 4 features, 16 tanh
// units, the logits of 3 classes, any batch size. It has no @loss:
// ens-train trains it on the standard library's softmax cross-entropy.
func.func @forward(%x: tensor<?x4xf32>, %w1: tensor<4x16xf32>, %b1: tensor<16xf32>,
                   %w2: tensor<16x3xf32>, %b2: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = ens.matmul %x, %w1 : tensor<?x4xf32>, tensor<4x16xf32> -> tensor<?x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<?x16xf32>
  %2 = ens.add %0, %1 : tensor<?x16xf32>
  %h = ens.tanh %2 : tensor<?x16xf32>
  %3 = ens.matmul %h, %w2 : tensor<?x16xf32>, tensor<16x3xf32> -> tensor<?x3xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<3xf32> -> tensor<?x3xf32>
  %y = ens.add %3, %4 : tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
