// Minibatches: --epochs over data of N rows in batches of the model's B,
// floor(N / B) steps each (long.npz: 704 rows of the default model's 256:
// 2 steps per epoch, 192 rows left out of each), shuffled per epoch for all
// members or per member, or from each member's bootstrap resample.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --members=4 --epochs=3 --data=%t/long.npz --plot= --print-losses > %t/none.txt
// RUN: FileCheck %s < %t/none.txt
// CHECK: data: {{.*}}long.npz, 704 rows
// CHECK-NEXT: batches of 256 rows, 2 steps per epoch, shuffle none
// CHECK-NEXT: 6 steps on the cpu backend
// CHECK: trained 6 steps in
// CHECK: final loss after 6 steps
// CHECK-NEXT: members whose loss fell: 4 of 4
//
// Unshuffled, the data's rows are read in order: the same table as CSV
// trains the same, bit for bit.
// RUN: ens-train --members=4 --epochs=3 --data=%t/long.csv --plot= --print-losses > %t/csv.txt
// RUN: grep '^member ' %t/none.txt > %t/none-losses.txt
// RUN: grep '^member ' %t/csv.txt > %t/csv-losses.txt
// RUN: diff %t/none-losses.txt %t/csv-losses.txt
//
// Each order trains differently (the final losses differ from in-order
// training's), and says so.
// RUN: ens-train --members=4 --epochs=3 --data=%t/long.npz --shuffle=shared --plot= --print-losses > %t/shared.txt
// RUN: ens-train --members=4 --epochs=3 --data=%t/long.npz --shuffle=member --plot= --print-losses > %t/member.txt
// RUN: ens-train --members=4 --epochs=3 --data=%t/long.npz --bootstrap --plot= --print-losses > %t/bootstrap.txt
// RUN: FileCheck %s --check-prefix=SHARED < %t/shared.txt
// SHARED: batches of 256 rows, 2 steps per epoch, shuffle shared{{$}}
// RUN: FileCheck %s --check-prefix=BOOTSTRAP < %t/bootstrap.txt
// BOOTSTRAP: batches of 256 rows, 2 steps per epoch, shuffle none, bootstrap
// RUN: grep '^member ' %t/shared.txt > %t/shared-losses.txt
// RUN: grep '^member ' %t/member.txt > %t/member-losses.txt
// RUN: grep '^member ' %t/bootstrap.txt > %t/bootstrap-losses.txt
// RUN: not diff %t/none-losses.txt %t/shared-losses.txt
// RUN: not diff %t/shared-losses.txt %t/member-losses.txt
// RUN: not diff %t/none-losses.txt %t/bootstrap-losses.txt
//
// Resuming in the middle of an epoch is exact, for every way of ordering:
// 3 steps, then 3 more from the checkpoint, give the final losses of 6
// steps (3 epochs) in one run, bit for bit.
// RUN: ens-train --members=4 --steps=3 --data=%t/long.npz --shuffle=member --bootstrap --checkpoint=%t/ck-member --plot= > /dev/null
// RUN: ens-train --resume=%t/ck-member --steps=3 --plot= --print-losses > %t/member-resumed.txt
// RUN: ens-train --members=4 --epochs=3 --data=%t/long.npz --shuffle=member --bootstrap --plot= --print-losses > %t/member-bootstrap.txt
// RUN: grep '^member ' %t/member-resumed.txt > %t/member-resumed-losses.txt
// RUN: grep '^member ' %t/member-bootstrap.txt > %t/member-bootstrap-losses.txt
// RUN: diff %t/member-bootstrap-losses.txt %t/member-resumed-losses.txt
// RUN: FileCheck %s --check-prefix=RESUMED < %t/member-resumed.txt
// RESUMED: batches of 256 rows, 2 steps per epoch, shuffle member, bootstrap
// RESUMED: resuming from {{.*}}ck-member at step 3
// RESUMED: final loss after 6 steps
// RUN: ens-train --members=4 --steps=3 --data=%t/long.npz --shuffle=shared --checkpoint=%t/ck-shared --plot= > /dev/null
// RUN: ens-train --resume=%t/ck-shared --epochs=1 --plot= --print-losses > %t/shared-resumed.txt
// RUN: grep '^member ' %t/shared-resumed.txt > %t/shared-resumed-losses.txt
// A resumed --epochs=1 runs one epoch's steps more: 3 + 2 = 5 steps.
// RUN: ens-train --members=4 --steps=5 --data=%t/long.npz --shuffle=shared --plot= --print-losses > %t/shared-5.txt
// RUN: grep '^member ' %t/shared-5.txt > %t/shared-5-losses.txt
// RUN: diff %t/shared-5-losses.txt %t/shared-resumed-losses.txt
//
// The checkpoint records the batching; a resumed run keeps it.
// RUN: grep -A4 '"batching"' %t/ck-shared/gen-*/manifest.json | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: "batch_size": 256
// MANIFEST: "bootstrap": false
// MANIFEST: "shuffle": "shared"
// RUN: not ens-train --resume=%t/ck-shared --steps=1 --shuffle=member 2>&1 | FileCheck %s --check-prefix=CHANGED
// CHANGED: {{^}}ens-train: error: --shuffle does not match the checkpoint in {{.*}}ck-shared ("shared"); leave it out when resuming
// RUN: not ens-train --resume=%t/ck-shared --steps=1 --bootstrap 2>&1 | FileCheck %s --check-prefix=CHANGED-BOOTSTRAP
// CHANGED-BOOTSTRAP: {{^}}ens-train: error: --bootstrap does not match the checkpoint in {{.*}}ck-shared (false); leave it out when resuming
//
// Bad batching flags get one clear error each.
// RUN: not ens-train --batch-size=128 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: {{^}}ens-train: error: the batch size, 128, differs from the batch of examples/mlp.mlir (built in) (x is tensor<256x64xf32>); the two must be the same
// RUN: not ens-train --epochs=2 --steps=3 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: {{^}}ens-train: error: give either --epochs or --steps, not both
// RUN: not ens-train --shuffle=random 2>&1 | FileCheck %s --check-prefix=SHUFFLE
// SHUFFLE: {{^}}ens-train: error: --shuffle=random is not none, shared or member
// RUN: not ens-train --epochs=x 2>&1 | FileCheck %s --check-prefix=EPOCHS
// EPOCHS: {{^}}ens-train: error: --epochs=x is not a whole number >= 0
