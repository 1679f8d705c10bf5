// RUN: ens-opt %s '--ens-specialize=entry=main arg-types=tensor<8x4xf32>' -split-input-file -verify-diagnostics
//
// Errors of ens-specialize, each naming the argument or value at fault.
// Every case specializes @main at tensor<8x4xf32>.
//
// RUN: not ens-opt %s --ens-specialize=entry=missing -split-input-file 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: ens-specialize: no function named @missing
//
// RUN: not ens-opt %s '--ens-specialize=entry=main arg-types=tensor<?x4xf32>' -split-input-file 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: 'func.func' op cannot specialize argument 0 of @main to 'tensor<?x4xf32>', which has a `?` size
//
// RUN: not ens-opt %s '--ens-specialize=entry=main arg-types=tensor<8x4xf32' -split-input-file 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: error: ens-specialize: cannot parse the type 'tensor<8x4xf32' in arg-types
//
// RUN: not ens-opt %s --ens-specialize -split-input-file 2>&1 | FileCheck %s --check-prefix=NO-ENTRY
// NO-ENTRY: error: ens-specialize needs entry=NAME

// The static size 5 contradicts the argument's 4.
// expected-error @+1 {{'func.func' op cannot specialize argument 0 of @main ('tensor<?x5xf32>') to 'tensor<8x4xf32>'}}
func.func @main(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  return %x : tensor<?x5xf32>
}

// -----

// expected-error @+1 {{'func.func' op cannot specialize @main, which takes 2 arguments, to 1 argument types}}
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// A contradiction with a callee's static size is reported where the callee
// is reached: @f wants 3 rows, each member has 8.
func.func @f(%x: tensor<3x?xf32>) -> tensor<3x?xf32> {
  return %x : tensor<3x?xf32>
}

func.func @main(%x: tensor<?x4xf32>) -> tensor<2x3x?xf32> {
  // expected-error @+1 {{'ens.vmap' op cannot specialize argument 0 of @f ('tensor<3x?xf32>') to 'tensor<8x4xf32>'}}
  %y = ens.vmap @f(%x) {in_axes = array<i64: -1>, out_axes = array<i64: 0>,
                        size = 2 : i64} : (tensor<?x4xf32>) -> tensor<2x3x?xf32>
  return %y : tensor<2x3x?xf32>
}

// -----

// A new dimension of a broadcast has no size to take.
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x?x4xf32> {
  // expected-error @+1 {{'ens.broadcast_in_dim' op result 0: cannot resolve the `?` sizes of 'tensor<?x8x4xf32>' from the operands}}
  %b = ens.broadcast_in_dim %x {dims = array<i64: 1, 2>}
      : tensor<?x4xf32> -> tensor<?x?x4xf32>
  return %b : tensor<?x?x4xf32>
}

// -----

// 32 elements do not make rows of 5.
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x5xf32> {
  // expected-error @+1 {{'ens.reshape' op result 0: cannot resolve the `?` sizes of 'tensor<?x5xf32>' from the operands}}
  %r = ens.reshape %x : tensor<?x4xf32> -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}

// -----

// The depth of a one-hot encoding must be written.
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4x?xf32> {
  %i = ens.convert %x : tensor<?x4xf32> -> tensor<?x4xi32>
  // expected-error @+1 {{'ens.one_hot' op result 0: cannot resolve the `?` sizes of 'tensor<8x4x?xf32>' from the operands}}
  %o = ens.one_hot %i : tensor<?x4xi32> -> tensor<?x4x?xf32>
  return %o : tensor<?x4x?xf32>
}

// -----

// Two `?` that the model assumes equal, which they are not at 8 rows: the
// op's verifier reports it on the specialized types.
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c = ens.constant dense<1.0> : tensor<3x4xf32>
  // expected-error @+1 {{'ens.add' op operand 1 has shape 3x4 but operand 0 has shape 8x4}}
  %y = "ens.add"(%x, %c)
      : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'func.call' op reaches @main recursively, which ens-specialize cannot specialize}}
  %y = call @main(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
