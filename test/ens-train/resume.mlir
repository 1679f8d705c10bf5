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
// The checkpoint is one committed generation: CURRENT names it, and no
// older generation or temporary file is left. Its manifest describes the
// state (and records its size and checksum); state.npz holds the stacked
// parameters and Adam's moments under the model's names.
// RUN: ls %t/ck | FileCheck %s --check-prefix=FILES --implicit-check-not=tmp
// FILES: CURRENT
// FILES-NEXT: gen-000000000040-{{[0-9a-f]{16}$}}
// FILES-NOT: {{.}}
// RUN: ls %t/ck/gen-* | FileCheck %s --check-prefix=GENERATION --implicit-check-not=tmp
// GENERATION: manifest.json
// GENERATION-NEXT: state.npz
// RUN: ls %t/ck | grep gen- | diff - %t/ck/CURRENT
// RUN: cat %t/ck/gen-*/manifest.json | FileCheck %s --check-prefix=MANIFEST
// MANIFEST-DAG: "format": "ens-train checkpoint"
// MANIFEST-DAG: "version": 2
// MANIFEST-DAG: "members": 8
// MANIFEST-DAG: "step": 40
// MANIFEST-DAG: "seed": 0
// MANIFEST-DAG: "model": "builtin"
// MANIFEST-DAG: "lr_min": 0.001
// MANIFEST-DAG: "name": "adam"
// MANIFEST-DAG: "state": "state.npz"
// MANIFEST-DAG: "state_checksum": "{{[0-9a-f]{16}",?$}}
// RUN: %python -c "import glob, zipfile; print(sorted(zipfile.ZipFile(glob.glob('%t/ck/gen-*/state.npz')[0]).namelist()))" | FileCheck %s --check-prefix=NPZ
// NPZ: ['b1.npy', 'b2.npy', 'initial_loss.npy', 'loss_curve.npy', 'lr.npy', 'm_b1.npy', 'm_b2.npy', 'm_w1.npy', 'm_w2.npy', 'step.npy', 'v_b1.npy', 'v_b2.npy', 'v_w1.npy', 'v_w2.npy', 'w1.npy', 'w2.npy']
// The manifest records the state's exact size.
// RUN: %python -c "import glob, json, os; g = glob.glob('%t/ck/gen-*')[0]; print(json.load(open(g + '/manifest.json'))['state_bytes'] == os.path.getsize(g + '/state.npz'))" | FileCheck %s --check-prefix=SIZE
// SIZE: True
