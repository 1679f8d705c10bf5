// Sizes are checked once and everywhere: a shape whose size overflows is an
// error when it is read or when a pass builds it, and every backend refuses
// a buffer over the limit (--max-buffer-bytes, CompileOptions, or half of
// memory) before it allocates anything. Each run is bounded by an 8 GB
// address-space limit, as the reliability guarantees state; `not` fails on
// a signal, so none of these may crash.
//
// RUN: rm -rf %t && mkdir -p %t
//
// A result whose element count overflows 64 bits (3 * 6148914691236517206).
// RUN: printf 'func.func @main(%%%%x: tensor<f32>) -> tensor<3x6148914691236517206xf32> {\n %%%%b = ens.broadcast_in_dim %%%%x {dims = array<i64>} : tensor<f32> -> tensor<3x6148914691236517206xf32>\n return %%%%b : tensor<3x6148914691236517206xf32>\n}\n' > %t/overflow.mlir
// RUN: for b in interp cpu cuda-emu; do (%limit_address_space; not ens-run %t/overflow.mlir --random-inputs=1 --backend=$b 2>&1) | FileCheck %s --check-prefix=OVERFLOW; done
// OVERFLOW: error: 'ens.broadcast_in_dim' op result 0: tensor<3x6148914691236517206xf32> has shape 3x6148914691236517206, whose element count overflows 64 bits
// OVERFLOW: ens-run: error: {{.*}}overflow.mlir is not a valid ens program
//
// A 40 GB intermediate, reduced to a scalar: refused before compiling.
// RUN: (%limit_address_space; not ens-run %s --entry=huge_intermediate --random-inputs=1 --backend=cpu 2>&1) | FileCheck %s --check-prefix=HUGE-CPU
// HUGE-CPU: ens-run: error: a value of type tensor<100000x100000xf32> ({{[a-z_.]+}}) needs 40.0 GB (40000000000 bytes), over the buffer limit of {{.*}} (raise it with --max-buffer-bytes or CompileOptions::maxBufferBytes)
// RUN: (%limit_address_space; not ens-run %s --entry=huge_intermediate --random-inputs=1 --backend=cuda-emu 2>&1) | FileCheck %s --check-prefix=HUGE-CUDA
// HUGE-CUDA: ens-run: error: the temporary buffer memref<100000x100000xf32> needs 40.0 GB (40000000000 bytes), over the buffer limit of
// RUN: (%limit_address_space; not ens-run %s --entry=huge_intermediate --random-inputs=1 --backend=interp 2>&1) | FileCheck %s --check-prefix=HUGE-INTERP
// HUGE-INTERP: ens-run: error: {{.*}}too large for the interpreter
//
// The limit is settable: 512 bytes of arguments are over a 511-byte limit,
// on the flag and in the environment.
// RUN: not ens-run %s --entry=small --random-inputs=1 --backend=cpu --max-buffer-bytes=511 2>&1 | FileCheck %s --check-prefix=SMALL-CPU
// SMALL-CPU: ens-run: error: @small's arguments and results needs 1.0 kB (1024 bytes), over the buffer limit of 511 bytes
// RUN: env ENS_MAX_BUFFER_BYTES=511 not ens-run %s --entry=small --random-inputs=1 --backend=cuda-emu 2>&1 | FileCheck %s --check-prefix=SMALL-CUDA
// SMALL-CUDA: ens-run: error: the argument buffer memref<4x32xf32> needs 512 bytes, over the buffer limit of 511 bytes
// RUN: ens-run %s --entry=small --random-inputs=1 --backend=cpu --max-buffer-bytes=1024 | FileCheck %s --check-prefix=FITS
// RUN: ens-run %s --entry=small --random-inputs=1 --backend=cuda-emu --max-buffer-bytes=1024 | FileCheck %s --check-prefix=FITS
// FITS: out0 = tensor<4x32xf32>
// RUN: not ens-run %s --entry=small --random-inputs=1 --max-buffer-bytes=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: --max-buffer-bytes must not be negative
//
// A vmap whose batched body would overflow: the member's 2^40-element
// intermediate over 2^24 members. The verifier after the batching pass
// catches the type the pass built.
// RUN: (%limit_address_space; not ens-opt %s --ens-batch 2>&1) | FileCheck %s --check-prefix=VMAP
// VMAP: error: 'ens.broadcast_in_dim' op result 0: tensor<16777216x1099511627776x4xf32> has shape 16777216x1099511627776x4, whose element count overflows 64 bits

func.func @huge_intermediate(%x: tensor<f32>) -> tensor<f32> {
  %b = ens.broadcast_in_dim %x {dims = array<i64>} : tensor<f32> -> tensor<100000x100000xf32>
  %s = ens.reduce_sum %b {dims = array<i64: 0, 1>} : tensor<100000x100000xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @small(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = ens.add %x, %x : tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

func.func @member(%x: tensor<4xf32>) -> tensor<f32> {
  %b = ens.broadcast_in_dim %x {dims = array<i64: 1>} : tensor<4xf32> -> tensor<1099511627776x4xf32>
  %s = ens.reduce_sum %b {dims = array<i64: 0, 1>} : tensor<1099511627776x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @vmap_overflow(%x: tensor<16777216x4xf32>) -> tensor<16777216xf32> {
  %r = ens.vmap @member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 16777216 : i64} : (tensor<16777216x4xf32>) -> tensor<16777216xf32>
  return %r : tensor<16777216xf32>
}
