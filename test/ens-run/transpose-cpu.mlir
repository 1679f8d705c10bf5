// Transposes that move the innermost dim, whose CPU tiles read a vector's
// worth of the input's rows and columns and transpose them in registers
// (ens-cpu-tile-and-vectorize), against the interpreter: sizes that are no
// multiple of the lanes (5x7), whole vectors (32x48), and an output
// gradient's channels moved innermost (2x3x16x4x8 -> 2x3x4x8x16).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in odd whole channels; do \
// RUN:   ens-run %s --entry=$f --random-inputs=5 --output-dir=%t/$f && \
// RUN:   ens-run %s --entry=$f --random-inputs=5 --backend=cpu --rtol=0 --atol=0 --expect=%t/$f/out0.npy \
// RUN:     || exit 1; done

func.func @odd(%x: tensor<3x5x7xf32>) -> tensor<7x3x5xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 2, 0, 1>} : tensor<3x5x7xf32> -> tensor<7x3x5xf32>
  return %0 : tensor<7x3x5xf32>
}

func.func @whole(%x: tensor<32x48xf32>) -> tensor<48x32xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 1, 0>} : tensor<32x48xf32> -> tensor<48x32xf32>
  return %0 : tensor<48x32xf32>
}

func.func @channels(%x: tensor<2x3x16x4x8xf32>) -> tensor<2x3x4x8x16xf32> {
  %0 = ens.transpose %x {permutation = array<i64: 0, 1, 3, 4, 2>} : tensor<2x3x16x4x8xf32> -> tensor<2x3x4x8x16xf32>
  return %0 : tensor<2x3x4x8x16xf32>
}
