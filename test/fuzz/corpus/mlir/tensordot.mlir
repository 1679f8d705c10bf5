// A model written for ONE example: tensordot has no batch dimension, so
//   y = tensordot(x[3x2], W[3x2x1], dims=[[0, 1], [0, 1]]) + b
// maps one 3x2 example to one output. A later pass batches it over
// examples (the batching rule rewrites tensordot into an einsum).
//
//   ens-run examples/tensordot.mlir --input=examples/data/td_x.npy \
//     --input=examples/data/td_w.npy --input=examples/data/td_b.npy

func.func @predict(%x: tensor<3x2xf32>, %w: tensor<3x2x1xf32>,
                   %b: tensor<1xf32>) -> tensor<1xf32> {
  %0 = ens.tensordot %x, %w {lhs_dims = array<i64: 0, 1>,
                             rhs_dims = array<i64: 0, 1>}
      : tensor<3x2xf32>, tensor<3x2x1xf32> -> tensor<1xf32>
  %y = ens.add %0, %b : tensor<1xf32>
  return %y : tensor<1xf32>
}
