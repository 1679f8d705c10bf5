// Validation and early stopping: --val-split holds out a seeded share of
// the data; with --patience=P a member stops after P epochs without a lower
// validation loss, keeps its parameters from then on, and gets back its
// best epoch's parameters at the end. Inputs/batch32.mlir has batches of 32
// rows, so long.npz's 704 rows split into 176 for validation (5 batches)
// and 528 for training (16 steps per epoch). The learning rates run up to
// 0.3, at which the last members' validation losses soon rise.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --model=%S/Inputs/batch32.mlir --members=6 --epochs=30 --data=%t/long.npz --val-split=0.25 --patience=3 --lr-min=1e-3 --lr-max=0.3 --plot= --print-losses > %t/run.txt
// RUN: FileCheck %s < %t/run.txt
// CHECK: data: {{.*}}long.npz, 528 rows
// CHECK-NEXT: validation: 176 rows drawn from the data, patience 3 epochs
// CHECK-NEXT: batches of 32 rows, 16 steps per epoch, shuffle none
// CHECK: member 0: best epoch 30, validation loss {{[0-9.e-]+}}, did not stop
// CHECK: member 5: best epoch {{[0-9]+}}, validation loss {{[0-9.e-]+}}, stopped after epoch {{[0-9]+}}
// CHECK-NEXT: validation loss: min
//
// A member stops exactly P epochs after its best one...
// RUN: grep 'stopped after epoch' %t/run.txt | awk '{ if ($12 - $5 != 3) exit 1; n++ } END { if (n < 1) exit 1 }'
// ... and ends with its best epoch's parameters: its validation loss, as
// evaluated again at the end, is the best one recorded during training.
// RUN: grep ' validation loss [0-9]' %t/run.txt | grep ' lr ' | awk '{ print $1, $2, $9 }' > %t/final.txt
// RUN: grep 'best epoch' %t/run.txt | awk '{ print $1, $2, $8 }' | sed 's/,$//' > %t/best.txt
// RUN: diff %t/final.txt %t/best.txt
// RUN: count 6 < %t/best.txt
//
// Resuming is exact with early stopping too: 10 epochs, then 20 more from
// the checkpoint, stop the same members at the same epochs with the same
// losses as 30 in one run.
// RUN: ens-train --model=%S/Inputs/batch32.mlir --members=6 --epochs=10 --data=%t/long.npz --val-split=0.25 --patience=3 --lr-min=1e-3 --lr-max=0.3 --plot= --checkpoint=%t/ck > /dev/null
// RUN: ens-train --resume=%t/ck --epochs=20 --plot= --print-losses > %t/resumed.txt
// RUN: grep '^member ' %t/run.txt > %t/run-members.txt
// RUN: grep '^member ' %t/resumed.txt > %t/resumed-members.txt
// RUN: diff %t/run-members.txt %t/resumed-members.txt
//
// A validation file instead of a split.
// RUN: ens-train --model=%S/Inputs/batch32.mlir --members=2 --epochs=1 --data=%t/data.npz --val=%t/long.csv --patience=2 --plot= | FileCheck %s --check-prefix=FILE
// FILE: validation: 704 rows of {{.*}}long.csv, patience 2 epochs
// FILE: member 1: best epoch 1, validation loss {{[0-9.e-]+}}, did not stop
//
// Every member stopping ends the run early.
// RUN: ens-train --model=%S/Inputs/batch32.mlir --members=2 --epochs=200 --data=%t/long.npz --val-split=0.25 --patience=1 --lr=0.5 --plot= | FileCheck %s --check-prefix=ALL
// ALL: every member has stopped, after epoch
//
// Errors.
// RUN: not ens-train --patience=3 2>&1 | FileCheck %s --check-prefix=NO-VAL
// NO-VAL: {{^}}ens-train: error: --patience needs a validation set: give --val or --val-split{{$}}
// RUN: not ens-train --val=%t/data.npz --val-split=0.5 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: {{^}}ens-train: error: give either --val or --val-split, not both{{$}}
// RUN: not ens-train --val-split=1.5 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: {{^}}ens-train: error: --val-split must be in [0, 1) (got 1.5){{$}}
// RUN: not ens-train --data=%t/long.npz --val-split=0.2 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: {{^}}ens-train: error: the validation set has 141 rows, fewer than a batch of 256: it is evaluated in whole batches{{$}}
// RUN: not ens-train --data=%t/long.npz --val-split=0.9 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: {{^}}ens-train: error: the batch size, 256, is larger than the training part of the data: {{.*}}long.npz has 70 rows after the split{{$}}
// RUN: not ens-train --resume=%t/ck --steps=1 --patience=4 2>&1 | FileCheck %s --check-prefix=CHANGED
// CHANGED: {{^}}ens-train: error: --patience does not match the checkpoint in {{.*}}ck (3); leave it out when resuming
//
// A checkpoint that says it stops early must hold the state of it.
// RUN: ens-train --model=%S/Inputs/batch32.mlir --members=2 --epochs=1 --data=%t/long.npz --val-split=0.25 --plot= --checkpoint=%t/ck-no-patience > /dev/null
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck-no-patience %t/forged validation.patience=2
// RUN: not ens-train --resume=%t/forged --steps=1 2>&1 | FileCheck %s --check-prefix=FORGED
// FORGED: {{^}}ens-train: error: cannot resume from {{.*}}forged: {{.*}}state.npz has no array 'best_loss'{{$}}
