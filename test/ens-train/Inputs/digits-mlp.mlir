// The digits classifier member of docs/ens-train.md: 64 standardised pixel
// features, 64 ReLU units, the logits of 10 classes, any batch size (so
// that the last, partial batch of an epoch trains). ens-train supplies the
// softmax cross-entropy. The PyTorch reference with the same architecture
// is tools/ens-bench/peers/digits_torch.py.
func.func @forward(%x: tensor<?x64xf32>, %w1: tensor<64x64xf32>, %b1: tensor<64xf32>,
                   %w2: tensor<64x10xf32>, %b2: tensor<10xf32>) -> tensor<?x10xf32> {
  %0 = ens.matmul %x, %w1 : tensor<?x64xf32>, tensor<64x64xf32> -> tensor<?x64xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<64xf32> -> tensor<?x64xf32>
  %2 = ens.add %0, %1 : tensor<?x64xf32>
  %h = ens.relu %2 : tensor<?x64xf32>
  %3 = ens.matmul %h, %w2 : tensor<?x64xf32>, tensor<64x10xf32> -> tensor<?x10xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<10xf32> -> tensor<?x10xf32>
  %y = ens.add %3, %4 : tensor<?x10xf32>
  return %y : tensor<?x10xf32>
}
