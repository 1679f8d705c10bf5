// ens-train --task=classify: a model that returns logits and has no @loss
// trains on the standard library's softmax cross-entropy, with integer
// labels (here int64, NumPy's default) on a separable synthetic set
// (make_data.py's blobs: 3 classes around the axes of a 4-D space).
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --task=classify --model=%S/Inputs/classifier.mlir --data=%t/blobs.npz --batch-size=32 --epochs=20 --members=4 --lr=0.01 --plot=%t/plot.svg --checkpoint=%t/ck --checkpoint-every=0 | FileCheck %s --check-prefix=TRAIN
// TRAIN: data: {{.*}}blobs.npz, 240 rows
// TRAIN: members whose loss fell: 4 of 4
// Accuracy of at least 95%, for the ensemble and for the members.
// TRAIN: training data: accuracy {{(9[5-9](\.[0-9]+)?|100)}}% (members' mean {{(9[5-9](\.[0-9]+)?|100)}}%), NLL {{[0-9.e-]+}}, ECE {{[0-9.e-]+}}, Brier {{[0-9.e-]+}}
//
// The plot is a reliability diagram and the NLL curves.
// RUN: FileCheck %s --check-prefix=PLOT < %t/plot.svg
// PLOT: reliability: accuracy per bin of confidence
// PLOT: training NLL over members
// PLOT: ensemble accuracy per epoch
//
// The checkpoint keeps the accuracy per epoch for the plot of a resumed
// run; a forged one is refused.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/acc-range --legacy '@accuracy_curve=<f4:20:2'
// RUN: not ens-train --resume=%t/acc-range --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=ACC-RANGE
// ACC-RANGE: {{^}}ens-train: error: cannot resume from {{.*}}acc-range: {{.*}}state.npz holds an accuracy outside [0, 1] in 'accuracy_curve'{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/acc-long --legacy '@accuracy_curve=<f4:161:0.5'
// RUN: not ens-train --resume=%t/acc-long --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=ACC-LONG
// ACC-LONG: {{^}}ens-train: error: cannot resume from {{.*}}acc-long: {{.*}}state.npz holds 'accuracy_curve' as tensor<161xf32>, expected f32 [E] with E <= 160{{$}}
//
// Validation metrics too, with a split.
// RUN: ens-train --task=classify --model=%S/Inputs/classifier.mlir --data=%t/blobs.csv --batch-size=32 --epochs=2 --members=2 --val-split=0.25 --plot= | FileCheck %s --check-prefix=VAL
// VAL: training data: accuracy
// VAL-NEXT: validation data: accuracy
//
// predict writes the ensemble's probabilities, their entropy and each
// member's logits; they are checked against @reference below, run on the
// interpreter from the checkpoint's parameters.
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/blobs.npz --out=%t/pred.npz | FileCheck %s --check-prefix=PREDICT
// PREDICT: ens-train predict: 4 members of {{.*}}classifier.mlir on 240 rows of {{.*}}blobs.npz
// PREDICT-NEXT: accuracy {{(9[5-9](\.[0-9]+)?|100)}}%
// RUN: cp %t/ck/gen-*/state.npz %t/state.npz
// RUN: ens-run %s --entry=reference --input=%t/blobs.npz:x --input=%t/state.npz:w1 --input=%t/state.npz:b1 --input=%t/state.npz:w2 --input=%t/state.npz:b2 --output-dir=%t/ref
// RUN: ens-run %s --entry=same --input=%t/pred.npz:members --input=%t/pred.npz:probs --input=%t/pred.npz:entropy --rtol=1e-5 --atol=1e-6 --expect=%t/ref/out0.npy --expect=%t/ref/out1.npy --expect=%t/ref/out2.npy
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/blobs.csv --out=%t/pred.csv > /dev/null
// RUN: head -1 %t/pred.csv | FileCheck %s --check-prefix=HEADER
// HEADER: {{^}}probs_0,probs_1,probs_2,entropy,member0_0,member0_1,member0_2,member1_0,{{.*}},member3_2{{$}}
//
// The backends agree (two steps, as backends.mlir does for a regression).
// RUN: ens-train --task=classify --model=%S/Inputs/classifier.mlir --data=%t/blobs.npz --batch-size=50 --steps=2 --members=2 --plot= --print-losses --backend=cpu > %t/cpu.txt
// RUN: ens-train --task=classify --model=%S/Inputs/classifier.mlir --data=%t/blobs.npz --batch-size=50 --steps=2 --members=2 --plot= --print-losses --backend=cuda-emu > %t/emu.txt
// RUN: grep '^member ' %t/cpu.txt | awk '{ print $6 }' > %t/cpu-losses.txt
// RUN: grep '^member ' %t/emu.txt | awk '{ print $6 }' > %t/emu-losses.txt
// RUN: count 2 < %t/cpu-losses.txt
// RUN: paste %t/cpu-losses.txt %t/emu-losses.txt | awk '{ d = $2 - $1; if (d < 0) d = -d; if (d > 1e-5 * $1 + 1e-7) exit 1 }'
//
// Bad labels and models, each one clear error.
// RUN: not ens-train --task=classify --model=%S/Inputs/classifier.mlir --data=%t/blobs-label3.csv --batch-size=32 2>&1 | FileCheck %s --check-prefix=LABEL3
// LABEL3: {{^}}ens-train: error: data {{.*}}blobs-label3.csv has label 3 at row 7 (counting from 1); the model's @forward returns the logits of 3 classes, so labels must be integers in [0, 3){{$}}
// RUN: not ens-train --task=classify --model=%S/Inputs/classifier.mlir --data=%t/blobs-label-half.csv --batch-size=32 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: {{^}}ens-train: error: data {{.*}}blobs-label-half.csv has label 1.5 at row 7 (counting from 1)
// RUN: not ens-train --task=classify --data=%t/blobs.csv 2>&1 | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: {{^}}ens-train: error: --task=classify needs --model, a classifier returning logits, and --data with integer class labels (the built-in model and problem are a regression){{$}}
// RUN: not ens-train --task=classify --model=%S/Inputs/one-logit.mlir --data=%t/blobs.csv --batch-size=32 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: {{^}}ens-train: error: model {{.*}}one-logit.mlir: with --task=classify, @forward returns the logits of each class, at least 2; it returns tensor<?x1xf32>{{$}}
// A regression's @loss takes f32 targets, not labels.
// RUN: not ens-train --task=classify --model=%S/Inputs/open-batch.mlir --data=%t/blobs.csv --batch-size=32 2>&1 | FileCheck %s --check-prefix=LOSS
// LOSS: {{^}}ens-train: error: model {{.*}}open-batch.mlir: @loss must take @forward's arguments, then the labels, and return the loss: ({{.*}}, tensor<?xi32>) -> (tensor<f32>); it is
// RUN: not ens-train --task=multi 2>&1 | FileCheck %s --check-prefix=TASK
// TASK: {{^}}ens-train: error: --task=multi is not regress or classify{{$}}
// Resuming keeps the task.
// RUN: not ens-train --resume=%t/ck --task=regress --steps=1 2>&1 | FileCheck %s --check-prefix=RESUME
// RUN: ens-train --resume=%t/ck --steps=1 --plot= | FileCheck %s --check-prefix=RESUMED
// RESUME: {{^}}ens-train: error: --task does not match the checkpoint in {{.*}}ck ("classify"); leave it out when resuming{{$}}
// RESUMED: training data: accuracy

// One member of Inputs/classifier.mlir, written for the 240 rows.
func.func @forward(%x: tensor<240x4xf32>, %w1: tensor<4x16xf32>, %b1: tensor<16xf32>,
                   %w2: tensor<16x3xf32>, %b2: tensor<3xf32>) -> tensor<240x3xf32> {
  %0 = ens.matmul %x, %w1 : tensor<240x4xf32>, tensor<4x16xf32> -> tensor<240x16xf32>
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : tensor<16xf32> -> tensor<240x16xf32>
  %2 = ens.add %0, %1 : tensor<240x16xf32>
  %h = ens.tanh %2 : tensor<240x16xf32>
  %3 = ens.matmul %h, %w2 : tensor<240x16xf32>, tensor<16x3xf32> -> tensor<240x3xf32>
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : tensor<3xf32> -> tensor<240x3xf32>
  %y = ens.add %3, %4 : tensor<240x3xf32>
  return %y : tensor<240x3xf32>
}

// Every member's logits, the mean of their softmax, and its entropy.
func.func @reference(%x: tensor<240x4xf32>, %w1: tensor<4x4x16xf32>, %b1: tensor<4x16xf32>,
                     %w2: tensor<4x16x3xf32>, %b2: tensor<4x3xf32>)
    -> (tensor<4x240x3xf32>, tensor<240x3xf32>, tensor<240xf32>) {
  %z = ens.vmap @forward(%x, %w1, %b1, %w2, %b2) {in_axes = array<i64: -1, 0, 0, 0, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<240x4xf32>, tensor<4x4x16xf32>, tensor<4x16xf32>, tensor<4x16x3xf32>, tensor<4x3xf32>) -> tensor<4x240x3xf32>
  %p = ens.softmax %z {dim = 2 : i64} : tensor<4x240x3xf32>
  %mean = ens.reduce_mean %p {dims = array<i64: 0>} : tensor<4x240x3xf32> -> tensor<240x3xf32>
  %log = ens.log %mean : tensor<240x3xf32>
  %plogp = ens.mul %mean, %log : tensor<240x3xf32>
  %sum = ens.reduce_sum %plogp {dims = array<i64: 1>} : tensor<240x3xf32> -> tensor<240xf32>
  %entropy = ens.neg %sum : tensor<240xf32>
  return %z, %mean, %entropy : tensor<4x240x3xf32>, tensor<240x3xf32>, tensor<240xf32>
}

// Its arguments, to compare them with --expect.
func.func @same(%a: tensor<4x240x3xf32>, %b: tensor<240x3xf32>, %c: tensor<240xf32>)
    -> (tensor<4x240x3xf32>, tensor<240x3xf32>, tensor<240xf32>) {
  return %a, %b, %c : tensor<4x240x3xf32>, tensor<240x3xf32>, tensor<240xf32>
}
