// ens-opt never registers its output for removal on a crash (issue #25: a
// crash of `ens-opt -o /dev/null` as root removed /dev/null), and never
// replaces a device or a FIFO with a regular file.
//
// RUN: rm -rf %t && mkdir -p %t
//
// A crash while ens-opt writes into a FIFO leaves the FIFO.
// RUN: bash %S/Inputs/kill-while-writing.sh %t ens-opt | FileCheck %s --check-prefix=KILLED
// KILLED: ens-opt exit status 139
// KILLED-NEXT: fifo
//
// A device (made here when running as root, as CI does; otherwise a FIFO
// with a reader) stays one after a failed and a successful run.
// RUN: mknod %t/null c 1 3 2>/dev/null || (mkfifo %t/null && (cat %t/null > %t/read &))
// RUN: not ens-opt %S/Inputs/forward-reference-then-error.mlir -o %t/null 2>&1 | FileCheck %s --check-prefix=FAILED
// FAILED: error: use of undeclared SSA value name
// RUN: ens-opt %S/../../examples/mlp.mlir -o %t/null
// RUN: stat -c '%%F' %t/null | FileCheck %s --check-prefix=DEVICE
// DEVICE: {{character special file|fifo}}
//
// A regular output is replaced only once everything has succeeded.
// RUN: echo previous > %t/out.mlir
// RUN: not ens-opt %S/Inputs/forward-reference-then-error.mlir -o %t/out.mlir
// RUN: FileCheck %s --check-prefix=KEPT < %t/out.mlir
// KEPT: previous
