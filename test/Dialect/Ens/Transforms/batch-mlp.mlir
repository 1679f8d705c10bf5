// RUN: ens-opt %ens_src_root/examples/ensemble_mlp.mlir --ens-batch | FileCheck %s

// The 128-member MLP on a shared batch: the shared input feeds the first
// contraction unbatched (no broadcast, no copy per member), the stacked
// parameters carry the member axis at 0 throughout, and the batched program
// has no transpose (the member program has none either) and no vmap.

// CHECK-NOT:   ens.vmap
// CHECK-LABEL: func.func private @forward_vmap(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<256x64xf32>, %[[W1:[^:]*]]: tensor<128x64x32xf32>, %[[B1:[^:]*]]: tensor<128x32xf32>, %[[W2:[^:]*]]: tensor<128x32x8xf32>, %[[B2:[^:]*]]: tensor<128x8xf32>
// CHECK-NEXT:    %[[H0:.*]] = ens.einsum %[[X]], %[[W1]] {spec = "bi,aih->abh"} : tensor<256x64xf32>, tensor<128x64x32xf32> -> tensor<128x256x32xf32>
// CHECK-NEXT:    %[[BB1:.*]] = ens.broadcast_in_dim %[[B1]] {dims = array<i64: 0, 2>} : tensor<128x32xf32> -> tensor<128x256x32xf32>
// CHECK-NEXT:    %[[H1:.*]] = ens.add %[[H0]], %[[BB1]] : tensor<128x256x32xf32>
// CHECK-NEXT:    %[[H:.*]] = ens.tanh %[[H1]] : tensor<128x256x32xf32>
// CHECK-NEXT:    %[[Y0:.*]] = ens.einsum %[[H]], %[[W2]] {spec = "dab,dbc->dac"} : tensor<128x256x32xf32>, tensor<128x32x8xf32> -> tensor<128x256x8xf32>
// CHECK-NEXT:    %[[BB2:.*]] = ens.broadcast_in_dim %[[B2]] {dims = array<i64: 0, 2>} : tensor<128x8xf32> -> tensor<128x256x8xf32>
// CHECK-NEXT:    %[[Y:.*]] = ens.add %[[Y0]], %[[BB2]] : tensor<128x256x8xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @ensemble_forward(
// CHECK-NEXT:    call @forward_vmap(
// CHECK-NEXT:    return
// CHECK-NOT:   ens.transpose
// CHECK-NOT:   ens.vmap

// Nowhere in the batched program:
// RUN: ens-opt %ens_src_root/examples/ensemble_mlp.mlir --ens-batch | FileCheck %s --check-prefix=NOWHERE
// NOWHERE-NOT: ens.transpose
// NOWHERE-NOT: ens.vmap
