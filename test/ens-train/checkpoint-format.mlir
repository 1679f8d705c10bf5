// A checkpoint directory holds generations and CURRENT, which names the
// committed one (see include/ens/Train/Checkpoint.h). Resuming takes CURRENT's
// generation, or, when CURRENT is missing or names none that validates, the
// newest generation that does; a commit removes everything it supersedes,
// and reads version-1 checkpoints.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-train --members=2 --steps=2 --checkpoint=%t/ck --plot= > /dev/null
// RUN: cp -r %t/ck %t/two
// RUN: ens-train --resume=%t/ck --steps=1 --plot= > /dev/null
// RUN: ls %t/ck | FileCheck %s --check-prefix=COMMITTED
// COMMITTED: CURRENT
// COMMITTED-NEXT: gen-000000000003-{{[0-9a-f]+$}}
// COMMITTED-NOT: {{.}}
//
// No CURRENT (a kill before the first commit, or a lost file): the newest
// complete generation.
// RUN: cp -r %t/ck %t/no-pointer && rm %t/no-pointer/CURRENT
// RUN: ens-train --resume=%t/no-pointer --steps=1 --plot= | FileCheck %s --check-prefix=NO-POINTER
// NO-POINTER: resuming from {{.*}}no-pointer at step 3
// NO-POINTER-NEXT: note: {{.*}}no-pointer/CURRENT is missing; took gen-000000000003-{{[0-9a-f]+}}, the newest complete generation
// NO-POINTER: wrote checkpoint {{.*}}no-pointer (step 4)
// RUN: ls %t/no-pointer | FileCheck %s --check-prefix=RECOMMITTED
// RECOMMITTED: CURRENT
// RECOMMITTED-NEXT: gen-000000000004-{{[0-9a-f]+$}}
// RECOMMITTED-NOT: {{.}}
//
// A CURRENT that names no generation, or is not a regular file.
// RUN: cp -r %t/ck %t/bad-pointer && echo ../../etc > %t/bad-pointer/CURRENT
// RUN: ens-train --resume=%t/bad-pointer --steps=0 --plot= | FileCheck %s --check-prefix=BAD-POINTER
// BAD-POINTER: note: {{.*}}bad-pointer/CURRENT does not name a generation; took gen-000000000003-{{[0-9a-f]+}}, the newest complete generation
// RUN: cp -r %t/ck %t/fifo-pointer && rm %t/fifo-pointer/CURRENT && mkfifo %t/fifo-pointer/CURRENT
// RUN: ens-train --resume=%t/fifo-pointer --steps=0 --plot= | FileCheck %s --check-prefix=FIFO-POINTER
// FIFO-POINTER: note: cannot read pointer {{.*}}fifo-pointer/CURRENT: not a regular file; took gen-000000000003-{{[0-9a-f]+}}, the newest complete generation
//
// CURRENT names a torn generation (its state cut short): the newest
// generation that validates, an older one, is taken.
// RUN: cp -r %t/two %t/torn && cp -r %t/ck/gen-* %t/torn/ && cp %t/ck/CURRENT %t/torn/
// RUN: truncate -s 1000 %t/torn/gen-000000000003-*/state.npz
// RUN: ens-train --resume=%t/torn --steps=1 --plot= | FileCheck %s --check-prefix=TORN
// TORN: resuming from {{.*}}torn at step 2
// TORN-NEXT: note: {{.*}}gen-000000000003-{{[0-9a-f]+}}/state.npz has 1000 bytes, but {{.*}}manifest.json records {{[0-9]+}}: the generation is incomplete or corrupt; took gen-000000000002-{{[0-9a-f]+}}, the newest complete generation
// With no other generation, the same is an error.
// RUN: rm -rf %t/torn && mkdir %t/torn && cp -r %t/ck/gen-* %t/ck/CURRENT %t/torn/
// RUN: truncate -s 1000 %t/torn/gen-*/state.npz
// RUN: not ens-train --resume=%t/torn 2>&1 | FileCheck %s --check-prefix=TORN-ONLY
// TORN-ONLY: {{^}}ens-train: error: cannot resume from {{.*}}torn: {{.*}}gen-000000000003-{{[0-9a-f]+}}/state.npz has 1000 bytes, but {{.*}}manifest.json records {{[0-9]+}}: the generation is incomplete or corrupt{{$}}
// RUN: mkdir %t/empty
// RUN: not ens-train --resume=%t/empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: {{^}}ens-train: error: cannot resume from {{.*}}empty: it holds no checkpoint (no CURRENT, no generation and no manifest.json){{$}}
//
// A commit removes an interrupted generation, temporary files and version
// 1's files, but never follows a link into another directory.
// RUN: cp -r %t/ck %t/stale && mkdir %t/stale/gen-000000000099-00ff %t/outside
// RUN: touch %t/stale/gen-000000000099-00ff/state.npz.tmp-1234 %t/stale/CURRENT.tmp-5678 %t/stale/state.npz.tmp42 %t/outside/kept
// RUN: ln -s %t/outside %t/stale/gen-000000000001-0001
// RUN: ens-train --resume=%t/stale --steps=1 --plot= > /dev/null
// RUN: ls %t/stale | FileCheck %s --check-prefix=STALE
// STALE: CURRENT
// STALE-NEXT: gen-000000000001-0001{{$}}
// STALE-NEXT: gen-000000000004-{{[0-9a-f]+$}}
// STALE-NOT: {{.}}
// RUN: ls %t/outside | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: kept
//
// Version 1: manifest.json and state.npz in place. It resumes, and its
// files are superseded by the first commit.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/v1 --legacy
// RUN: ens-train --resume=%t/v1 --steps=1 --plot= | FileCheck %s --check-prefix=V1
// V1: resuming from {{.*}}v1 at step 3
// V1-NOT: note:
// V1: wrote checkpoint {{.*}}v1 (step 4)
// RUN: ls %t/v1 | FileCheck %s --check-prefix=RECOMMITTED
//
// Resuming is exact across the formats: a version-1 copy of a checkpoint
// continues as the checkpoint does.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/two %t/two-v1 --legacy
// RUN: ens-train --resume=%t/two --steps=2 --print-losses --plot= | grep '^member ' > %t/v2-losses.txt
// RUN: ens-train --resume=%t/two-v1 --steps=2 --print-losses --plot= | grep '^member ' > %t/v1-losses.txt
// RUN: count 2 < %t/v1-losses.txt
// RUN: diff %t/v2-losses.txt %t/v1-losses.txt
