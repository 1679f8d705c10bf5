// --ensembles=K trains K independent ensembles in one program (a vmap over
// ensembles of a vmap over members), ensemble k on the k-th group of the
// data's target columns, with the same initialisation and batches as a
// separate run on those columns alone: each ensemble's members end with
// exactly the losses of that run.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
//
// The program: the state of all K*M members, [12 x ...], is viewed as
// [4 x 3 x ...] and the targets [B x 8] as [B x 4 x 2], and a vmap over the
// ensembles runs one ensemble's step.
// RUN: ens-train --model=%S/Inputs/two-outputs.mlir --ensembles=4 --members=3 --data=%t/long.csv --batch-size=64 --emit-ir | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @ens_train_ensemble_step(%p0: tensor<3x64x8xf32>,
// IR: ens.vmap @ens_train_member_step(
// IR: size = 3 : i64}
// IR-LABEL: func.func @ens_train_predict(
// IR: ens.vmap @forward(
// IR-NEXT: size = 12 : i64}
// IR-LABEL: func.func @ens_train_step(%p0: tensor<12x64x8xf32>,
// IR-SAME: %lr: tensor<12xf32>, %x: tensor<?x64xf32>, %targets: tensor<?x8xf32>)
// IR: %p0_view = ens.reshape %p0 : tensor<12x64x8xf32> -> tensor<4x3x64x8xf32>
// IR: %targets_view = ens.reshape %targets : tensor<?x8xf32> -> tensor<?x4x2xf32>
// IR: ens.vmap @ens_train_ensemble_step(
// IR-NEXT: {in_axes = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, 1>, {{.*}} size = 4 : i64}
// IR: %o0 = ens.reshape %e#0 : tensor<4x3x64x8xf32> -> tensor<12x64x8xf32>
//
// Four regressions of two targets each, one shuffle shared by all members.
// RUN: ens-train --model=%S/Inputs/two-outputs.mlir --ensembles=4 --members=3 --data=%t/long.csv --batch-size=64 --epochs=3 --shuffle=shared --plot= --print-losses --checkpoint=%t/ck --checkpoint-every=0 > %t/all.txt
// RUN: FileCheck %s --check-prefix=ALL < %t/all.txt
// ALL: ens-train: 4 ensembles of 3 members of {{.*}}two-outputs.mlir
// ALL: ensemble 3 member 2: lr 0.01 loss
// ALL: members whose loss fell: 12 of 12
// ALL: ensemble 0: training data: RMSE of the ensemble mean
// ALL: ensemble 3: training data: RMSE of the ensemble mean
// RUN: ens-train --model=%S/Inputs/two-outputs.mlir --members=3 --data=%t/long-targets0.csv --batch-size=64 --epochs=3 --shuffle=shared --plot= --print-losses > %t/one0.txt
// RUN: ens-train --model=%S/Inputs/two-outputs.mlir --members=3 --data=%t/long-targets1.csv --batch-size=64 --epochs=3 --shuffle=shared --plot= --print-losses > %t/one1.txt
// RUN: ens-train --model=%S/Inputs/two-outputs.mlir --members=3 --data=%t/long-targets2.csv --batch-size=64 --epochs=3 --shuffle=shared --plot= --print-losses > %t/one2.txt
// RUN: ens-train --model=%S/Inputs/two-outputs.mlir --members=3 --data=%t/long-targets3.csv --batch-size=64 --epochs=3 --shuffle=shared --plot= --print-losses > %t/one3.txt
// RUN: grep '^ensemble [0-9] member' %t/all.txt | sed 's/^ensemble [0-9] //' > %t/all-members.txt
// RUN: cat %t/one0.txt %t/one1.txt %t/one2.txt %t/one3.txt | grep '^member [0-9]: lr' > %t/one-members.txt
// RUN: count 12 < %t/one-members.txt
// RUN: diff %t/all-members.txt %t/one-members.txt
//
// Two classifications, each member on its own bootstrap sample, with early
// stopping: the per-member batches are shared by the ensembles.
// RUN: ens-train --task=classify --model=%S/Inputs/classifier.mlir --ensembles=2 --members=2 --data=%t/blobs-two.csv --batch-size=32 --epochs=3 --bootstrap --val-split=0.2 --patience=1 --plot= --print-losses --checkpoint=%t/cls --checkpoint-every=0 > %t/cls.txt
// RUN: ens-train --task=classify --model=%S/Inputs/classifier.mlir --members=2 --data=%t/blobs-shifted.csv --batch-size=32 --epochs=3 --bootstrap --val-split=0.2 --patience=1 --plot= --print-losses > %t/cls1.txt
// RUN: grep '^ensemble 1 member' %t/cls.txt | sed 's/^ensemble 1 //' > %t/cls-second.txt
// RUN: grep '^member [0-9]: ' %t/cls1.txt > %t/cls1-members.txt
// RUN: count 4 < %t/cls1-members.txt
// RUN: diff %t/cls-second.txt %t/cls1-members.txt
//
// predict gives each array a leading axis of ensembles, checked by @shapes
// below; the CSV prefixes ensemble k's columns with e<k>_.
// RUN: ens-train predict --checkpoint=%t/cls --data=%t/blobs-two.csv --out=%t/pred.npz | FileCheck %s --check-prefix=PREDICT
// PREDICT: ens-train predict: 2 ensembles of 2 members of {{.*}}classifier.mlir on 240 rows
// PREDICT-NEXT: ensemble 0: accuracy
// PREDICT-NEXT: ensemble 1: accuracy
// RUN: ens-run %s --entry=shapes --input=%t/pred.npz:probs --input=%t/pred.npz:entropy --input=%t/pred.npz:members
// RUN: ens-train predict --checkpoint=%t/cls --data=%t/blobs-two.csv --out=%t/pred.csv > /dev/null
// RUN: head -1 %t/pred.csv | FileCheck %s --check-prefix=HEADER
// HEADER: {{^}}e0_probs_0,e0_probs_1,e0_probs_2,e0_entropy,e0_member0_0,{{.*}},e0_member1_2,e1_probs_0,{{.*}},e1_member1_2{{$}}
//
// The regressions' checkpoint resumes, keeping its ensembles.
// RUN: ens-train --resume=%t/ck --steps=2 --plot= | FileCheck %s --check-prefix=RESUMED
// RESUMED: ens-train: 4 ensembles of 3 members
// RESUMED: resuming from {{.*}}ck at step 33
// RUN: not ens-train --resume=%t/ck --ensembles=2 --steps=1 2>&1 | FileCheck %s --check-prefix=RESUME-K
// RESUME-K: {{^}}ens-train: error: --ensembles does not match the checkpoint in {{.*}}ck (4); leave it out when resuming{{$}}
//
// Errors.
// RUN: not ens-train --ensembles=2 --steps=1 2>&1 | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: {{^}}ens-train: error: --ensembles needs --data with each ensemble's targets (the built-in problem has one set){{$}}
// RUN: not ens-train --ensembles=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: {{^}}ens-train: error: --ensembles must be at least 1 (got 0){{$}}
// RUN: not ens-train --model=%S/Inputs/two-outputs.mlir --ensembles=3 --data=%t/long.csv --batch-size=64 2>&1 | FileCheck %s --check-prefix=COLUMNS
// COLUMNS: {{^}}ens-train: error: data {{.*}}long.csv line 1 has 72 columns; expected 70 (64 of x, then 6 targets){{$}}
// RUN: not ens-train --ensembles=65536 --members=65536 2>&1 | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: {{^}}ens-train: error: --members times --ensembles must be at most 4294967295 (got 65536 and 65536){{$}}

func.func @shapes(%probs: tensor<2x240x3xf32>, %entropy: tensor<2x240xf32>,
                  %members: tensor<2x2x240x3xf32>) -> tensor<2x240xf32> {
  return %entropy : tensor<2x240xf32>
}
