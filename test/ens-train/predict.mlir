// ens-train predict runs every member of a trained ensemble on new rows.
// Its outputs are checked against the members' @forward computed here
// independently, on the interpreter, from the checkpoint's best parameters
// (state.npz's best_w1, best_b1, best_w2): each member's predictions, their
// mean and their population standard deviation.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=3 --epochs=8 --data=%t/long.npz --val-split=0.25 --patience=1 --lr-min=1e-3 --lr-max=0.5 --plot= --checkpoint=%t/ck | FileCheck %s --check-prefix=TRAIN
// At least one member stopped: its last parameters are not its best.
// TRAIN: stopped after epoch
// RUN: cp %t/ck/gen-*/state.npz %t/state.npz
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/pred.npz | FileCheck %s
// CHECK: ens-train predict: 3 members of {{.*}}open-batch.mlir on 256 rows of {{.*}}data.npz
// CHECK-NEXT: RMSE of the ensemble mean {{[0-9.e-]+}}, mean RMSE of the members {{[0-9.e-]+}}, spread (std-dev across members) {{[0-9.e-]+}}
// CHECK-NEXT: wrote {{.*}}pred.npz
//
// RUN: ens-run %s --entry=reference --input=%t/data.npz:x --input=%t/state.npz:best_w1 --input=%t/state.npz:best_b1 --input=%t/state.npz:best_w2 --output-dir=%t/ref
// RUN: ens-run %s --entry=same --input=%t/pred.npz:members --input=%t/pred.npz:mean --input=%t/pred.npz:std --rtol=1e-5 --atol=1e-6 --expect=%t/ref/out0.npy --expect=%t/ref/out1.npy --expect=%t/ref/out2.npy
//
// The CSV output holds the same numbers: mean, std, then each member's.
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/data.csv --out=%t/pred.csv > /dev/null
// RUN: head -1 %t/pred.csv | FileCheck %s --check-prefix=HEADER
// HEADER: mean_0,{{.*}},mean_7,std_0,{{.*}},std_7,member0_0,{{.*}},member2_7{{$}}
// RUN: count 257 < %t/pred.csv
//
// Data without targets is predicted too, without metrics.
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/wrong-shape.npy --out=%t/x-only.npz | FileCheck %s --check-prefix=X-ONLY
// X-ONLY: on 256 rows of {{.*}}wrong-shape.npy
// X-ONLY-NOT: RMSE
//
// Errors.
// RUN: not ens-train predict --data=%t/data.npz --out=%t/p.npz 2>&1 | FileCheck %s --check-prefix=NO-CK
// NO-CK: {{^}}ens-train: error: ens-train predict needs --checkpoint=DIR, a trained ensemble{{$}}
// RUN: not ens-train predict --checkpoint=%t/ck --out=%t/p.npz 2>&1 | FileCheck %s --check-prefix=NO-DATA
// NO-DATA: {{^}}ens-train: error: ens-train predict needs --data=FILE, the rows to predict{{$}}
// RUN: not ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/p.txt 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: {{^}}ens-train: error: ens-train predict needs --out=FILE.npz or --out=FILE.csv (got {{.*}}p.txt){{$}}
// RUN: not ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/p.npz --epochs=2 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: {{^}}ens-train: error: --epochs does not apply to ens-train predict, which takes --checkpoint, --data, --out, --backend, --cpu-threads, --header and --allow-nonfinite{{$}}
// RUN: not ens-train --out=%t/p.npz 2>&1 | FileCheck %s --check-prefix=TRAIN-OUT
// TRAIN-OUT: {{^}}ens-train: error: --out applies to ens-train predict only{{$}}

// One member of Inputs/open-batch.mlir, written again for 256 rows.
func.func @forward(%x: tensor<256x64xf32>, %w1: tensor<64x16xf32>, %b1: tensor<16xf32>,
                   %w2: tensor<16x8xf32>) -> tensor<256x8xf32> {
  %0 = ens.matmul %x, %w1 : tensor<256x64xf32>, tensor<64x16xf32> -> tensor<256x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<256x16xf32>
  %2 = ens.add %0, %1 : tensor<256x16xf32>
  %h = ens.tanh %2 : tensor<256x16xf32>
  %y = ens.matmul %h, %w2 : tensor<256x16xf32>, tensor<16x8xf32> -> tensor<256x8xf32>
  return %y : tensor<256x8xf32>
}

// Every member's predictions, their mean and their standard deviation.
func.func @reference(%x: tensor<256x64xf32>, %w1: tensor<3x64x16xf32>, %b1: tensor<3x16xf32>,
                     %w2: tensor<3x16x8xf32>) -> (tensor<3x256x8xf32>, tensor<256x8xf32>, tensor<256x8xf32>) {
  %m = ens.vmap @forward(%x, %w1, %b1, %w2) {in_axes = array<i64: -1, 0, 0, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<256x64xf32>, tensor<3x64x16xf32>, tensor<3x16xf32>, tensor<3x16x8xf32>) -> tensor<3x256x8xf32>
  %mean = ens.reduce_mean %m {dims = array<i64: 0>} : tensor<3x256x8xf32> -> tensor<256x8xf32>
  %b = ens.broadcast_in_dim %mean {dims = array<i64: 1, 2>} : tensor<256x8xf32> -> tensor<3x256x8xf32>
  %d = ens.sub %m, %b : tensor<3x256x8xf32>
  %s = ens.square %d : tensor<3x256x8xf32>
  %v = ens.reduce_mean %s {dims = array<i64: 0>} : tensor<3x256x8xf32> -> tensor<256x8xf32>
  %std = ens.sqrt %v : tensor<256x8xf32>
  return %m, %mean, %std : tensor<3x256x8xf32>, tensor<256x8xf32>, tensor<256x8xf32>
}

func.func @same(%m: tensor<3x256x8xf32>, %mean: tensor<256x8xf32>, %std: tensor<256x8xf32>)
    -> (tensor<3x256x8xf32>, tensor<256x8xf32>, tensor<256x8xf32>) {
  return %m, %mean, %std : tensor<3x256x8xf32>, tensor<256x8xf32>, tensor<256x8xf32>
}
