// Fusion takes time linear or n log n in the program: chains of 20,000
// elementwise ops fuse, compile and run within seconds (the timeouts are
// generous bounds that turn a regression into a failure, not a hang).
// Three shapes: a plain chain; one whose every value is read by the next two
// ops (shared producers); and one with a leaf op hanging off each link.
// Each result has a closed form (see Inputs/elementwise-chain.py), and the
// interpreter agrees with it.
//
// RUN: python3 %S/Inputs/elementwise-chain.py chain 20000 > %t.chain.mlir
// RUN: python3 %S/Inputs/elementwise-chain.py shared 20000 > %t.shared.mlir
// RUN: python3 %S/Inputs/elementwise-chain.py leaves 20000 > %t.leaves.mlir
//
// A chain fuses into one op, with or without leaves. Shared producers fuse
// in pairs: a consumer that reads two results of one fused op cannot take
// it in without computing it twice.
// RUN: timeout 60 ens-opt %t.chain.mlir --convert-ens-to-linalg --canonicalize --ens-fuse-elementwise --canonicalize --ens-fuse-members | FileCheck %s --check-prefix=FUSED
// RUN: timeout 60 ens-opt %t.shared.mlir --convert-ens-to-linalg --canonicalize --ens-fuse-elementwise --canonicalize --ens-fuse-members | FileCheck %s --check-prefix=PAIRS
// RUN: timeout 60 ens-opt %t.leaves.mlir --convert-ens-to-linalg --canonicalize --ens-fuse-elementwise --canonicalize --ens-fuse-members | FileCheck %s --check-prefix=FUSED
// FUSED: linalg.generic
// FUSED-NOT: linalg.generic
// PAIRS-COUNT-10000: linalg.generic
// PAIRS-NOT: linalg.generic
// No element is computed twice:
// RUN: timeout 60 ens-opt %t.shared.mlir --convert-ens-to-linalg --canonicalize --ens-fuse-elementwise | FileCheck %s --check-prefix=ONCE
// ONCE-COUNT-20000: arith.subf
// ONCE-NOT: arith.subf
//
// RUN: timeout 60 ens-run %t.chain.mlir --entry=chain --input=%ens_src_root/test/ens-run/Inputs/f32_2x3.npy | FileCheck %s --check-prefix=CHAIN
// RUN: timeout 60 ens-run %t.chain.mlir --entry=chain --input=%ens_src_root/test/ens-run/Inputs/f32_2x3.npy --backend=cpu | FileCheck %s --check-prefix=CHAIN
// RUN: timeout 60 ens-run %t.chain.mlir --entry=chain --input=%ens_src_root/test/ens-run/Inputs/f32_2x3.npy --backend=cuda-emu | FileCheck %s --check-prefix=CHAIN
// CHAIN: out0 = tensor<2x3xf32> {{\[\[}}5000, 5001, 5002], [5003, 5004, 5005]]
//
// RUN: timeout 60 ens-run %t.shared.mlir --entry=chain --input=%ens_src_root/test/ens-run/Inputs/f32_2x3.npy | FileCheck %s --check-prefix=SHARED
// RUN: timeout 60 ens-run %t.shared.mlir --entry=chain --input=%ens_src_root/test/ens-run/Inputs/f32_2x3.npy --backend=cpu | FileCheck %s --check-prefix=SHARED
// SHARED: out0 = tensor<2x3xf32> {{\[\[}}0, -1, -2], [-3, -4, -5]]
//
// RUN: timeout 60 ens-run %t.leaves.mlir --entry=chain --input=%ens_src_root/test/ens-run/Inputs/f32_2x3.npy | FileCheck %s --check-prefix=LEAVES
// RUN: timeout 60 ens-run %t.leaves.mlir --entry=chain --input=%ens_src_root/test/ens-run/Inputs/f32_2x3.npy --backend=cpu | FileCheck %s --check-prefix=LEAVES
// LEAVES: out0 = tensor<2x3xf32> {{\[\[}}0, 10001, 20002], [30003, 40004, 50005]]
