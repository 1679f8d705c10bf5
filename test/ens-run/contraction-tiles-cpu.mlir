// The CPU backend's contraction tiles (ens-cpu-tile-and-vectorize: rows by
// several vectors, split where the tile leaves rows or columns over) against
// the interpreter, at sizes that no tile divides: a product, its two
// transposed forms (dX = dY * W^T, which reads a transposed copy of W, or
// with fewer than 16 rows gathers W^T an element at a time; dW = X^T * dY),
// one per member of an ensemble, and the gradient of a tanh layer whose
// backward pass has all three. Compiled code sums in another order,
// hence the tolerance.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in product transposed_b transposed_b_few_rows transposed_a members; do \
// RUN:   ens-run %s --entry=$f --random-inputs=5 --output-dir=%t/$f && \
// RUN:   ens-run %s --entry=$f --random-inputs=5 --backend=cpu --rtol=1e-4 --atol=1e-5 --expect=%t/$f/out0.npy \
// RUN:     || exit 1; done
// RUN: ens-run %s --entry=layer_gradient --random-inputs=5 --output-dir=%t/layer_gradient
// RUN: ens-run %s --entry=layer_gradient --random-inputs=5 --backend=cpu --rtol=1e-4 --atol=1e-5 \
// RUN:   --expect=%t/layer_gradient/out0.npy --expect=%t/layer_gradient/out1.npy

func.func @product(%x: tensor<37x29xf32>, %w: tensor<29x53xf32>) -> tensor<37x53xf32> {
  %0 = ens.matmul %x, %w : tensor<37x29xf32>, tensor<29x53xf32> -> tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}

func.func @transposed_b(%dy: tensor<37x53xf32>, %w: tensor<29x53xf32>) -> tensor<37x29xf32> {
  %0 = ens.einsum %dy, %w {spec = "bo,io->bi"}
      : tensor<37x53xf32>, tensor<29x53xf32> -> tensor<37x29xf32>
  return %0 : tensor<37x29xf32>
}

func.func @transposed_b_few_rows(%dy: tensor<9x53xf32>, %w: tensor<29x53xf32>) -> tensor<9x29xf32> {
  %0 = ens.einsum %dy, %w {spec = "bo,io->bi"}
      : tensor<9x53xf32>, tensor<29x53xf32> -> tensor<9x29xf32>
  return %0 : tensor<9x29xf32>
}

func.func @transposed_a(%x: tensor<37x29xf32>, %dy: tensor<37x53xf32>) -> tensor<29x53xf32> {
  %0 = ens.einsum %x, %dy {spec = "bi,bo->io"}
      : tensor<37x29xf32>, tensor<37x53xf32> -> tensor<29x53xf32>
  return %0 : tensor<29x53xf32>
}

func.func @members(%x: tensor<3x70x41xf32>, %w: tensor<3x41x150xf32>) -> tensor<3x70x150xf32> {
  %0 = ens.einsum %x, %w {spec = "mbi,mio->mbo"}
      : tensor<3x70x41xf32>, tensor<3x41x150xf32> -> tensor<3x70x150xf32>
  return %0 : tensor<3x70x150xf32>
}

func.func @layer(%x: tensor<37x29xf32>, %w: tensor<29x53xf32>, %v: tensor<53x11xf32>) -> tensor<f32> {
  %h = ens.matmul %x, %w : tensor<37x29xf32>, tensor<29x53xf32> -> tensor<37x53xf32>
  %t = ens.tanh %h : tensor<37x53xf32>
  %y = ens.matmul %t, %v : tensor<37x53xf32>, tensor<53x11xf32> -> tensor<37x11xf32>
  %s = ens.reduce_sum %y {dims = array<i64: 0, 1>} : tensor<37x11xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @layer_gradient(%x: tensor<37x29xf32>, %w: tensor<29x53xf32>, %v: tensor<53x11xf32>)
    -> (tensor<37x29xf32>, tensor<29x53xf32>) {
  %l, %dx, %dw = ens.value_and_grad @layer(%x, %w, %v) {wrt = array<i64: 0, 1>}
      : (tensor<37x29xf32>, tensor<29x53xf32>, tensor<53x11xf32>)
      -> (tensor<f32>, tensor<37x29xf32>, tensor<29x53xf32>)
  return %dx, %dw : tensor<37x29xf32>, tensor<29x53xf32>
}
