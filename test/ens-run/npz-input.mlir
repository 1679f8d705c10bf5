// --input=FILE.npz:NAME reads one array of a .npz file (as np.savez writes
// it). make_data.py writes the same table as data.npy ([256, 72]) and as
// data.npz (x [256, 64] and y [256, 8]): the column sums of x and y read
// from the archive equal those of the table's columns, bit for bit.
//
// RUN: rm -rf %t && %python %S/../ens-train/Inputs/make_data.py %t
// RUN: ens-run %s --entry=table_sums --input=%t/data.npy --output-dir=%t/table
// RUN: ens-run %s --entry=sums --input=%t/data.npz:x --input=%t/data.npz:y --rtol=0 --atol=0 --expect=%t/table/out0.npy --expect=%t/table/out1.npy
//
// A missing array, a missing file and a compressed archive are one error
// each.
// RUN: not ens-run %s --entry=sums --input=%t/data.npz:x --input=%t/data.npz:z 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: {{^}}ens-run: error: {{.*}}data.npz has no array named 'z' (it has x, y){{$}}
// RUN: not ens-run %s --entry=sums --input=%t/none.npz:x --input=%t/data.npz:y 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: {{^}}ens-run: error: cannot open {{.*}}none.npz: {{.*}}
// RUN: not ens-run %s --entry=sums --input=%t/compressed.npz:x --input=%t/data.npz:y 2>&1 | FileCheck %s --check-prefix=COMPRESSED
// COMPRESSED: {{^}}ens-run: error: {{.*}}compressed.npz entry 'x.npy' is compressed (method 8, as np.savez_compressed writes); only uncompressed archives are supported: save with np.savez{{$}}

func.func @sums(%x: tensor<256x64xf32>, %y: tensor<256x8xf32>) -> (tensor<64xf32>, tensor<8xf32>) {
  %a = ens.reduce_sum %x {dims = array<i64: 0>} : tensor<256x64xf32> -> tensor<64xf32>
  %b = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<256x8xf32> -> tensor<8xf32>
  return %a, %b : tensor<64xf32>, tensor<8xf32>
}

func.func @table_sums(%t: tensor<256x72xf32>) -> (tensor<64xf32>, tensor<8xf32>) {
  %x = ens.slice %t {start = array<i64: 0, 0>, limit = array<i64: 256, 64>, stride = array<i64: 1, 1>} : tensor<256x72xf32> -> tensor<256x64xf32>
  %y = ens.slice %t {start = array<i64: 0, 64>, limit = array<i64: 256, 72>, stride = array<i64: 1, 1>} : tensor<256x72xf32> -> tensor<256x8xf32>
  %a = ens.reduce_sum %x {dims = array<i64: 0>} : tensor<256x64xf32> -> tensor<64xf32>
  %b = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<256x8xf32> -> tensor<8xf32>
  return %a, %b : tensor<64xf32>, tensor<8xf32>
}
