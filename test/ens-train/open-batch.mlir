// A model that leaves its batch open (`tensor<?x64xf32>`, docs/shapes.md)
// trains at any --batch-size: ens-train compiles its programs for the batch
// size and for the partial last batch of an epoch, and evaluates every row.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
//
// At batch 32 it trains exactly as the same model written for batch 32
// (Inputs/batch32.mlir), bit for bit, with per-member shuffles, bootstrap,
// a validation split and early stopping (data.npz: 256 rows, 192 to train
// in 6 batches, 64 to validate in 2).
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=32 --members=4 --epochs=3 --data=%t/data.npz --shuffle=member --bootstrap --val-split=0.25 --patience=2 --lr-max=0.5 --plot= --print-losses > %t/open.txt
// RUN: ens-train --model=%S/Inputs/batch32.mlir --members=4 --epochs=3 --data=%t/data.npz --shuffle=member --bootstrap --val-split=0.25 --patience=2 --lr-max=0.5 --plot= --print-losses > %t/static.txt
// RUN: grep '^member ' %t/open.txt > %t/open-members.txt
// RUN: grep '^member ' %t/static.txt > %t/static-members.txt
// RUN: diff %t/open-members.txt %t/static-members.txt
// RUN: count 8 < %t/open-members.txt
//
// At batch 100, long.npz's 704 rows are 7 batches and one of 4 rows; with
// --drop-last, 7.
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=2 --epochs=2 --data=%t/long.npz --shuffle=shared --plot= --print-losses > %t/partial.txt
// RUN: FileCheck %s --check-prefix=PARTIAL < %t/partial.txt
// PARTIAL: batches of 100 rows (the last of 4), 8 steps per epoch, shuffle shared
// PARTIAL: trained 16 steps
// PARTIAL: members whose loss fell: 2 of 2
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=2 --epochs=2 --data=%t/long.npz --drop-last --plot= | FileCheck %s --check-prefix=DROP
// DROP: batches of 100 rows, 7 steps per epoch, shuffle none
// DROP: trained 14 steps
//
// Resuming just before and after a partial batch is exact.
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=2 --steps=7 --data=%t/long.npz --shuffle=shared --plot= --checkpoint=%t/ck > /dev/null
// RUN: ens-train --resume=%t/ck --steps=2 --plot= --checkpoint=%t/ck > /dev/null
// RUN: ens-train --resume=%t/ck --steps=7 --plot= --print-losses > %t/resumed.txt
// RUN: grep '^member ' %t/partial.txt > %t/partial-members.txt
// RUN: grep '^member ' %t/resumed.txt > %t/resumed-members.txt
// RUN: diff %t/partial-members.txt %t/resumed-members.txt
//
// A validation set smaller than a batch is one partial batch.
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=2 --epochs=1 --data=%t/data.npz --val-split=0.25 --plot= | FileCheck %s --check-prefix=SMALL-VAL
// SMALL-VAL: validation: 64 rows drawn from the data
// SMALL-VAL: validation loss: min
//
// An open batch needs a batch size.
// RUN: not ens-train --model=%S/Inputs/open-batch.mlir 2>&1 | FileCheck %s --check-prefix=NO-BATCH
// NO-BATCH: {{^}}ens-train: error: {{.*}}open-batch.mlir leaves its batch open (x is tensor<?x64xf32>): give --batch-size{{$}}
