// When a checkpoint cannot be written (here a file-size limit, which fails
// writes as a full disk does: ens-train ignores SIGXFSZ, so the write
// returns EFBIG), ens-train says so and exits with status 1, and the
// checkpoint directory keeps the previous generation byte for byte, with
// nothing half-written beside it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-train --members=2 --steps=2 --checkpoint=%t/ck --plot= > /dev/null
// RUN: cp -r %t/ck %t/before
//
// The final checkpoint.
// RUN: (ulimit -f 16 && not ens-train --resume=%t/ck --steps=3 --checkpoint-every=0 --plot= 2>&1) | FileCheck %s --check-prefix=FINAL
// FINAL: {{^}}ens-train: error: cannot write the checkpoint of step 5 to {{.*}}ck: cannot write state {{.*}}ck/gen-000000000005-{{[0-9a-f]+}}/state.npz: File too large; {{.*}}ck keeps the checkpoint of step 2{{$}}
// RUN: diff -r %t/before %t/ck
//
// A checkpoint during training.
// RUN: (ulimit -f 16 && not ens-train --resume=%t/ck --steps=3 --checkpoint-every=1 --plot= 2>&1) | FileCheck %s --check-prefix=DURING
// DURING: {{^}}ens-train: error: cannot write the checkpoint of step 3 to {{.*}}ck: cannot write state {{.*}}state.npz: File too large; {{.*}}ck keeps the checkpoint of step 2{{$}}
// RUN: diff -r %t/before %t/ck
//
// A first checkpoint, with none before it.
// RUN: (ulimit -f 16 && not ens-train --members=2 --steps=1 --checkpoint=%t/new --plot= 2>&1) | FileCheck %s --check-prefix=FIRST
// FIRST: {{^}}ens-train: error: cannot write the checkpoint of step 1 to {{.*}}new: cannot write state {{.*}}state.npz: File too large{{$}}
// RUN: ls -A %t/new | count 0
//
// The plot, written the same way.
// RUN: echo previous > %t/plot.svg
// RUN: (ulimit -f 4 && not ens-train --members=2 --steps=1 --plot=%t/plot.svg 2>&1) | FileCheck %s --check-prefix=PLOT
// PLOT: {{^}}ens-train: error: cannot write plot {{.*}}plot.svg: File too large{{$}}
// RUN: echo previous | cmp - %t/plot.svg
// RUN: ls %t | FileCheck %s --check-prefix=LEFT --implicit-check-not=tmp
// LEFT: plot.svg
//
// Then, with room, the resumed run writes its checkpoint.
// RUN: ens-train --resume=%t/ck --steps=3 --plot= | FileCheck %s --check-prefix=ROOM
// ROOM: wrote checkpoint {{.*}}ck (step 5)
