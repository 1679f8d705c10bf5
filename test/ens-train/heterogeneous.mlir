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
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --resume=%t/all 2>&1 | FileCheck %s --check-prefix=RESUME
// RESUME: ens-train: error: --resume takes a run of one --model: a heterogeneous ensemble cannot be resumed yet
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --members=3 --resume=%t/all 2>&1 | FileCheck %s --check-prefix=RESUME-ONE
// RESUME-ONE: ens-train: error: cannot resume from {{.*}}all: it holds a heterogeneous ensemble, a checkpoint per --model (groups.json), which cannot be resumed or predicted from yet
// RUN: not ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --ensembles=2 2>&1 | FileCheck %s --check-prefix=ENSEMBLES
// ENSEMBLES: ens-train: error: --ensembles takes one --model: a heterogeneous ensemble trains one ensemble of every model
