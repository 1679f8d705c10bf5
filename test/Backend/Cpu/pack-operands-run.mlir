// The contractions that ens-cpu-pack-operands packs, and some it leaves
// alone, compiled for the CPU agree with the interpreter: sizes that are
// whole panels and sizes that are not (a vector loop of 20, odd rows and
// reductions).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in transposed transposed_odd contiguous_large input_gradient weight_gradient; do ens-run %s --entry=$f --random-inputs=3 --backend=interp --output-dir=%t/$f && env ENS_CACHE_DIR=%t/cache ens-run %s --entry=$f --random-inputs=3 --backend=cpu --cpu-threads=1 --rtol=1e-5 --atol=1e-5 --expect=%t/$f/out0.npy || exit 1; done
// RUN: ls %t/cache/cpu | count 5

// `bi,oi->bo` per member: the weight is packed into 2 panels of 16 (on
// AVX-512; 4 panels of 8 with AVX2).
func.func @transposed(%x: tensor<2x5x7xf32>, %w: tensor<2x32x7xf32>) -> tensor<2x5x32xf32> {
  %y = ens.einsum %x, %w {spec = "mbi,moi->mbo"} : tensor<2x5x7xf32>, tensor<2x32x7xf32> -> tensor<2x5x32xf32>
  return %y : tensor<2x5x32xf32>
}

// A vector loop of 20: not whole panels, left alone.
func.func @transposed_odd(%x: tensor<2x5x7xf32>, %w: tensor<2x20x7xf32>) -> tensor<2x5x20xf32> {
  %y = ens.einsum %x, %w {spec = "mbi,moi->mbo"} : tensor<2x5x7xf32>, tensor<2x20x7xf32> -> tensor<2x5x20xf32>
  return %y : tensor<2x5x20xf32>
}

// A weight of 40 KiB per member read along its rows: packed.
func.func @contiguous_large(%x: tensor<2x9x160xf32>, %w: tensor<2x160x64xf32>) -> tensor<2x9x64xf32> {
  %y = ens.einsum %x, %w {spec = "mbi,mio->mbo"} : tensor<2x9x160xf32>, tensor<2x160x64xf32> -> tensor<2x9x64xf32>
  return %y : tensor<2x9x64xf32>
}

// An input gradient, dy W^T, reducing over 13 outputs.
func.func @input_gradient(%dy: tensor<2x6x13xf32>, %w: tensor<2x48x13xf32>) -> tensor<2x6x48xf32> {
  %dx = ens.einsum %dy, %w {spec = "mbo,mio->mbi"} : tensor<2x6x13xf32>, tensor<2x48x13xf32> -> tensor<2x6x48xf32>
  return %dx : tensor<2x6x48xf32>
}

// A weight gradient, x^T dy, over a batch of 11: dy fits in an L1 cache
// and is left alone.
func.func @weight_gradient(%x: tensor<2x11x24xf32>, %dy: tensor<2x11x32xf32>) -> tensor<2x24x32xf32> {
  %dw = ens.einsum %x, %dy {spec = "mbi,mbo->mio"} : tensor<2x11x24xf32>, tensor<2x11x32xf32> -> tensor<2x24x32xf32>
  return %dw : tensor<2x24x32xf32>
}
