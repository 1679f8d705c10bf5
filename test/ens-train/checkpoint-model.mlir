// A checkpoint embeds its model's text (issue #27): predict and resume use
// that copy, so that editing, moving or removing the model file changes
// nothing. Before, an edited file (tanh -> sigmoid) changed the predictions
// silently.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: cp %S/Inputs/open-batch.mlir %t/model.mlir
// RUN: ens-train --model=%t/model.mlir --batch-size=128 --members=2 --epochs=2 --data=%t/long.npz --plot= --checkpoint=%t/ck > /dev/null
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/before.npz > /dev/null
//
// The manifest holds the text, byte for byte.
// RUN: %python -c "import json, pathlib, sys; d = pathlib.Path(r'%t/ck'); m = json.loads((d / (d / 'CURRENT').read_text().strip() / 'manifest.json').read_text()); sys.exit(m['model_text'] != pathlib.Path(r'%t/model.mlir').read_text())"
//
// Edited: the same predictions, the bytes of the file too.
// RUN: sed -i 's/ens.tanh/ens.logistic/' %t/model.mlir
// RUN: grep -q ens.logistic %t/model.mlir
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/edited.npz > /dev/null
// RUN: cmp %t/before.npz %t/edited.npz
//
// Resuming with the edited file named is refused; without it, the run
// resumes from the checkpoint's copy.
// RUN: not ens-train --resume=%t/ck --model=%t/model.mlir --epochs=3 --plot= 2>&1 | FileCheck %s --check-prefix=EDITED
// EDITED: {{^}}ens-train: error: --model {{.*}}model.mlir is not the model the checkpoint in {{.*}}ck was trained with; leave it out to resume with the checkpoint's own copy{{$}}
//
// Removed: predicting and resuming still work.
// RUN: rm %t/model.mlir
// RUN: ens-train predict --checkpoint=%t/ck --data=%t/data.npz --out=%t/removed.npz > /dev/null
// RUN: cmp %t/before.npz %t/removed.npz
// RUN: ens-train --resume=%t/ck --epochs=3 --plot= | FileCheck %s --check-prefix=RESUMED
// RESUMED: resuming from {{.*}}ck at step 12
