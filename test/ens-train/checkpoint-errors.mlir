// Nothing a checkpoint holds is trusted: every manifest field and every
// array is checked for its type, its range and the model before use, and
// each bad value is one clear error (exit status 1, no crash). The
// checkpoints are forged from a real one by Inputs/forge_checkpoint.py;
// array changes use the version-1 format, whose state has no checksum to
// update, and which the same checks read.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-train --members=2 --steps=2 --checkpoint=%t/ck --plot= > /dev/null
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/same
// RUN: ens-train --resume=%t/same --steps=1 --plot= | FileCheck %s --check-prefix=SAME
// SAME: resuming from {{.*}}same at step 2
//
// Settings, as the flags would refuse them.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/members members=1000000000000
// RUN: not ens-train --resume=%t/members 2>&1 | FileCheck %s --check-prefix=MEMBERS
// MEMBERS: {{^}}ens-train: error: cannot resume from {{.*}}members: {{.*}}manifest.json: members must be a whole number from 1 to 4294967295 (got 1000000000000){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/members0 members=0
// RUN: not ens-train --resume=%t/members0 2>&1 | FileCheck %s --check-prefix=MEMBERS0
// MEMBERS0: {{^}}ens-train: error: cannot resume from {{.*}}members0: {{.*}}manifest.json: members must be a whole number from 1 to 4294967295 (got 0){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/members-text 'members="two"'
// RUN: not ens-train --resume=%t/members-text 2>&1 | FileCheck %s --check-prefix=MEMBERS-TEXT
// MEMBERS-TEXT: {{^}}ens-train: error: cannot resume from {{.*}}members-text: {{.*}}manifest.json: members must be a whole number from 1 to 4294967295 (got "two"){{$}}
// A valid but huge member count is refused by the memory estimate, before
// anything is allocated.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/members-many members=1000000
// RUN: (%limit_address_space && not ens-train --resume=%t/members-many 2>&1) | FileCheck %s --check-prefix=MEMBERS-MANY
// MEMBERS-MANY: {{^}}ens-train: error: training 1000000 members of examples/mlp.mlir (built in) needs at least
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/shuffle 'batching.shuffle="random"'
// RUN: not ens-train --resume=%t/shuffle 2>&1 | FileCheck %s --check-prefix=SHUFFLE
// SHUFFLE: {{^}}ens-train: error: cannot resume from {{.*}}shuffle: {{.*}}manifest.json: batching.shuffle is "random"; expected none, shared or member{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/bootstrap batching.bootstrap=1
// RUN: not ens-train --resume=%t/bootstrap 2>&1 | FileCheck %s --check-prefix=BOOTSTRAP
// BOOTSTRAP: {{^}}ens-train: error: cannot resume from {{.*}}bootstrap: {{.*}}manifest.json: batching.bootstrap must be true or false (got 1){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/batch-size batching.batch_size=-1
// RUN: not ens-train --resume=%t/batch-size 2>&1 | FileCheck %s --check-prefix=BATCH-SIZE
// BATCH-SIZE: {{^}}ens-train: error: cannot resume from {{.*}}batch-size: {{.*}}manifest.json: batching.batch_size must be a whole number from 0 to
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/batch-128 batching.batch_size=128
// RUN: not ens-train --resume=%t/batch-128 2>&1 | FileCheck %s --check-prefix=BATCH-128
// BATCH-128: {{^}}ens-train: error: the batch size, 128 (the checkpoint's), differs from the batch of examples/mlp.mlir (built in) (x is tensor<256x64xf32>); the two must be the same, or the model may leave its batch open (`?`){{$}}
// A checkpoint from before minibatches has no batching: it trained on the
// model's batch, in order, and resumes so.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/no-batching -batching
// RUN: ens-train --resume=%t/no-batching --steps=1 --plot= | FileCheck %s --check-prefix=NO-BATCHING
// NO-BATCHING: batches of 256 rows, 1 step per epoch, shuffle none{{$}}
// NO-BATCHING: resuming from {{.*}}no-batching at step 2
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/beta1 optimizer.beta1=5
// RUN: not ens-train --resume=%t/beta1 2>&1 | FileCheck %s --check-prefix=BETA1
// BETA1: {{^}}ens-train: error: cannot resume from {{.*}}beta1: {{.*}}manifest.json: optimizer.beta1 must be in [0, 1) (got 5){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/beta2 optimizer.beta2=1
// RUN: not ens-train --resume=%t/beta2 2>&1 | FileCheck %s --check-prefix=BETA2
// BETA2: {{^}}ens-train: error: cannot resume from {{.*}}beta2: {{.*}}manifest.json: optimizer.beta2 must be in [0, 1) (got 1){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/eps optimizer.eps=0
// RUN: not ens-train --resume=%t/eps 2>&1 | FileCheck %s --check-prefix=EPS
// EPS: {{^}}ens-train: error: cannot resume from {{.*}}eps: {{.*}}manifest.json: optimizer.eps must be positive and finite (got 0){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/decay optimizer.weight_decay=-1
// RUN: not ens-train --resume=%t/decay 2>&1 | FileCheck %s --check-prefix=DECAY
// DECAY: {{^}}ens-train: error: cannot resume from {{.*}}decay: {{.*}}manifest.json: optimizer.weight_decay must be finite and not negative (got -1){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/lr-min optimizer.lr_min=-1
// RUN: not ens-train --resume=%t/lr-min 2>&1 | FileCheck %s --check-prefix=LR-MIN
// LR-MIN: {{^}}ens-train: error: cannot resume from {{.*}}lr-min: {{.*}}manifest.json: learning rates must be positive and finite (got -1 and 0.01){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/lr-order optimizer.lr_min=0.5
// RUN: not ens-train --resume=%t/lr-order 2>&1 | FileCheck %s --check-prefix=LR-ORDER
// LR-ORDER: {{^}}ens-train: error: cannot resume from {{.*}}lr-order: {{.*}}manifest.json: optimizer.lr_min (0.5) must not exceed optimizer.lr_max (0.01){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/lr-text 'optimizer.lr_max="fast"'
// RUN: not ens-train --resume=%t/lr-text 2>&1 | FileCheck %s --check-prefix=LR-TEXT
// LR-TEXT: {{^}}ens-train: error: cannot resume from {{.*}}lr-text: {{.*}}manifest.json: optimizer.lr_max must be a number (got "fast"){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/no-eps -optimizer.eps
// RUN: not ens-train --resume=%t/no-eps 2>&1 | FileCheck %s --check-prefix=NO-EPS
// NO-EPS: {{^}}ens-train: error: cannot resume from {{.*}}no-eps: {{.*}}manifest.json: optimizer.eps is missing{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/sgd 'optimizer.name="sgd"'
// RUN: not ens-train --resume=%t/sgd 2>&1 | FileCheck %s --check-prefix=SGD
// SGD: {{^}}ens-train: error: cannot resume from {{.*}}sgd: {{.*}}manifest.json: it was trained with sgd, not adam{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/seed seed=-1
// RUN: not ens-train --resume=%t/seed 2>&1 | FileCheck %s --check-prefix=SEED
// SEED: {{^}}ens-train: error: cannot resume from {{.*}}seed: {{.*}}manifest.json: seed must be a whole number >= 0 (got -1){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/model model=5
// RUN: not ens-train --resume=%t/model 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: {{^}}ens-train: error: cannot resume from {{.*}}model: {{.*}}manifest.json: model must be a string (got 5){{$}}
//
// The step.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/step step=-1
// RUN: not ens-train --resume=%t/step 2>&1 | FileCheck %s --check-prefix=STEP
// STEP: {{^}}ens-train: error: cannot resume from {{.*}}step: {{.*}}manifest.json: step must be a whole number from 0 to 2147483647 (got -1){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/step-big step=3000000000
// RUN: not ens-train --resume=%t/step-big 2>&1 | FileCheck %s --check-prefix=STEP-BIG
// STEP-BIG: {{^}}ens-train: error: cannot resume from {{.*}}step-big: {{.*}}manifest.json: step must be a whole number from 0 to 2147483647 (got 3000000000){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/step-late step=2147483640
// RUN: not ens-train --resume=%t/step-late 2>&1 | FileCheck %s --check-prefix=STEP-LATE
// STEP-LATE: {{^}}ens-train: error: cannot resume from {{.*}}step-late: {{.*}}state.npz holds 'loss_curve' as tensor<2x3xf32>, expected tensor<2147483640x3xf32>{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/step-past
// RUN: not ens-train --resume=%t/step-past --steps=2147483647 2>&1 | FileCheck %s --check-prefix=STEP-PAST
// STEP-PAST: {{^}}ens-train: error: --steps=2147483647 would train past step 2147483647, the most a checkpoint holds{{$}}
//
// Paths: the state file must be a file of the generation's directory.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/up 'state="../state.npz"'
// RUN: not ens-train --resume=%t/up 2>&1 | FileCheck %s --check-prefix=UP
// UP: {{^}}ens-train: error: cannot resume from {{.*}}up: {{.*}}manifest.json: state must name a file in the checkpoint's directory (got "../state.npz"){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/absolute 'state="/etc/passwd"'
// RUN: not ens-train --resume=%t/absolute 2>&1 | FileCheck %s --check-prefix=ABSOLUTE
// ABSOLUTE: {{^}}ens-train: error: cannot resume from {{.*}}absolute: {{.*}}manifest.json: state must name a file in the checkpoint's directory (got "/etc/passwd"){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/subdir 'state="sub/state.npz"'
// RUN: not ens-train --resume=%t/subdir 2>&1 | FileCheck %s --check-prefix=SUBDIR
// SUBDIR: {{^}}ens-train: error: cannot resume from {{.*}}subdir: {{.*}}manifest.json: state must name a file in the checkpoint's directory (got "sub/state.npz"){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/dot 'state=".."'
// RUN: not ens-train --resume=%t/dot 2>&1 | FileCheck %s --check-prefix=DOT
// DOT: {{^}}ens-train: error: cannot resume from {{.*}}dot: {{.*}}manifest.json: state must name a file in the checkpoint's directory (got ".."){{$}}
//
// The format and the description of the state.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/version version=3
// RUN: not ens-train --resume=%t/version 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: {{^}}ens-train: error: cannot resume from {{.*}}version: {{.*}}manifest.json: version must be a whole number from 1 to 2 (got 3){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/format 'format="other"'
// RUN: not ens-train --resume=%t/format 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: {{^}}ens-train: error: cannot resume from {{.*}}format: {{.*}}manifest.json is not an ens-train checkpoint manifest{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/deep 'members~300000'
// RUN: not ens-train --resume=%t/deep 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: {{^}}ens-train: error: cannot resume from {{.*}}deep: {{.*}}manifest.json nests deeper than 16 levels{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/parameters parameters=5
// RUN: not ens-train --resume=%t/parameters 2>&1 | FileCheck %s --check-prefix=PARAMETERS
// PARAMETERS: {{^}}ens-train: error: cannot resume from {{.*}}parameters: {{.*}}manifest.json: parameters must be a list{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/twice 'parameters=[{"name":"w1","shape":[64,32]},{"name":"w1","shape":[32]},{"name":"w2","shape":[32,8]},{"name":"b2","shape":[8]}]'
// RUN: not ens-train --resume=%t/twice 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: {{^}}ens-train: error: cannot resume from {{.*}}twice: {{.*}}manifest.json: parameters name 'w1' twice{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/x 'x=[256,-1]'
// RUN: not ens-train --resume=%t/x 2>&1 | FileCheck %s --check-prefix=X
// X: {{^}}ens-train: error: cannot resume from {{.*}}x: {{.*}}manifest.json: x must be a shape, a list of at most 64 whole numbers >= 0 (or -1 first) (got [256,-1]){{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/arrays 'arrays.lr.shape=[3]'
// RUN: not ens-train --resume=%t/arrays 2>&1 | FileCheck %s --check-prefix=ARRAYS
// ARRAYS: {{^}}ens-train: error: cannot resume from {{.*}}arrays: {{.*}}manifest.json: its arrays do not describe {{.*}}state.npz{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/size state_bytes=12
// RUN: not ens-train --resume=%t/size 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: {{^}}ens-train: error: cannot resume from {{.*}}size: {{.*}}state.npz has {{[0-9]+}} bytes, but {{.*}}manifest.json records 12: the generation is incomplete or corrupt{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/checksum 'state_checksum="0000000000000000"'
// RUN: not ens-train --resume=%t/checksum 2>&1 | FileCheck %s --check-prefix=CHECKSUM
// CHECKSUM: {{^}}ens-train: error: cannot resume from {{.*}}checksum: {{.*}}state.npz does not match the checksum in {{.*}}manifest.json: it is corrupt{{$}}
//
// Arrays, in the version-1 format.
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/zero-steps --legacy '@step=<i4:0:0'
// RUN: not ens-train --resume=%t/zero-steps 2>&1 | FileCheck %s --check-prefix=ZERO-STEPS
// ZERO-STEPS: {{^}}ens-train: error: cannot resume from {{.*}}zero-steps: {{.*}}state.npz holds 'step' as tensor<0xi32>, expected tensor<i32>{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/step-f32 --legacy '@step=<f4::2'
// RUN: not ens-train --resume=%t/step-f32 2>&1 | FileCheck %s --check-prefix=STEP-F32
// STEP-F32: {{^}}ens-train: error: cannot resume from {{.*}}step-f32: {{.*}}state.npz holds 'step' as tensor<f32>, expected tensor<i32>{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/step-other --legacy '@step=<i4::7'
// RUN: not ens-train --resume=%t/step-other 2>&1 | FileCheck %s --check-prefix=STEP-OTHER
// STEP-OTHER: {{^}}ens-train: error: cannot resume from {{.*}}step-other: the checkpoint is inconsistent: {{.*}}state.npz is at step 7 but {{.*}}manifest.json at step 2{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/lr-rows --legacy '@lr=<f4:3:1'
// RUN: not ens-train --resume=%t/lr-rows 2>&1 | FileCheck %s --check-prefix=LR-ROWS
// LR-ROWS: {{^}}ens-train: error: cannot resume from {{.*}}lr-rows: {{.*}}state.npz holds 'lr' as tensor<3xf32>, expected tensor<2xf32>{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/lr-negative --legacy '@lr=<f4:2:-1'
// RUN: not ens-train --resume=%t/lr-negative 2>&1 | FileCheck %s --check-prefix=LR-NEGATIVE
// LR-NEGATIVE: {{^}}ens-train: error: cannot resume from {{.*}}lr-negative: {{.*}}state.npz holds a learning rate that is not positive and finite{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/v-negative --legacy '@v_b1=<f4:2x32:-1'
// RUN: not ens-train --resume=%t/v-negative 2>&1 | FileCheck %s --check-prefix=V-NEGATIVE
// V-NEGATIVE: {{^}}ens-train: error: cannot resume from {{.*}}v-negative: {{.*}}state.npz holds a negative second moment in 'v_b1'{{$}}
// RUN: %python %S/Inputs/forge_checkpoint.py %t/ck %t/w1 --legacy '@w1=<f4:2x64x31:0'
// RUN: not ens-train --resume=%t/w1 2>&1 | FileCheck %s --check-prefix=W1
// W1: {{^}}ens-train: error: cannot resume from {{.*}}w1: {{.*}}state.npz holds 'w1' as tensor<2x64x31xf32>, expected tensor<2x64x32xf32>{{$}}
