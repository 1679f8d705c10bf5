// One member of a multi-head ensemble: a two-layer perceptron
//   x[256x64] -> Linear(64, 32) -> tanh -> Linear(32, 8)
// and its mean squared error against targets. A later pass batches it over
// the members; here it is written, and runs, for one.
//
//   ens-run examples/mlp.mlir --entry=loss \
//     --input=examples/data/x.npy --input=examples/data/w1.npy \
//     --input=examples/data/b1.npy --input=examples/data/w2.npy \
//     --input=examples/data/b2.npy --input=examples/data/targets.npy

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
