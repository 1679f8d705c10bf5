// Resuming is exact: 20 steps, then 20 more from the checkpoint, give the
// same final losses, bit for bit, as 40 steps in one run.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-train --members=8 --steps=40 --print-losses --plot= > %t/full.txt
// RUN: ens-train --members=8 --steps=20 --checkpoint=%t/ck --checkpoint-every=7 --plot= | FileCheck %s --check-prefix=FIRST
// FIRST: wrote checkpoint {{.*}}ck (step 20)
// RUN: ens-train --resume=%t/ck --steps=20 --print-losses --plot=%t/resumed.svg > %t/resumed.txt
// RUN: grep '^member ' %t/full.txt > %t/full-losses.txt
// RUN: grep '^member ' %t/resumed.txt > %t/resumed-losses.txt
// RUN: diff %t/full-losses.txt %t/resumed-losses.txt
// RUN: count 8 < %t/resumed-losses.txt
//
// RUN: FileCheck %s --check-prefix=RESUMED < %t/resumed.txt
// RESUMED: ens-train: 8 members of examples/mlp.mlir (built in)
// RESUMED: resuming from {{.*}}ck at step 20
// RESUMED: step 22/40
// RESUMED: final loss after 40 steps
// RESUMED: members whose loss fell: 8 of 8
// RESUMED: wrote checkpoint {{.*}}ck (step 40)
//
// The manifest describes the state; state.npz holds the stacked
// parameters and Adam's moments under the model's names.
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/ck/manifest.json
// MANIFEST-DAG: "format": "ens-train checkpoint"
// MANIFEST-DAG: "members": 8
// MANIFEST-DAG: "step": 40
// MANIFEST-DAG: "seed": 0
// MANIFEST-DAG: "model": "builtin"
// MANIFEST-DAG: "lr_min": 0.001
// MANIFEST-DAG: "name": "adam"
// RUN: %python -c "import sys, zipfile; print(sorted(zipfile.ZipFile(sys.argv[1]).namelist()))" %t/ck/state.npz | FileCheck %s --check-prefix=NPZ
// NPZ: ['b1.npy', 'b2.npy', 'initial_loss.npy', 'loss_curve.npy', 'lr.npy', 'm_b1.npy', 'm_b2.npy', 'm_w1.npy', 'm_w2.npy', 'step.npy', 'v_b1.npy', 'v_b2.npy', 'v_w1.npy', 'v_w2.npy', 'w1.npy', 'w2.npy']
// RUN: ls %t/ck | FileCheck %s --check-prefix=FILES --implicit-check-not=tmp
// FILES: manifest.json
// FILES-NEXT: state.npz
