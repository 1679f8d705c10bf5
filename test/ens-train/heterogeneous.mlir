// A heterogeneous ensemble (issue #30): --model given three times trains a
// group of members per model, of different widths and depths, in ONE step
// program, each group exactly as a run of its model alone would train it.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
//
// The program: one function whose ens.vmap per group run side by side,
// each over its group's members, with the groups' symbols prefixed.
// RUN: ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --model=%S/Inputs/het-deep.mlir --members=3,2,4 --data=%t/long-targets0.csv --batch-size=64 --emit-ir > %t/ir.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/ir.mlir
// IR: func.func @g0_forward(
// IR: func.func @g1_forward(
// IR: func.func @g2_forward(
// IR-LABEL: func.func @ens_train_step(%g0_p0: tensor<3x64x8xf32>,
// IR: %r0:13 = ens.vmap @g0_ens_train_member_step(%g0_p0,
// IR: size = 3 : i64}
// IR: %r1:13 = ens.vmap @g1_ens_train_member_step(%g1_p0,
// IR: size = 2 : i64}
// IR: %r2:19 = ens.vmap @g2_ens_train_member_step(%g2_p0,
// IR: size = 4 : i64}
// IR: return %r0#0, {{.*}} %r2#18
//
// Per-member shuffles, bootstrap samples, a partial last batch and early
// stopping: each group's checkpoint (its parameters, moments, curves and
// early-stopping state) has the same bytes as a run of its model alone.
// RUN: ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --model=%S/Inputs/het-deep.mlir --members=3,2,4 --data=%t/long-targets0.csv --batch-size=64 --epochs=12 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --lr-min=0.01 --lr-max=0.1 --plot= --checkpoint=%t/all > %t/all.txt
// RUN: FileCheck %s --check-prefix=ALL < %t/all.txt
// ALL: ens-train: a heterogeneous ensemble of 9 members in 3 groups
// ALL-NEXT: group 0: 3 members of {{.*}}het-narrow.mlir, 4 parameters (538 values) per member
// ALL-NEXT: group 1: 2 members of {{.*}}het-wide.mlir, 4 parameters (2146 values) per member
// ALL-NEXT: group 2: 4 members of {{.*}}het-deep.mlir, 6 parameters (1346 values) per member
// ALL: group 0: 3 members of {{.*}}het-narrow.mlir
// ALL: member 1: best epoch 9, {{.*}} stopped after epoch 10
// ALL: group 1: 2 members of {{.*}}het-wide.mlir
// ALL: member 1: best epoch 8, {{.*}} stopped after epoch 9
// ALL: group 2: 4 members of {{.*}}het-deep.mlir
// ALL: member 3: best epoch 9, {{.*}} stopped after epoch 10
// ALL: wrote checkpoint {{.*}}all (a group per model
// RUN: ens-train --model=%S/Inputs/het-narrow.mlir --members=3 --data=%t/long-targets0.csv --batch-size=64 --epochs=12 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --lr-min=0.01 --lr-max=0.1 --plot= --checkpoint=%t/narrow > %t/narrow.txt
// RUN: ens-train --model=%S/Inputs/het-wide.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --epochs=12 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --lr-min=0.01 --lr-max=0.1 --plot= --checkpoint=%t/wide > %t/wide.txt
// RUN: ens-train --model=%S/Inputs/het-deep.mlir --members=4 --data=%t/long-targets0.csv --batch-size=64 --epochs=12 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --lr-min=0.01 --lr-max=0.1 --plot= --checkpoint=%t/deep > %t/deep.txt
// RUN: %python %S/Inputs/same_state.py %t/all/group-0 %t/narrow
// RUN: %python %S/Inputs/same_state.py %t/all/group-1 %t/wide
// RUN: %python %S/Inputs/same_state.py %t/all/group-2 %t/deep
// RUN: FileCheck %s --check-prefix=GROUPS < %t/all/groups.json
// GROUPS: "format": "ens-train groups"
// GROUPS: "members": 3,
// GROUPS-NEXT: "model": "{{.*}}het-narrow.mlir"
// GROUPS: "members": 4,
// GROUPS-NEXT: "model": "{{.*}}het-deep.mlir"
//
// predict averages over every member of every group: its `members` are the
// separate runs' members, group after group in the order of the --model
// flags, and `mean` and `std` are over all of them.
// RUN: ens-train predict --checkpoint=%t/all --data=%t/long-targets0.csv --out=%t/all.npz | FileCheck %s --check-prefix=PREDICT
// PREDICT: ens-train predict: a heterogeneous ensemble of 9 members (3 of {{.*}}het-narrow.mlir, 2 of {{.*}}het-wide.mlir, 4 of {{.*}}het-deep.mlir) on 704 rows
// PREDICT: RMSE of the ensemble mean
// RUN: ens-train predict --checkpoint=%t/narrow --data=%t/long-targets0.csv --out=%t/narrow.npz > %t/predict-narrow.txt
// RUN: ens-train predict --checkpoint=%t/wide --data=%t/long-targets0.csv --out=%t/wide.npz > %t/predict-wide.txt
// RUN: ens-train predict --checkpoint=%t/deep --data=%t/long-targets0.csv --out=%t/deep.npz > %t/predict-deep.txt
// RUN: %python %S/Inputs/same_predictions.py %t/all.npz %t/narrow.npz %t/wide.npz %t/deep.npz | FileCheck %s --check-prefix=SAME-PREDICTIONS
// SAME-PREDICTIONS: 9 members, the groups' in order
// RUN: not %python %S/Inputs/same_predictions.py %t/all.npz %t/narrow.npz %t/deep.npz %t/wide.npz
//
// Resuming: each group goes on from its checkpoint as its own run resumed
// would (its model from the checkpoint's copy; --model flags, if given,
// must be the same models in the same order).
// RUN: ens-train --resume=%t/all --epochs=2 --checkpoint=%t/all-more --plot= > %t/all-more.txt
// RUN: ens-train --resume=%t/narrow --epochs=2 --checkpoint=%t/narrow-more --plot= > %t/narrow-more.txt
// RUN: ens-train --resume=%t/deep --epochs=2 --checkpoint=%t/deep-more --plot= > %t/deep-more.txt
// RUN: %python %S/Inputs/same_state.py %t/all-more/group-0 %t/narrow-more
// RUN: %python %S/Inputs/same_state.py %t/all-more/group-2 %t/deep-more
// RUN: FileCheck %s --check-prefix=RESUMED < %t/all-more.txt
// RESUMED: resuming from {{.*}}all at step
// RESUMED: group 1 resuming at step
//
// One count for all models; on the emulated GPU, each group agrees with
// its own run within rounding.
// RUN: ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-deep.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --steps=6 --seed=3 --plot= --backend=cuda-emu --checkpoint=%t/emu > %t/emu.txt
// RUN: ens-train --model=%S/Inputs/het-narrow.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --steps=6 --seed=3 --plot= --backend=cuda-emu --checkpoint=%t/emu-narrow > %t/emu-narrow.txt
// RUN: ens-train --model=%S/Inputs/het-deep.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --steps=6 --seed=3 --plot= --backend=cuda-emu --checkpoint=%t/emu-deep > %t/emu-deep.txt
// RUN: %python %S/Inputs/same_state.py %t/emu/group-0 %t/emu-narrow 1e-5 1e-6
// RUN: %python %S/Inputs/same_state.py %t/emu/group-1 %t/emu-deep 1e-5 1e-6
//
// Bad input: one message each.
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --model=%S/Inputs/het-deep.mlir --members=8,8 --data=%t/long-targets0.csv --batch-size=64 2>&1 | FileCheck %s --check-prefix=COUNTS
// COUNTS: ens-train: error: --members=8,8 gives 2 counts for 3 --model flags: give one count for each model, or one for all
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --members=8,x 2>&1 | FileCheck %s --check-prefix=NOT-COUNTS
// NOT-COUNTS: ens-train: error: --members=8,x is not a whole number >= 0 or a list of them separated by commas
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --members=2,0 --data=%t/long-targets0.csv --batch-size=64 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: ens-train: error: --members gives 0 members for --model={{.*}}het-wide.mlir; every model needs at least 1
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/two-outputs.mlir --model=%S/Inputs/one-logit.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 2>&1 | FileCheck %s --check-prefix=FEATURES
// FEATURES: ens-train: error: --model={{.*}}one-logit.mlir has x tensor<?x4xf32>, but --model={{.*}}het-narrow.mlir has tensor<?x64xf32>: the models of a heterogeneous ensemble read the same batches and predict the same outputs
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-one-output.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 2>&1 | FileCheck %s --check-prefix=TARGETS
// TARGETS: ens-train: error: --model={{.*}}het-one-output.mlir has targets tensor<?x1xf32>, but --model={{.*}}het-narrow.mlir has tensor<?x2xf32>: the models of a heterogeneous ensemble read the same batches
// A checkpoint of other groups, or of other models, is refused.
// RUN: not ens-train --resume=%t/all --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-deep.mlir --model=%S/Inputs/het-wide.mlir --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=OTHER-MODEL
// OTHER-MODEL: ens-train: error: --model {{.*}}het-deep.mlir is not the model the checkpoint in {{.*}}all/group-1 was trained with; leave it out to resume with the checkpoint's own copy
// RUN: not ens-train --resume=%t/all --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=OTHER-COUNT
// OTHER-COUNT: ens-train: error: --resume={{.*}}all holds a heterogeneous ensemble of 3 models, but 2 --model flags were given: give them all, in order, or none
// RUN: not ens-train --resume=%t/all --members=3,2,5 --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=OTHER-MEMBERS
// OTHER-MEMBERS: ens-train: error: --members does not match the checkpoint in {{.*}}all/group-2 (4); leave it out when resuming
// RUN: not ens-train --resume=%t/narrow --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=RESUME-ONE
// RESUME-ONE: ens-train: error: --resume={{.*}}narrow holds the checkpoint of one model, not of a heterogeneous ensemble of 2 --model flags
// RUN: not ens-train --resume=%t/all/group-0/.. --model=%S/Inputs/het-narrow.mlir --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=ONE-OF-GROUPS
// ONE-OF-GROUPS: ens-train: error: --resume={{.*}} holds a heterogeneous ensemble of 3 models, but 1 --model flags were given
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --ensembles=2 2>&1 | FileCheck %s --check-prefix=ENSEMBLES
// ENSEMBLES: ens-train: error: --ensembles takes one --model: a heterogeneous ensemble trains one ensemble of every model
