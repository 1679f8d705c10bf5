// Every bad input gives one "ens-run: error:" line and exit status 1 (`not`
// fails on a crash or signal, so these also check that nothing aborts).
//
// RUN: not ens-run %s --entry=nope --random-inputs=1 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: ens-run: error: no function named 'nope' in {{.*}}errors.mlir
//
// RUN: not ens-run %s 2>&1 | FileCheck %s --check-prefix=CHOOSE
// CHOOSE: ens-run: error: choose a function with --entry=NAME ({{.*}}errors.mlir has 2 functions)
//
// RUN: not ens-run %s --entry=add 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: ens-run: error: @add expected 2 argument(s), got 0 (one --input per argument, in order)
//
// RUN: not ens-run %s --entry=add --input=%S/Inputs/f32_2x3.npy --input=%S/Inputs/f32_3x2.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: ens-run: error: @add argument 1: expected tensor<2x3xf32>, got tensor<3x2xf32>
//
// RUN: not ens-run %s --entry=add --input=%S/Inputs/f32_2x3.npy --input=%S/Inputs/f64_2x3.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: ens-run: error: @add argument 1: expected tensor<2x3xf32>, got tensor<2x3xf64>
//
// RUN: not ens-run %s --entry=add --input=%S/Inputs/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ens-run: error: {{.*}}missing.npy{{.*}}
//
// RUN: not ens-run %s --entry=add --input=%s 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: ens-run: error: {{.*}}errors.mlir: not a .npy file (bad magic)
//
// RUN: not ens-run %s --entry=add --random-inputs=1 --input=%S/Inputs/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: ens-run: error: give either --input files or --random-inputs, not both
//
// RUN: not ens-run %s --entry=add --random-inputs=1 --backend=gpu 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: Cannot find option named 'gpu'!
//
// RUN: not ens-run %S/Inputs/invalid.mlir 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: invalid.mlir:2:8: error: permutation [0, 0] names dimension 0 twice
// INVALID: ens-run: error: {{.*}}invalid.mlir is not a valid ens program
//
// RUN: not ens-run %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: ens-run: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
//
// RUN: touch %t.file
// RUN: not ens-run %s --entry=add --random-inputs=1 --output-dir=%t.file/sub 2>&1 | FileCheck %s --check-prefix=OUTDIR
// OUTDIR: ens-run: error: cannot create '{{.*}}.file/sub': Not a directory
//
// RUN: not ens-run %s --entry=add --random-inputs=1 --expect=%S/Inputs/f32_3x2.npy 2>&1 | FileCheck %s --check-prefix=EXPECT-SHAPE
// EXPECT-SHAPE: ens-run: error: result 0 is tensor<2x3xf32> but {{.*}}f32_3x2.npy holds tensor<3x2xf32>
//
// RUN: not ens-run %s --entry=add --random-inputs=1 --expect=%S/Inputs/f32_2x3.npy --expect=%S/Inputs/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=EXPECT-COUNT
// EXPECT-COUNT: ens-run: error: @add returns 1 results but --expect names 2 files
//
// RUN: not ens-run %s --entry=add --random-inputs=1 --expect=%S/Inputs/missing.npy 2>&1 | FileCheck %s --check-prefix=EXPECT-MISSING
// EXPECT-MISSING: ens-run: error: {{.*}}missing.npy
//
// RUN: not ens-run %s --entry=recurse --random-inputs=1 2>&1 | FileCheck %s --check-prefix=RECURSE
// RECURSE: ens-run: error: @recurse: call depth exceeds 256; is the program recursive?

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = ens.add %a, %b : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}

func.func @recurse(%a: tensor<2xf32>) -> tensor<2xf32> {
  %b = call @recurse(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %b : tensor<2xf32>
}
