// Files that are not regular files, and archives whose directory lies, are
// one clear error each, quickly and within an 8 GB address space: nothing
// is read from a device or a FIFO (which would hang or never end), and a
// .npz costs at most what the file holds.
//
// RUN: rm -rf %t && mkdir -p %t/dir.npz %t/model-dir.mlir
// RUN: mkfifo %t/fifo.mlir %t/fifo.csv && ln -s /dev/zero %t/zero.npy
//
// RUN: not ens-train --model=/dev/zero 2>&1 | FileCheck %s --check-prefix=MODEL-DEVICE
// MODEL-DEVICE: {{^}}ens-train: error: cannot read model /dev/zero: not a regular file{{$}}
// RUN: not ens-train --model=%t/fifo.mlir 2>&1 | FileCheck %s --check-prefix=MODEL-FIFO
// MODEL-FIFO: {{^}}ens-train: error: cannot read model {{.*}}fifo.mlir: not a regular file{{$}}
// RUN: not ens-train --model=%t/model-dir.mlir 2>&1 | FileCheck %s --check-prefix=MODEL-DIR
// MODEL-DIR: {{^}}ens-train: error: cannot read model {{.*}}model-dir.mlir: not a regular file{{$}}
//
// RUN: not ens-train --data=%t/zero.npy 2>&1 | FileCheck %s --check-prefix=NPY-DEVICE
// NPY-DEVICE: {{^}}ens-train: error: cannot read data: {{.*}}zero.npy: not a regular file{{$}}
// RUN: not ens-train --data=%t/fifo.csv 2>&1 | FileCheck %s --check-prefix=CSV-FIFO
// CSV-FIFO: {{^}}ens-train: error: cannot read data {{.*}}fifo.csv: not a regular file{{$}}
// RUN: not ens-train --data=%t/dir.npz 2>&1 | FileCheck %s --check-prefix=NPZ-DIR
// NPZ-DIR: {{^}}ens-train: error: cannot read data {{.*}}dir.npz: not a regular file{{$}}
//
// Forged archives (see Inputs/make_bad_npz.py).
// RUN: %python %S/Inputs/make_bad_npz.py %t
// RUN: (%limit_address_space && not ens-train --data=%t/many-views.npz 2>&1) | FileCheck %s --check-prefix=VIEWS
// VIEWS: {{^}}ens-train: error: cannot read data: {{.*}}many-views.npz declares more data in its entries than the file holds{{$}}
// RUN: not ens-train --data=%t/overlap.npz 2>&1 | FileCheck %s --check-prefix=OVERLAP
// OVERLAP: {{^}}ens-train: error: cannot read data: {{.*}}overlap.npz entries 'x.npy' and 'y.npy' overlap{{$}}
// RUN: not ens-train --data=%t/zip64-count.npz 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}ens-train: error: cannot read data: {{.*}}zip64-count.npz has 1099511627776 entries, more than the 65536 a .npz may have here{{$}}
// RUN: not ens-train --data=%t/short-dir.npz 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: {{^}}ens-train: error: cannot read data: {{.*}}short-dir.npz declares 60000 entries, more than its central directory holds{{$}}
// RUN: not ens-train --data=%t/same-name.npz 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: {{^}}ens-train: error: cannot read data: {{.*}}same-name.npz has two arrays named 'x'{{$}}
