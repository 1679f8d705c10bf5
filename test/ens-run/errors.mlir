// Every bad input gives one "ens-run: error:" line and exit status 1 (`not`
// fails on a crash or signal, so these also check that nothing aborts).
//
// RUN: not ens-run %s --entry=nope --random-inputs=1 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: ens-run: error: no function named 'nope' in {{.*}}errors.mlir
//
// RUN: not ens-run %s 2>&1 | FileCheck %s --check-prefix=CHOOSE
// CHOOSE: ens-run: error: choose a function with --entry=NAME ({{.*}}errors.mlir has 33 functions)
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
// NOFILE: ens-run: error: cannot open {{.*}}does-not-exist.mlir: No such file or directory
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
//
// RUN: not ens-run %s --entry=dynamic --random-inputs=1 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: ens-run: error: @dynamic argument 0 has type tensor<?xf32>, with a `?` size, which no target compiles; specialize @dynamic to concrete argument types first (ens-specialize, ens-run --input, or Module::compile with argument types); --random-inputs cannot choose a size: give one --input per argument
//
// RUN: not ens-run %s --entry=scalar --random-inputs=1 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: ens-run: error: @scalar argument 1: i64 is not a statically shaped tensor of f16, bf16, f32, f64, i32 or i1; --random-inputs cannot fill it
//
// RUN: not ens-run %s --entry=i64 --random-inputs=1 2>&1 | FileCheck %s --check-prefix=I64
// I64: ens-run: error: @i64 argument 0: tensor<2xi64> is not a statically shaped tensor of f16, bf16, f32, f64, i32 or i1; --random-inputs cannot fill it
//
// RUN: not ens-run %s --entry=huge_argument --random-inputs=1 2>&1 | FileCheck %s --check-prefix=HUGE-ARG
// HUGE-ARG: ens-run: error: @huge_argument argument 0: tensor<100000x100000xf32> is too large for the interpreter, which holds at most 268435456 elements per tensor; --random-inputs cannot fill it
//
// RUN: not ens-run %s --entry=huge_constant 2>&1 | FileCheck %s --check-prefix=HUGE-CONSTANT
// HUGE-CONSTANT: ens-run: error: @huge_constant: result 0 of 'ens.constant': tensor<100000x100000xf32> is too large for the interpreter, which holds at most 268435456 elements per tensor
//
// RUN: not ens-run %s --entry=huge_vmap --random-inputs=1 2>&1 | FileCheck %s --check-prefix=HUGE-VMAP
// HUGE-VMAP: ens-run: error: vmap of @nothing has 2147483647 members, more than the interpreter runs (1048576)
//
// RUN: not ens-run %s --entry=exponential0 --random-inputs=1 2>&1 | FileCheck %s --check-prefix=EXPONENTIAL
// EXPONENTIAL: ens-run: error: @exponential{{[0-9]+}}: the program runs more than 4194304 ops, the interpreter's limit
//
// RUN: not ens-run %s --entry=huge_einsum --random-inputs=1 2>&1 | FileCheck %s --check-prefix=HUGE-EINSUM
// HUGE-EINSUM: ens-run: error: @huge_einsum: 'ens.einsum' needs more than 1073741824 multiply-adds, the interpreter's limit

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = ens.add %a, %b : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}

func.func @recurse(%a: tensor<2xf32>) -> tensor<2xf32> {
  %b = call @recurse(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %b : tensor<2xf32>
}

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

func.func @scalar(%a: tensor<2xf32>, %b: i64) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

func.func @i64(%a: tensor<2xi64>) -> tensor<2xi64> {
  return %a : tensor<2xi64>
}

func.func @huge_argument(%a: tensor<100000x100000xf32>) -> tensor<100000x100000xf32> {
  return %a : tensor<100000x100000xf32>
}

func.func @huge_constant() -> tensor<100000x100000xf32> {
  %c = ens.constant dense<1.0> : tensor<100000x100000xf32>
  return %c : tensor<100000x100000xf32>
}

func.func @nothing(%a: tensor<2xf32>) {
  return
}

func.func @huge_vmap(%a: tensor<2xf32>) -> tensor<2xf32> {
  ens.vmap @nothing(%a) {in_axes = array<i64: -1>, out_axes = array<i64>, size = 2147483647 : i64} : (tensor<2xf32>) -> ()
  return %a : tensor<2xf32>
}

// 182^4 multiply-adds for tensors of 182^2 elements.
func.func @huge_einsum(%a: tensor<182x182xf32>, %b: tensor<182x182xf32>) -> tensor<f32> {
  %c = ens.einsum %a, %b {spec = "ab,cd->"} : tensor<182x182xf32>, tensor<182x182xf32> -> tensor<f32>
  return %c : tensor<f32>
}

// 2^22 calls of the last function, as each function calls the next twice.
func.func @exponential0(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential1(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential1(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential1(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential2(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential2(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential2(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential3(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential3(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential3(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential4(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential4(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential4(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential5(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential5(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential5(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential6(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential6(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential6(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential7(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential7(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential7(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential8(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential8(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential8(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential9(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential9(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential9(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential10(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential10(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential10(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential11(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential11(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential11(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential12(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential12(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential12(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential13(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential13(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential13(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential14(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential14(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential14(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential15(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential15(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential15(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential16(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential16(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential16(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential17(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential17(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential17(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential18(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential18(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential18(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential19(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential19(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential19(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential20(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential20(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential20(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential21(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential21(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential21(%x: tensor<f32>) -> tensor<f32> {
  %a = call @exponential22(%x) : (tensor<f32>) -> tensor<f32>
  %b = call @exponential22(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @exponential22(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
