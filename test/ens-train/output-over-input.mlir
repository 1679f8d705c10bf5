// An output path that names one of the run's inputs is refused before
// anything is written, compared by file identity, not by spelling
// (issue #25: --plot over --data or --model, and predict --out over
// --data, replaced the input).
//
// RUN: rm -rf %t && mkdir -p %t/sub
// RUN: %python %S/Inputs/make_data.py %t
// RUN: cp %S/Inputs/open-batch.mlir %t/model.mlir
// RUN: cp %t/model.mlir %t/model.orig && cp %t/data.npz %t/data.orig
//
// RUN: not ens-train --model=%t/model.mlir --data=%t/data.npz --epochs=1 --members=2 --batch-size=128 --plot=%t/sub/../model.mlir 2>&1 | FileCheck %s --check-prefix=PLOT-MODEL
// PLOT-MODEL: {{^}}ens-train: error: the plot {{.*}}sub/../model.mlir would replace the model {{.*}}model.mlir, the same file: write it elsewhere{{$}}
// RUN: ln -s data.npz %t/link.npz
// RUN: not ens-train --model=%t/model.mlir --data=%t/data.npz --epochs=1 --members=2 --batch-size=128 --plot=%t/link.npz 2>&1 | FileCheck %s --check-prefix=PLOT-DATA
// PLOT-DATA: {{^}}ens-train: error: the plot {{.*}}link.npz would replace the data {{.*}}data.npz, the same file: write it elsewhere{{$}}
// RUN: cmp %t/model.mlir %t/model.orig && cmp %t/data.npz %t/data.orig
//
// A plot elsewhere is written; predict's --out over its --data (a hard
// link) or over the checkpoint's state is refused.
// RUN: ens-train --model=%t/model.mlir --data=%t/data.npz --epochs=1 --members=2 --batch-size=128 --plot=%t/plot.svg --checkpoint=%t/ck > /dev/null
// RUN: ln %t/data.npz %t/hard.npz
// RUN: not ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/hard.npz 2>&1 | FileCheck %s --check-prefix=OUT-DATA
// OUT-DATA: {{^}}ens-train: error: the predictions {{.*}}hard.npz would replace the data {{.*}}data.npz, the same file: write it elsewhere{{$}}
// RUN: ln -s %t/ck/gen-* %t/generation
// RUN: not ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/generation/state.npz 2>&1 | FileCheck %s --check-prefix=OUT-STATE
// OUT-STATE: {{^}}ens-train: error: the predictions {{.*}}state.npz would replace the checkpoint state {{.*}}state.npz, the same file: write it elsewhere{{$}}
// RUN: cmp %t/data.npz %t/data.orig
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/pred.npz | FileCheck %s --check-prefix=PREDICT
// PREDICT: wrote {{.*}}pred.npz
