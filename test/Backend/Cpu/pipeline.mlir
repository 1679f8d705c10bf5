// The registered pipelines, run as the CPU backend runs them: ens-front,
// convert-ens-to-linalg and ens-cpu-pipeline take an ensemble to the LLVM
// dialect alone, with tanh approximated on vectors as wide as
// `vector-bytes` allows (4 or 8 lanes of f32), and with more than one
// thread the loop over tiles as an OpenMP worksharing loop with a dynamic
// schedule.
//
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg --ens-cpu-pipeline \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ONE \
// RUN:       --implicit-check-not=ens. --implicit-check-not=linalg. \
// RUN:       --implicit-check-not=tensor. --implicit-check-not=memref. \
// RUN:       --implicit-check-not=scf. --implicit-check-not=arith. \
// RUN:       --implicit-check-not=math. --implicit-check-not=omp.
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg \
// RUN:   --ens-cpu-pipeline="threads=2 vector-bytes=32" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,TWO \
// RUN:       --implicit-check-not=ens. --implicit-check-not=linalg. \
// RUN:       --implicit-check-not=tensor. --implicit-check-not=memref. \
// RUN:       --implicit-check-not=scf. --implicit-check-not=arith. \
// RUN:       --implicit-check-not=math.

// CHECK-LABEL: llvm.func @ensemble
// TWO:           omp.parallel num_threads
// TWO-NEXT:        omp.wsloop schedule(dynamic)
// ONE:           llvm.intr.fma({{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// TWO:           llvm.intr.fma({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// TWO:             omp.yield
// CHECK:         llvm.return

func.func @member(%x: tensor<64x128xf32>, %w: tensor<128xf32>)
    -> tensor<64x128xf32> {
  %b = ens.broadcast_in_dim %w {dims = array<i64: 1>}
      : tensor<128xf32> -> tensor<64x128xf32>
  %p = ens.mul %x, %b : tensor<64x128xf32>
  %t = ens.tanh %p : tensor<64x128xf32>
  return %t : tensor<64x128xf32>
}

func.func @ensemble(%x: tensor<64x128xf32>, %w: tensor<4x128xf32>)
    -> tensor<4x64x128xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: -1, 0>,
                                 out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<64x128xf32>, tensor<4x128xf32>) -> tensor<4x64x128xf32>
  return %y : tensor<4x64x128xf32>
}
