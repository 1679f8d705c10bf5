// The parse path is bounded for every tool: nesting deeper than 256 levels
// (which overflowed the stack in MLIR's recursive attribute parser), a
// forward reference to a huge result number (which made the parser
// allocate without bound) and an input that is a device are each one
// error and exit status 1, within an 8 GB address space.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "print('func.func @f() -> tensor<1xf32> {\n  %%c = arith.constant dense<' + '[' * 20000 + '1.0' + ']' * 20000 + '> : tensor<1xf32>\n  return %%c : tensor<1xf32>\n}')" > %t/deep.mlir
// RUN: (%limit_address_space; not ens-run %t/deep.mlir 2>&1) | FileCheck %s --check-prefix=DEEP-EXEC
// DEEP-EXEC: deep.mlir:2:{{[0-9]+}}: error: nesting deeper than 256 levels
// DEEP-EXEC: ens-run: error: {{.*}}deep.mlir is not a valid ens program
// RUN: (%limit_address_space; not ens-opt %t/deep.mlir 2>&1) | FileCheck %s --check-prefix=DEEP-OPT
// DEEP-OPT: ens-opt: {{.*}}deep.mlir:2:{{[0-9]+}}: nesting deeper than 256 levels
//
// RUN: printf 'func.func @f() -> i32 {\n  return %%%%r#3037000500 : i32\n}\n' > %t/forward.mlir
// RUN: (%limit_address_space; not ens-run %t/forward.mlir 2>&1) | FileCheck %s --check-prefix=FORWARD
// RUN: (%limit_address_space; not ens-opt %t/forward.mlir 2>&1) | FileCheck %s --check-prefix=FORWARD
// FORWARD: forward.mlir:2:12: {{(error: )?}}result number #3037000500 is over the limit of 65535
//
// RUN: not ens-run /dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not ens-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: /dev/zero: not a regular file
