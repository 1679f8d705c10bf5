// ens-train's flags from issue #27: --init-from starts from given weights,
// --cpu-threads sets the cpu backend's threads, `predict --help` describes
// predict, and --epochs' help says what the code does.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: %python %S/Inputs/init_from.py write %t 3
//
// No step: the checkpoint holds exactly the weights given, one array for
// all members or one per member (the oracle reads both files itself).
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=0 --data=%t/long.npz --plot= --init-from=%t/shared.npz --checkpoint=%t/shared > /dev/null
// RUN: %python %S/Inputs/init_from.py check %t/shared/gen-*/state.npz %t/shared.npz 3
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=0 --data=%t/long.npz --plot= --init-from=%t/stacked.npz --checkpoint=%t/stacked > /dev/null
// RUN: %python %S/Inputs/init_from.py check %t/stacked/gen-*/state.npz %t/stacked.npz 3
// A step later the weights have moved from them, and the same on 1 and 2
// threads.
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=2 --data=%t/long.npz --plot= --init-from=%t/stacked.npz --cpu-threads=1 --checkpoint=%t/one > /dev/null
// RUN: not %python %S/Inputs/init_from.py check %t/one/gen-*/state.npz %t/stacked.npz 3
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=2 --data=%t/long.npz --plot= --init-from=%t/stacked.npz --cpu-threads=2 --print-losses > %t/two.txt
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=2 --data=%t/long.npz --plot= --init-from=%t/stacked.npz --cpu-threads=1 --print-losses > %t/one.txt
// RUN: grep '^member ' %t/one.txt > %t/one-losses.txt
// RUN: grep '^member ' %t/two.txt > %t/two-losses.txt
// RUN: diff %t/one-losses.txt %t/two-losses.txt
//
// Files that do not fit the model.
// RUN: not ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=1 --data=%t/long.npz --plot= --init-from=%t/wrong-shape.npz 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: {{^}}ens-train: error: --init-from {{.*}}wrong-shape.npz: 'b1' has shape [17]; the model's parameter is [16], or [3, 16] with one per member{{$}}
// RUN: not ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=1 --data=%t/long.npz --plot= --init-from=%t/missing.npz 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: {{^}}ens-train: error: --init-from {{.*}}missing.npz has no array 'w2' for the model's parameter of shape [16, 8]{{$}}
// RUN: not ens-train --model=%S/Inputs/open-batch.mlir --batch-size=128 --members=3 --steps=1 --data=%t/long.npz --plot= --init-from=%t/extra.npz 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: {{^}}ens-train: error: --init-from {{.*}}extra.npz holds 'w3', which is not a parameter of model {{.*}}open-batch.mlir{{$}}
// RUN: not ens-train --resume=%t/shared --init-from=%t/shared.npz 2>&1 | FileCheck %s --check-prefix=RESUME
// RESUME: {{^}}ens-train: error: --init-from starts a run; a resumed run continues from its checkpoint's weights{{$}}
//
// RUN: ens-train predict --help | FileCheck %s --check-prefix=PREDICT-HELP
// PREDICT-HELP: Predict with a trained ensemble
// PREDICT-HELP-NOT: --members
// PREDICT-HELP: --checkpoint
// PREDICT-HELP-NOT: --members
// RUN: ens-train --help | FileCheck %s --check-prefix=HELP
// HELP-DAG: --epochs=<uint>{{.*}}ceil(N / B) batches each
// HELP-DAG: --init-from=<file.npz>
// HELP-DAG: --cpu-threads=<uint>
