// Initialises 128 members of the example MLP (examples/mlp.mlir) from ONE
// key, and the Adam state they start training with.
//
// @init_member initialises one member; ens.vmap runs it for 128 with
// randomness "different" (the default), so each member folds its index into
// the key and draws its own weights. Weights are Xavier-uniform (from the
// standard library, instantiated by ens-stdlib for these shapes), biases 0.
//
//   ens-run examples/ensemble_init.mlir --entry=init --random-inputs=7

func.func private @xavier_64x32(tensor<2xi32>, tensor<f32>, tensor<f32>)
    -> tensor<64x32xf32> attributes {ens.stdlib = "xavier_uniform"}
func.func private @xavier_32x8(tensor<2xi32>, tensor<f32>, tensor<f32>)
    -> tensor<32x8xf32> attributes {ens.stdlib = "xavier_uniform"}

func.func @init_member(%key: tensor<2xi32>)
    -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>) {
  %keys = ens.random_split %key : tensor<2xi32> -> tensor<2x2xi32>
  %k0 = ens.slice %keys {start = array<i64: 0, 0>, limit = array<i64: 1, 2>,
                         stride = array<i64: 1, 1>}
      : tensor<2x2xi32> -> tensor<1x2xi32>
  %k1 = ens.slice %keys {start = array<i64: 1, 0>, limit = array<i64: 2, 2>,
                         stride = array<i64: 1, 1>}
      : tensor<2x2xi32> -> tensor<1x2xi32>
  %key0 = ens.reshape %k0 : tensor<1x2xi32> -> tensor<2xi32>
  %key1 = ens.reshape %k1 : tensor<1x2xi32> -> tensor<2xi32>
  %c64 = ens.constant dense<64.0> : tensor<f32>
  %c32 = ens.constant dense<32.0> : tensor<f32>
  %c8 = ens.constant dense<8.0> : tensor<f32>
  %w1 = call @xavier_64x32(%key0, %c64, %c32)
      : (tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<64x32xf32>
  %w2 = call @xavier_32x8(%key1, %c32, %c8)
      : (tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<32x8xf32>
  %b1 = ens.constant dense<0.0> : tensor<32xf32>
  %b2 = ens.constant dense<0.0> : tensor<8xf32>
  return %w1, %b1, %w2, %b2
      : tensor<64x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<8xf32>
}

// Returns the stacked parameters (w1, b1, w2, b2), then Adam's first and
// second moments for each, all zero.
func.func @init(%key: tensor<2xi32>)
    -> (tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>) {
  %w1, %b1, %w2, %b2 = ens.vmap @init_member(%key)
      {in_axes = array<i64: -1>, out_axes = array<i64: 0, 0, 0, 0>,
       size = 128 : i64}
      : (tensor<2xi32>) -> (tensor<128x64x32xf32>, tensor<128x32xf32>,
                            tensor<128x32x8xf32>, tensor<128x8xf32>)
  %z1 = ens.constant dense<0.0> : tensor<128x64x32xf32>
  %z2 = ens.constant dense<0.0> : tensor<128x32xf32>
  %z3 = ens.constant dense<0.0> : tensor<128x32x8xf32>
  %z4 = ens.constant dense<0.0> : tensor<128x8xf32>
  return %w1, %b1, %w2, %b2, %z1, %z2, %z3, %z4, %z1, %z2, %z3, %z4
      : tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>,
        tensor<128x64x32xf32>, tensor<128x32xf32>, tensor<128x32x8xf32>,
        tensor<128x8xf32>
}
