// The parse path is bounded for every tool: nesting deeper than 256 levels
// (which overflowed the stack in MLIR's recursive attribute parser), a
// forward reference to a huge result number (which made the parser
// allocate without bound) and an input that is a device are each one
// error and exit status 1, within an 8 GB address space. Each limit that
// is located in the input (nesting, result number, a type's size) reads as
// MLIR's diagnostics do, "file:line:col: error: message", from every tool.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "print('func.func @f() -> tensor<1xf32> {\n  %%c = arith.constant dense<' + '[' * 20000 + '1.0' + ']' * 20000 + '> : tensor<1xf32>\n  return %%c : tensor<1xf32>\n}')" > %t/deep.mlir
// RUN: (%limit_address_space; not ens-run %t/deep.mlir 2>&1) | FileCheck %s --check-prefix=DEEP-EXEC
// DEEP-EXEC: {{^}}{{.*}}deep.mlir:2:283: error: nesting deeper than 256 levels{{$}}
// DEEP-EXEC: ens-run: error: {{.*}}deep.mlir is not a valid ens program
// RUN: (%limit_address_space; not ens-opt %t/deep.mlir 2>&1) | FileCheck %s --check-prefix=DEEP-OPT
// DEEP-OPT: {{^}}{{.*}}deep.mlir:2:283: error: nesting deeper than 256 levels{{$}}
//
// RUN: printf 'func.func @f() -> i32 {\n  return %%%%r#3037000500 : i32\n}\n' > %t/forward.mlir
// RUN: (%limit_address_space; not ens-run %t/forward.mlir 2>&1) | FileCheck %s --check-prefix=FORWARD
// RUN: (%limit_address_space; not ens-opt %t/forward.mlir 2>&1) | FileCheck %s --check-prefix=FORWARD
// FORWARD: {{^}}{{.*}}forward.mlir:2:12: error: result number #3037000500 is over the limit of 65535{{$}}
//
// A type whose size overflows 64 bits.
// RUN: printf 'func.func @f(%%%%x: tensor<f32>) -> tensor<3x6148914691236517206xf32> {\n  %%%%b = ens.broadcast_in_dim %%%%x {dims = array<i64>} : tensor<f32> -> tensor<3x6148914691236517206xf32>\n  return %%%%b : tensor<3x6148914691236517206xf32>\n}\n' > %t/huge.mlir
// RUN: (%limit_address_space; not ens-run %t/huge.mlir 2>&1) | FileCheck %s --check-prefix=HUGE
// RUN: (%limit_address_space; not ens-opt %t/huge.mlir 2>&1) | FileCheck %s --check-prefix=HUGE
// HUGE: {{^}}{{.*}}huge.mlir:2:8: error: 'ens.broadcast_in_dim' op result 0: {{.*}} whose element count overflows 64 bits
//
// RUN: not ens-run /dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not ens-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: /dev/zero: not a regular file
