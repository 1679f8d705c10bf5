// Before generating or compiling anything, ens-train checks a lower bound
// of the memory that training takes (parameters, gradients, Adam's moments,
// activations, data) against the buffer limit: half of the memory, or of
// the address-space limit. Too many members, or too large a model, is one
// clear error within seconds and without allocating, also under an 8 GB
// address-space limit (whose half is the limit then).
//
// RUN: (%limit_address_space && not ens-train --members=4294967295 2>&1) | FileCheck %s --check-prefix=MAX
// MAX: {{^}}ens-train: error: training 4294967295 members of examples/mlp.mlir (built in) needs at least 1.1 PB (1055943479426976 bytes) for parameters, gradients, Adam's moments and activations, over the limit of 4.1 GB (4096000000 bytes) (half of the memory or of the address-space limit; ENS_MAX_BUFFER_BYTES sets it); train fewer --members{{$}}
// RUN: (%limit_address_space && not ens-train --members=1000000 2>&1) | FileCheck %s --check-prefix=MILLION
// MILLION: {{^}}ens-train: error: training 1000000 members of examples/mlp.mlir (built in) needs at least 245.9 GB (245856147456 bytes) for
// RUN: (%limit_address_space && not ens-train --members=100000 2>&1) | FileCheck %s --check-prefix=HUNDRED-THOUSAND
// HUNDRED-THOUSAND: {{^}}ens-train: error: training 100000 members of examples/mlp.mlir (built in) needs at least 24.6 GB (24585747456 bytes) for
//
// The estimate, for the default model (w1 64x32, b1 32, w2 32x8, b2 8:
// 2344 values; 256 rows, 64 features, 8 outputs), is 4 bytes times
//   members x (7 x 2344 + 2 x 256 x (8 + 32 + 32 + 8 + 8)) + 2 x 256 x 72,
// 245,856 bytes a member and 147,456 for the data: 246,003,456 bytes for
// 1,000 members. A limit of exactly that trains; one byte less does not.
// RUN: env ENS_MAX_BUFFER_BYTES=246003456 ens-train --members=1000 --steps=0 --plot= | FileCheck %s --check-prefix=FITS
// FITS: members whose loss fell: 0 of 1000
// RUN: env ENS_MAX_BUFFER_BYTES=246003455 not ens-train --members=1000 2>&1 | FileCheck %s --check-prefix=EDGE
// EDGE: {{^}}ens-train: error: training 1000 members of examples/mlp.mlir (built in) needs at least 246.0 MB (246003456 bytes) for parameters, gradients, Adam's moments and activations, over the limit of 246.0 MB (246003455 bytes)
//
// A model whose one member alone is too large: a 100000x100000 parameter,
// 4 rows, 2 features, 1 output: 4 x (7 x 10^10 + 2 x 4 x (1 + 100000)
// + 2 x 4 x 3) bytes.
// RUN: (%limit_address_space && not ens-train --model=%S/Inputs/huge-parameter.mlir --members=1 2>&1) | FileCheck %s --check-prefix=MODEL
// MODEL: {{^}}ens-train: error: training 1 member of {{.*}}huge-parameter.mlir needs at least 280.0 GB (280003200128 bytes) for
//
// --emit-ir allocates nothing for the members, so it prints any count.
// RUN: ens-train --members=4294967295 --emit-ir | FileCheck %s --check-prefix=IR
// IR: func.func @ens_train_init(%key: tensor<2xi32>) -> (tensor<4294967295x64x32xf32>,
