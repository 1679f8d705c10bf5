// Every bad input gives one "ens-train: error:" line and exit status 1
// (`not` fails on a crash or signal, so these also check that nothing
// aborts).
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
//
// Bad flags.
// RUN: not ens-train --members=0 2>&1 | FileCheck %s --check-prefix=MEMBERS
// MEMBERS: {{^}}ens-train: error: --members must be at least 1
// RUN: not ens-train --steps=many 2>&1 | FileCheck %s --check-prefix=STEPS
// STEPS: {{^}}ens-train: error: --steps=many is not a whole number >= 0
// RUN: not ens-train --lr-min=abc 2>&1 | FileCheck %s --check-prefix=NUMBER
// NUMBER: {{^}}ens-train: error: --lr-min=abc is not a number
// RUN: not ens-train --lr=0.1 --lr-max=0.2 2>&1 | FileCheck %s --check-prefix=LR
// LR: {{^}}ens-train: error: give either --lr or --lr-min/--lr-max, not both
// RUN: not ens-train --lr-min=0.1 --lr-max=0.01 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: {{^}}ens-train: error: --lr-min (0.1) must not exceed --lr-max (0.01)
// RUN: not ens-train --lr=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: {{^}}ens-train: error: learning rates must be positive and finite (got -1 and -1)
// RUN: not ens-train --backend=gpu 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: {{^}}ens-train: error: --backend=gpu is not a backend (cpu, cuda, cuda-emu or interp)
// RUN: not ens-train --no-such-flag 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{^}}ens-train: error: Unknown command line argument '--no-such-flag'.
//
// Models.
// RUN: not ens-train --model=%t/missing.mlir 2>&1 | FileCheck %s --check-prefix=NOMODEL
// NOMODEL: {{^}}ens-train: error: cannot read model {{.*}}missing.mlir: No such file or directory
// RUN: not ens-train --model=%S/Inputs/bad-model.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: {{^}}ens-train: error: model {{.*}}bad-model.mlir is not a valid ens program: cannot parse the module: {{.*}}bad-model.mlir:4:8: error: custom op 'ens.bogus' is unknown
// RUN: not ens-train --model=%S/Inputs/no-targets.mlir 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// SIGNATURE: {{^}}ens-train: error: model {{.*}}no-targets.mlir: @loss must take @forward's arguments, then the targets, and return the loss: (tensor<4x2xf32>, tensor<2x1xf32>, tensor<4x1xf32>) -> (tensor<f32>); it is (tensor<4x2xf32>, tensor<2x1xf32>) -> (tensor<f32>)
// RUN: not ens-train --model=%ens_src_root/examples/tensordot.mlir 2>&1 | FileCheck %s --check-prefix=NOFORWARD
// NOFORWARD: {{^}}ens-train: error: model {{.*}}tensordot.mlir has no function @forward (ens-train needs @forward(x, params...) -> predictions, and may take @loss(x, params..., targets: tensor<BxOxf32>) -> tensor<f32>)
//
// Data.
// RUN: not ens-train --data=%t/missing.csv 2>&1 | FileCheck %s --check-prefix=NODATA
// NODATA: {{^}}ens-train: error: cannot read data {{.*}}missing.csv: No such file or directory
// RUN: not ens-train --data=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=NONPY
// NONPY: {{^}}ens-train: error: cannot read data: {{.*}}missing.npy
// RUN: not ens-train --data=%t/data.txt 2>&1 | FileCheck %s --check-prefix=EXTENSION
// EXTENSION: {{^}}ens-train: error: data {{.*}}data.txt must be a .npy, .npz or .csv file
// RUN: not ens-train --data=%t/compressed.npz 2>&1 | FileCheck %s --check-prefix=COMPRESSED
// COMPRESSED: {{^}}ens-train: error: cannot read data: {{.*}}compressed.npz entry 'x.npy' is compressed (method 8, as np.savez_compressed writes); only uncompressed archives are supported: save with np.savez
// RUN: not ens-train --data=%t/no-y.npz 2>&1 | FileCheck %s --check-prefix=NOY
// NOY: {{^}}ens-train: error: data {{.*}}no-y.npz has no array named 'y' (expected x [N, 64] and y [N, 8])
// RUN: not ens-train --data=%t/wrong-shape.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: {{^}}ens-train: error: data {{.*}}wrong-shape.npy is tensor<256x64xf32>; expected [N, 72] (64 columns of x, then 8 targets)
// RUN: not ens-train --data=%t/short.csv 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: {{^}}ens-train: error: the batch size, 256, is larger than the data: {{.*}}short.csv has 10 rows
// RUN: not ens-train --data=%t/ragged.csv 2>&1 | FileCheck %s --check-prefix=RAGGED
// RAGGED: {{^}}ens-train: error: data {{.*}}ragged.csv line 6 has 3 columns; expected 72 (64 of x, then 8 targets)
// NaN or an infinity in the data is named, not trained into a loss of nan
// (issue #15); --allow-nonfinite trains on it anyway.
// RUN: awk -F, 'BEGIN { OFS = "," } NR == 4 { $3 = "nan" } { print }' %t/data.csv > %t/nan.csv
// RUN: not ens-train --data=%t/nan.csv 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: {{^}}ens-train: error: data {{.*}}nan.csv has NaN in x at row 3, column 3 (counting from 1); give --allow-nonfinite to train on it anyway
// RUN: awk -F, 'BEGIN { OFS = "," } NR == 7 { $70 = "-inf" } { print }' %t/data.csv > %t/inf.csv
// RUN: not ens-train --data=%t/inf.csv 2>&1 | FileCheck %s --check-prefix=INF
// INF: {{^}}ens-train: error: data {{.*}}inf.csv has an infinity in y at row 6, column 6 (counting from 1)
// RUN: ens-train --data=%t/nan.csv --allow-nonfinite --members=2 --steps=1 --plot= | FileCheck %s --check-prefix=ALLOWED
// ALLOWED: final loss after 1 steps: min nan
// RUN: not ens-train --data=%s 2>&1 | FileCheck %s --check-prefix=NOTNPZ
// NOTNPZ: {{^}}ens-train: error: data {{.*}}errors.mlir must be a .npy, .npz or .csv file
// RUN: cp %s %t/not-zip.npz
// RUN: not ens-train --data=%t/not-zip.npz 2>&1 | FileCheck %s --check-prefix=NOTZIP
// NOTZIP: {{^}}ens-train: error: cannot read data: {{.*}}not-zip.npz is not a .npz file (no ZIP end-of-central-directory record)
//
// Checkpoints.
// RUN: ens-train --members=2 --steps=1 --checkpoint=%t/ck --plot= > /dev/null
// RUN: not ens-train --resume=%t/ck --model=%S/Inputs/hidden16.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: {{^}}ens-train: error: cannot resume from {{.*}}ck: the checkpoint does not match model {{.*}}hidden16.mlir: it holds parameters (w1 [64,32], b1 [32], w2 [32,8], b2 [8]) but the model's are (w1 [64,16], b1 [16], w2 [16,8], b2 [8])
// RUN: not ens-train --resume=%t/ck --members=3 2>&1 | FileCheck %s --check-prefix=CONFLICT
// CONFLICT: {{^}}ens-train: error: --members does not match the checkpoint in {{.*}}ck (2); leave it out when resuming
// RUN: not ens-train --resume=%t/nothing 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: {{^}}ens-train: error: cannot resume from {{.*}}nothing: no such directory
// RUN: mkdir -p %t/bad && echo '{"format":' > %t/bad/manifest.json
// RUN: not ens-train --resume=%t/bad 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: {{^}}ens-train: error: cannot resume from {{.*}}bad: {{.*}}manifest.json is not valid JSON: [json.exception.parse_error.101]
// A version-1 checkpoint (manifest.json and state.npz in place, no
// checksum) torn between its two files.
// RUN: mkdir -p %t/torn && sed 's/"version": 2/"version": 1/' %t/ck/gen-*/manifest.json > %t/torn/manifest.json && head -c 1000 %t/ck/gen-*/state.npz > %t/torn/state.npz
// RUN: not ens-train --resume=%t/torn 2>&1 | FileCheck %s --check-prefix=TORN
// TORN: {{^}}ens-train: error: cannot resume from {{.*}}torn: {{.*}}state.npz is not a .npz file
