// A forward reference left open in one function, a value of the same name
// in a later one, then a parse error: MLIR 19's parser binds the reference
// across the functions, frees the later one on the error and then writes
// to it (issue #25). ens parses each function alone first
// (ens/Support/SourceChunks.h), so that every tool reports the error at its
// place, exits with 1 and leaves its output alone.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: (%limit_6gb_address_space; not timeout 60 ens-opt %S/Inputs/forward-reference-then-error.mlir -o %t/out.mlir 2>&1) | FileCheck %s --check-prefix=TOP
// RUN: (%limit_6gb_address_space; not timeout 60 ens-run %S/Inputs/forward-reference-then-error.mlir --entry=f 2>&1) | FileCheck %s --check-prefixes=TOP,TOOL
// RUN: (%limit_6gb_address_space; not timeout 60 ens-run --backend=cpu %S/Inputs/forward-reference-then-error.mlir --entry=f 2>&1) | FileCheck %s --check-prefixes=TOP,TOOL
// TOP: forward-reference-then-error.mlir:2:10: error: use of undeclared SSA value name
// TOP-NOT: error
// TOOL: run: error: {{.*}} is not a valid ens program
// RUN: not ls %t/out.mlir
//
// In a module, with the words in a string and a comment, an alias and a
// signature over two lines: the error is the one of the whole text, at the
// end of the input, not where blanking the other functions ends a copy.
// RUN: (%limit_6gb_address_space; not timeout 60 ens-opt %S/Inputs/forward-reference-then-error-module.mlir 2>&1) | FileCheck %s --check-prefix=MODULE
// RUN: (%limit_6gb_address_space; not timeout 60 ens-run %S/Inputs/forward-reference-then-error-module.mlir --entry=f 2>&1) | FileCheck %s --check-prefixes=MODULE,MODULE-TOOL
// MODULE: forward-reference-then-error-module.mlir:14:36: error: expected operation name in quotes
// MODULE-NOT: error:
// MODULE-TOOL: run: error: {{.*}} is not a valid ens program
//
// An error inside a function between others is reported where it is.
// RUN: sed 's/%%c = ens.neg/%%c = ens.nope/' %S/Inputs/forward-reference-then-error-module.mlir > %t/middle.mlir
// RUN: not ens-opt %t/middle.mlir 2>&1 | FileCheck %s --check-prefix=MIDDLE
// MIDDLE: middle.mlir:10:10: error: custom op 'ens.nope' is unknown
//
// Each split of -split-input-file is parsed apart too.
// RUN: cat %S/Inputs/forward-reference-then-error-module.mlir > %t/split.mlir
// RUN: echo '// -----' >> %t/split.mlir
// RUN: cat %S/Inputs/forward-reference-then-error.mlir >> %t/split.mlir
// RUN: (%limit_6gb_address_space; not timeout 60 ens-opt -split-input-file %t/split.mlir 2>&1) | FileCheck %s --check-prefix=SPLIT
// SPLIT: split.mlir:1 offset :14:36: error: expected operation name in quotes
// SPLIT: split.mlir:15 offset :3:10: error: use of undeclared SSA value name
//
// A valid program of several functions still parses, verifies and prints.
// RUN: ens-opt %S/../../examples/mlp.mlir -o %t/mlp.mlir
// RUN: FileCheck %s --check-prefix=VALID < %t/mlp.mlir
// VALID: func.func @forward
// VALID: func.func @loss
