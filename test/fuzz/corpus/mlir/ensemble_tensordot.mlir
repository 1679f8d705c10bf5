// The tensordot model of examples/tensordot.mlir, written for ONE example,
// run over a batch of 8 examples with ens.vmap. tensordot has no batch
// dimension; its batching rule rewrites it into an einsum with a batch
// label, and the shared weights are not copied per example.
//
//   ens-run examples/ensemble_tensordot.mlir --random-inputs=1
//   ens-opt --ens-batch examples/ensemble_tensordot.mlir

func.func @predict(%x: tensor<3x2xf32>, %w: tensor<3x2x1xf32>,
                   %b: tensor<1xf32>) -> tensor<1xf32> {
  %0 = ens.tensordot %x, %w {lhs_dims = array<i64: 0, 1>,
                             rhs_dims = array<i64: 0, 1>}
      : tensor<3x2xf32>, tensor<3x2x1xf32> -> tensor<1xf32>
  %y = ens.add %0, %b : tensor<1xf32>
  return %y : tensor<1xf32>
}

func.func @predict_batch(%xs: tensor<8x3x2xf32>, %w: tensor<3x2x1xf32>,
                         %b: tensor<1xf32>) -> tensor<8x1xf32> {
  %ys = ens.vmap @predict(%xs, %w, %b)
      {in_axes = array<i64: 0, -1, -1>, out_axes = array<i64: 0>,
       size = 8 : i64}
      : (tensor<8x3x2xf32>, tensor<3x2x1xf32>, tensor<1xf32>)
      -> tensor<8x1xf32>
  return %ys : tensor<8x1xf32>
}
