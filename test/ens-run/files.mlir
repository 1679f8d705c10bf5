// ens-run's files: an --input that is not a regular file (a device, a FIFO,
// a directory) is one clear error and nothing blocks; --output-dir writes
// each result atomically, so a failed write (here a file-size limit, which
// fails writes as a full disk does; SIGXFSZ is ignored so that the write
// returns the error) keeps the previous file byte for byte and leaves no
// temporary file.
//
// RUN: rm -rf %t && mkdir -p %t/out %t/dir.npy && mkfifo %t/fifo.npy
//
// RUN: not ens-run %s --entry=add --input=/dev/zero --input=%S/Inputs/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: {{^}}ens-run: error: /dev/zero: not a regular file{{$}}
// RUN: not ens-run %s --entry=add --input=%t/fifo.npy --input=%S/Inputs/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: {{^}}ens-run: error: {{.*}}fifo.npy: not a regular file{{$}}
// RUN: not ens-run %s --entry=add --input=%t/dir.npy --input=%S/Inputs/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: {{^}}ens-run: error: {{.*}}dir.npy: not a regular file{{$}}
// RUN: not ens-run %s --entry=add --input=%S/Inputs/f32_2x3.npy --input=%S/Inputs/f32_2x3.npy --expect=/dev/zero 2>&1 | FileCheck %s --check-prefix=EXPECT
// EXPECT: {{^}}ens-run: error: /dev/zero: not a regular file{{$}}
//
// RUN: ens-run %s --entry=square --random-inputs=1 --output-dir=%t/out
// RUN: cp %t/out/out0.npy %t/before.npy
// RUN: (ulimit -f 4 && not ens-run %s --entry=square --random-inputs=2 --output-dir=%t/out 2>&1) | FileCheck %s --check-prefix=FULL
// FULL: {{^}}ens-run: error: cannot write {{.*}}out0.npy: File too large{{$}}
// RUN: cmp %t/before.npy %t/out/out0.npy
// RUN: ls %t/out | FileCheck %s --check-prefix=LEFT
// LEFT: {{^}}out0.npy{{$}}
// LEFT-NOT: {{.}}
// Without the limit, the same run replaces the file.
// RUN: ens-run %s --entry=square --random-inputs=2 --output-dir=%t/out
// RUN: not cmp -s %t/before.npy %t/out/out0.npy

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = ens.add %a, %b : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}

// 16 KiB of results, over the 4 KiB limit.
func.func @square(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = ens.mul %a, %a : tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
