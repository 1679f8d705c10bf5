// Contractions that ens-cpu-tile-and-vectorize blocks for the caches,
// compiled for the CPU, agree with the interpreter. The blocks come from
// this machine's caches: with any L1 data cache of 16 to 64 KiB, the
// reductions of 784 and 1000 steps (not multiples of the largest blocks
// the L1 would hold) are cut into blocks that divide them (196 and 250
// steps with a 48 KiB L1 and 16 lanes); the pipeline test below fixes the
// sizes, so that blocking is certain.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in layer odd_rows weight_gradient input_gradient; do ens-run %s --entry=$f --random-inputs=3 --backend=interp --output-dir=%t/$f && env ENS_CACHE_DIR=%t/cache ens-run %s --entry=$f --random-inputs=3 --backend=cpu --cpu-threads=1 --rtol=1e-4 --atol=1e-4 --expect=%t/$f/out0.npy || exit 1; done
// RUN: ens-opt %s --convert-ens-to-linalg --ens-cpu-pipeline="vector-bytes=64 l1-bytes=49152 l2-bytes=1048576 l3-bytes=0" --mlir-print-ir-after=ens-cpu-tile-and-vectorize --mlir-disable-threading -o %t/lowered.mlir 2> %t/tiled.mlir
// RUN: FileCheck %s < %t/tiled.mlir

// A layer of 784 inputs per member (mlp-784's first layer), 24 rows.
// CHECK-LABEL: func.func @layer(
// CHECK:         %[[KC:.*]] = arith.constant 196 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC]]
func.func @layer(%x: tensor<2x24x784xf32>, %w: tensor<2x784x32xf32>) -> tensor<2x24x32xf32> {
  %y = ens.einsum %x, %w {spec = "mbi,mio->mbo"} : tensor<2x24x784xf32>, tensor<2x784x32xf32> -> tensor<2x24x32xf32>
  return %y : tensor<2x24x32xf32>
}

// 13 rows (register tiles of one row), 1000 steps, a transposed weight.
// CHECK-LABEL: func.func @odd_rows(
// CHECK:         %[[KC:.*]] = arith.constant 250 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC]]
func.func @odd_rows(%x: tensor<2x13x1000xf32>, %w: tensor<2x48x1000xf32>) -> tensor<2x13x48xf32> {
  %y = ens.einsum %x, %w {spec = "mbi,moi->mbo"} : tensor<2x13x1000xf32>, tensor<2x48x1000xf32> -> tensor<2x13x48xf32>
  return %y : tensor<2x13x48xf32>
}

// A weight gradient, x^T dy, over a batch of 1000.
// CHECK-LABEL: func.func @weight_gradient(
// CHECK:         %[[KC:.*]] = arith.constant 250 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC]]
func.func @weight_gradient(%x: tensor<2x1000x24xf32>, %dy: tensor<2x1000x32xf32>) -> tensor<2x24x32xf32> {
  %dw = ens.einsum %x, %dy {spec = "mbi,mbo->mio"} : tensor<2x1000x24xf32>, tensor<2x1000x32xf32> -> tensor<2x24x32xf32>
  return %dw : tensor<2x24x32xf32>
}

// An input gradient, dy W^T, reducing over 784 outputs, 40 columns: not
// whole vectors of 16, so register tiles of 10 lanes, whose panel of 392
// steps fills at most half the L1.
// CHECK-LABEL: func.func @input_gradient(
// CHECK:         %[[KC:.*]] = arith.constant 392 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC]]
func.func @input_gradient(%dy: tensor<2x6x784xf32>, %w: tensor<2x40x784xf32>) -> tensor<2x6x40xf32> {
  %dx = ens.einsum %dy, %w {spec = "mbo,mio->mbi"} : tensor<2x6x784xf32>, tensor<2x40x784xf32> -> tensor<2x6x40xf32>
  return %dx : tensor<2x6x40xf32>
}
