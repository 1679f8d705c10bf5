// 128 members of the example MLP (examples/mlp.mlir) as ONE program: the
// member is written once and lifted over a model axis with ens.vmap. The
// parameters are stacked along a leading member axis ([128x64x32], ...).
//
// Two ensemble cases from users' code:
//   @ensemble_loss_shared      every member sees the same data batch
//                              (data shared, in_axes -1; parameters batched)
//   @ensemble_loss_per_member  every member sees its own batch (bagging)
//
//   ens-run examples/ensemble_mlp.mlir --entry=ensemble_loss_shared \
//     --random-inputs=1
//   ens-opt --ens-batch examples/ensemble_mlp.mlir   # no loop, no vmap left

func.func @forward(%x: tensor<256x64xf32>, %w1: tensor<64x32xf32>,
                   %b1: tensor<32xf32>, %w2: tensor<32x8xf32>,
                   %b2: tensor<8xf32>) -> tensor<256x8xf32> {
  %0 = ens.einsum %x, %w1 {spec = "bi,ih->bh"}
      : tensor<256x64xf32>, tensor<64x32xf32> -> tensor<256x32xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>}
      : tensor<32xf32> -> tensor<256x32xf32>
  %2 = ens.add %0, %1 : tensor<256x32xf32>
  %h = ens.tanh %2 : tensor<256x32xf32>
  %3 = ens.matmul %h, %w2
      : tensor<256x32xf32>, tensor<32x8xf32> -> tensor<256x8xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>}
      : tensor<8xf32> -> tensor<256x8xf32>
  %y = ens.add %3, %4 : tensor<256x8xf32>
  return %y : tensor<256x8xf32>
}

func.func @loss(%x: tensor<256x64xf32>, %w1: tensor<64x32xf32>,
                %b1: tensor<32xf32>, %w2: tensor<32x8xf32>,
                %b2: tensor<8xf32>, %targets: tensor<256x8xf32>)
    -> tensor<f32> {
  %y = call @forward(%x, %w1, %b1, %w2, %b2)
      : (tensor<256x64xf32>, tensor<64x32xf32>, tensor<32xf32>,
         tensor<32x8xf32>, tensor<8xf32>) -> tensor<256x8xf32>
  %error = ens.sub %y, %targets : tensor<256x8xf32>
  %squared = ens.square %error : tensor<256x8xf32>
  %mse = ens.reduce_mean %squared {dims = array<i64: 0, 1>}
      : tensor<256x8xf32> -> tensor<f32>
  return %mse : tensor<f32>
}

// Predictions of every member on one shared batch: [128x256x8].
func.func @ensemble_forward(%x: tensor<256x64xf32>,
                            %w1: tensor<128x64x32xf32>,
                            %b1: tensor<128x32xf32>,
                            %w2: tensor<128x32x8xf32>,
                            %b2: tensor<128x8xf32>) -> tensor<128x256x8xf32> {
  %y = ens.vmap @forward(%x, %w1, %b1, %w2, %b2)
      {in_axes = array<i64: -1, 0, 0, 0, 0>, out_axes = array<i64: 0>,
       size = 128 : i64}
      : (tensor<256x64xf32>, tensor<128x64x32xf32>, tensor<128x32xf32>,
         tensor<128x32x8xf32>, tensor<128x8xf32>) -> tensor<128x256x8xf32>
  return %y : tensor<128x256x8xf32>
}

// Per-member losses on one shared batch.
func.func @ensemble_loss_shared(%x: tensor<256x64xf32>,
                                %w1: tensor<128x64x32xf32>,
                                %b1: tensor<128x32xf32>,
                                %w2: tensor<128x32x8xf32>,
                                %b2: tensor<128x8xf32>,
                                %targets: tensor<256x8xf32>)
    -> tensor<128xf32> {
  %losses = ens.vmap @loss(%x, %w1, %b1, %w2, %b2, %targets)
      {in_axes = array<i64: -1, 0, 0, 0, 0, -1>, out_axes = array<i64: 0>,
       size = 128 : i64}
      : (tensor<256x64xf32>, tensor<128x64x32xf32>, tensor<128x32xf32>,
         tensor<128x32x8xf32>, tensor<128x8xf32>, tensor<256x8xf32>)
      -> tensor<128xf32>
  return %losses : tensor<128xf32>
}

// Per-member losses, each member on its own batch.
func.func @ensemble_loss_per_member(%x: tensor<128x256x64xf32>,
                                    %w1: tensor<128x64x32xf32>,
                                    %b1: tensor<128x32xf32>,
                                    %w2: tensor<128x32x8xf32>,
                                    %b2: tensor<128x8xf32>,
                                    %targets: tensor<128x256x8xf32>)
    -> tensor<128xf32> {
  %losses = ens.vmap @loss(%x, %w1, %b1, %w2, %b2, %targets)
      {in_axes = array<i64: 0, 0, 0, 0, 0, 0>, out_axes = array<i64: 0>,
       size = 128 : i64}
      : (tensor<128x256x64xf32>, tensor<128x64x32xf32>, tensor<128x32xf32>,
         tensor<128x32x8xf32>, tensor<128x8xf32>, tensor<128x256x8xf32>)
      -> tensor<128xf32>
  return %losses : tensor<128xf32>
}
