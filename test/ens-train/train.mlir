// A short run of the default model on the built-in problem: the summary is
// printed, every member's loss fell, the ensemble disagrees more inside the
// gap than outside it, and the plot is a valid SVG file.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-train --members=8 --steps=40 --plot=%t/plot.svg | FileCheck %s
// CHECK: ens-train: 8 members of examples/mlp.mlir (built in), 4 parameters (2344 values) per member
// CHECK-NEXT: data: built-in 1-D regression with a gap in [-0.2, 0.3], 256 points, seed 0
// CHECK-NEXT: batches of 256 rows, 1 step per epoch, shuffle none
// CHECK-NEXT: Adam, learning rates 0.001 to 0.01 (log-spaced), 40 steps on the cpu backend
// CHECK: step 4/40  mean loss {{[0-9.e-]+}}  ({{[0-9.]+}} steps/s, ETA {{[0-9]+:[0-9][0-9]}}){{$}}
// CHECK: step 40/40  mean loss
// CHECK: trained 40 steps in
// CHECK: final loss after 40 steps: min {{[0-9.e-]+}}, median {{[0-9.e-]+}}, max {{[0-9.e-]+}} (initially median
// CHECK-NEXT: members whose loss fell: 8 of 8
// CHECK-NEXT: held-out RMSE of the ensemble mean: {{[0-9.e-]+}} outside the gap, {{[0-9.e-]+}} inside it
// CHECK-NEXT: spread (std-dev across members): {{[0-9.e-]+}} outside the gap, {{[0-9.e-]+}} inside it ({{[1-9][0-9]*\.[0-9]}}x larger in the gap)
// CHECK-NEXT: wrote plot {{.*}}plot.svg
//
// RUN: FileCheck %s --check-prefix=SVG < %t/plot.svg
// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: gap (no training data)
// SVG: training loss over members (log scale)
// SVG: </svg>
// RUN: %python -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" %t/plot.svg
//
// The reference interpreter runs the same programs.
// RUN: ens-train --members=2 --steps=3 --plot= --print-losses --backend=interp | FileCheck %s --check-prefix=INTERP
// INTERP: Adam, learning rates 0.001 to 0.01 (log-spaced), 3 steps on the interpreter backend
// INTERP: member 0: lr 0.001 loss
// INTERP-NEXT: member 1: lr 0.01 loss
// INTERP-NEXT: final loss after 3 steps
// INTERP-NEXT: members whose loss fell: 2 of 2
