// The seed-002 workflow (issue #15) as one command: 10 ensembles of 8
// members, each ensemble regressing one of the 10 target columns of a CSV
// file (make_data.py's workflow.csv, with a header), minibatches of 256
// rows shuffled per member, AdamW (Adam with decoupled weight decay), and
// early stopping with patience 5 on a 20% validation split. It ends with
// each member's best epoch; predict then writes each ensemble's mean and
// spread for new rows.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --model=%S/Inputs/workflow-member.mlir --data=%t/workflow.csv --header --targets=10 --ensembles=10 --members=8 --batch-size=256 --shuffle=member --lr=3e-3 --weight-decay=1e-4 --val-split=0.2 --patience=5 --epochs=200 --checkpoint=%t/ck --checkpoint-every=0 --plot= > %t/cpu.txt
// RUN: FileCheck %s < %t/cpu.txt
// CHECK: ens-train: 10 ensembles of 8 members of {{.*}}workflow-member.mlir
// CHECK-NEXT: data: {{.*}}workflow.csv, 1024 rows
// CHECK-NEXT: validation: 256 rows drawn from the data, patience 5 epochs
// CHECK-NEXT: batches of 256 rows, 4 steps per epoch, shuffle member
// CHECK: ensemble 0 member 0: best epoch {{[0-9]+}}, validation loss {{[0-9.e-]+}}, {{stopped after epoch [0-9]+|did not stop}}
// CHECK: ensemble 9 member 7: best epoch {{[0-9]+}}, validation loss {{[0-9.e-]+}}, {{stopped after epoch [0-9]+|did not stop}}
// CHECK: members whose loss fell: 80 of 80
// CHECK: ensemble 9: validation data: RMSE of the ensemble mean
// Early stopping stopped some members: a member stops 5 epochs after its
// best.
// RUN: grep -c 'stopped after epoch' %t/cpu.txt | awk '{ if ($1 < 1) exit 1 }'
// RUN: grep 'stopped after epoch' %t/cpu.txt | sed 's/.*best epoch \([0-9]*\),.*stopped after epoch \([0-9]*\)/\1 \2/' | awk '{ if ($2 != $1 + 5) exit 1 }'
//
// predict on 64 new rows of features alone: a mean and a spread per
// ensemble.
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/workflow-new.csv --header --out=%t/pred.csv | FileCheck %s --check-prefix=PREDICT
// PREDICT: ens-train predict: 10 ensembles of 8 members of {{.*}}workflow-member.mlir on 64 rows of {{.*}}workflow-new.csv
// PREDICT-NEXT: wrote {{.*}}pred.csv
// RUN: head -1 %t/pred.csv | FileCheck %s --check-prefix=HEADER
// HEADER: {{^}}e0_mean_0,e0_std_0,e0_member0_0,{{.*}},e9_mean_0,e9_std_0,e9_member0_0,{{.*}},e9_member7_0{{$}}
// RUN: count 65 < %t/pred.csv
//
// The same command on the emulated GPU (cuda-emu runs the backend's CUDA
// source on the CPU, about 25 s a step here, so it runs two steps) ends
// with the cpu backend's losses.
// RUN: ens-train --model=%S/Inputs/workflow-member.mlir --data=%t/workflow.csv --header --targets=10 --ensembles=10 --members=8 --batch-size=256 --shuffle=member --lr=3e-3 --weight-decay=1e-4 --val-split=0.2 --patience=5 --steps=2 --plot= --print-losses --backend=cuda-emu > %t/emu.txt
// RUN: ens-train --model=%S/Inputs/workflow-member.mlir --data=%t/workflow.csv --header --targets=10 --ensembles=10 --members=8 --batch-size=256 --shuffle=member --lr=3e-3 --weight-decay=1e-4 --val-split=0.2 --patience=5 --steps=2 --plot= --print-losses > %t/cpu2.txt
// RUN: FileCheck %s --check-prefix=EMU < %t/emu.txt
// EMU: 2 steps on the emulated GPU backend
// EMU: ensemble 9 member 7: lr 0.003 loss
// RUN: grep ': lr ' %t/cpu2.txt | awk '{ print $8, $11 }' > %t/cpu-losses.txt
// RUN: grep ': lr ' %t/emu.txt | awk '{ print $8, $11 }' > %t/emu-losses.txt
// RUN: count 80 < %t/cpu-losses.txt
// RUN: paste %t/cpu-losses.txt %t/emu-losses.txt | awk '{ for (i = 1; i <= 2; ++i) { d = $(i + 2) - $i; if (d < 0) d = -d; if (d > 1e-5 * $i + 1e-7) exit 1 } }'
