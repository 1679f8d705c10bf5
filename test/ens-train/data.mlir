// Real data from .csv, .npz (as np.savez writes it) and .npy files: the
// same table in each gives the same training, bit for bit.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --members=4 --steps=10 --data=%t/data.csv --plot=%t/csv.svg --print-losses > %t/csv.txt
// RUN: ens-train --members=4 --steps=10 --data=%t/data.npz --plot= --print-losses > %t/npz.txt
// RUN: ens-train --members=4 --steps=10 --data=%t/data.npy --plot= --print-losses > %t/npy.txt
// RUN: FileCheck %s < %t/csv.txt
// CHECK: data: {{.*}}data.csv, 256 rows
// CHECK: members whose loss fell: 4 of 4
// CHECK-NEXT: training data: RMSE of the ensemble mean {{[0-9.e-]+}}, mean RMSE of the members {{[0-9.e-]+}}, spread (std-dev across members) {{[0-9.e-]+}}
// CHECK-NEXT: wrote plot
// RUN: grep '^member ' %t/csv.txt > %t/csv-losses.txt
// RUN: grep '^member ' %t/npz.txt > %t/npz-losses.txt
// RUN: grep '^member ' %t/npy.txt > %t/npy-losses.txt
// RUN: diff %t/csv-losses.txt %t/npz-losses.txt
// RUN: diff %t/csv-losses.txt %t/npy-losses.txt
// RUN: FileCheck %s --check-prefix=SVG < %t/csv.svg
// SVG: against the target
// SVG: </svg>
//
// --header skips the first line even when it is numeric (without it, that
// line is a row), and --targets checks the columns the model expects.
// RUN: tail -n +2 %t/data.csv > %t/no-header.csv
// RUN: head -1 %t/no-header.csv > %t/numeric-header.csv
// RUN: cat %t/no-header.csv >> %t/numeric-header.csv
// RUN: ens-train --members=4 --steps=1 --data=%t/numeric-header.csv --header --targets=8 --plot= | FileCheck %s --check-prefix=HEADER
// HEADER: data: {{.*}}numeric-header.csv, 256 rows
// RUN: ens-train --members=4 --steps=1 --data=%t/numeric-header.csv --plot= | FileCheck %s --check-prefix=NO-HEADER
// NO-HEADER: data: {{.*}}numeric-header.csv, 257 rows
// RUN: not ens-train --steps=1 --data=%t/data.csv --targets=3 2>&1 | FileCheck %s --check-prefix=TARGETS
// TARGETS: {{^}}ens-train: error: --targets=3, but the model's @forward returns 8 outputs: the data's last 8 columns are the targets{{$}}
