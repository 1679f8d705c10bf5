// REQUIRES: mpi
// mpirun -np P shares the members over P processes (docs/distributed.md).
// Every member's initialisation, shuffles and bootstrap sample come from
// its index, so the final parameters are the same, bit for bit, and so is
// the summary, whatever P is; a checkpoint holds every member, so a run
// of 2 processes resumes under 3 exactly.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: %mpirun -np 1 ens-train --model=%S/Inputs/open-batch.mlir --data=%t/long.npz --batch-size=100 --members=8 --epochs=3 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --plot= --print-losses --checkpoint=%t/np1 --checkpoint-every=0 > %t/np1.txt
// RUN: %mpirun -np 2 ens-train --model=%S/Inputs/open-batch.mlir --data=%t/long.npz --batch-size=100 --members=8 --epochs=3 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --plot= --print-losses --checkpoint=%t/np2 --checkpoint-every=0 > %t/np2.txt
// RUN: %mpirun -np 3 ens-train --model=%S/Inputs/open-batch.mlir --data=%t/long.npz --batch-size=100 --members=8 --epochs=3 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --plot= --print-losses --checkpoint=%t/np3 --checkpoint-every=0 > %t/np3.txt
// RUN: FileCheck %s --check-prefix=NP3 < %t/np3.txt
// NP3: ens-train: 8 members of {{.*}}open-batch.mlir
// NP3: 3 processes, each training 2 or so members of each ensemble
// NP3: members whose loss fell: 8 of 8
// RUN: %python %S/Inputs/same_state.py %t/np1 %t/np2
// RUN: %python %S/Inputs/same_state.py %t/np1 %t/np3
// The summary, but the lines of times and processes.
// RUN: grep -v -e 'compiled in' -e 'processes, each' -e '^trained' -e 'step ' %t/np1.txt > %t/np1-summary.txt
// RUN: grep -v -e 'compiled in' -e 'processes, each' -e '^trained' -e 'step ' %t/np3.txt > %t/np3-summary.txt
// RUN: diff %t/np1-summary.txt %t/np3-summary.txt
//
// Resuming a 2-process checkpoint with 3 processes continues as one
// process would.
// RUN: %mpirun -np 3 ens-train --resume=%t/np2 --epochs=2 --plot= --checkpoint=%t/np2-3 > /dev/null
// RUN: ens-train --resume=%t/np1 --epochs=2 --plot= --checkpoint=%t/np1-1 > /dev/null
// RUN: %python %S/Inputs/same_state.py %t/np1-1 %t/np2-3
//
// --data-parallel, for fewer members than processes: each process trains
// both members on half of every batch, and the gradients are averaged.
// Only the order of the sums differs from one process, so after 21 Adam
// steps every parameter and moment agrees within 1e-4 relative (1e-6
// absolute near zero); the largest relative difference here is about
// 4e-4 of a value near zero.
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --data=%t/long.npz --batch-size=100 --members=2 --epochs=3 --shuffle=member --plot= --checkpoint=%t/dp1 --checkpoint-every=0 > /dev/null
// RUN: %mpirun -np 2 ens-train --model=%S/Inputs/open-batch.mlir --data=%t/long.npz --batch-size=100 --members=2 --epochs=3 --shuffle=member --plot= --data-parallel --checkpoint=%t/dp2 --checkpoint-every=0 | FileCheck %s --check-prefix=DP
// DP: 2 processes, each training every member on a part of each batch
// DP: members whose loss fell: 2 of 2
// RUN: %python %S/Inputs/same_state.py %t/dp1 %t/dp2 1e-4 1e-6
// RUN: not %python %S/Inputs/same_state.py %t/dp1 %t/dp2
// RUN: not %mpirun -np 2 ens-train --members=2 --steps=1 --data-parallel --plot= 2>&1 | FileCheck %s --check-prefix=DP-FIXED
// DP-FIXED: ens-train: error: rank {{[01]}}: --data-parallel splits each batch over the processes, so examples/mlp.mlir (built in) must leave its batch open (`?`); x is tensor<256x64xf32>
// RUN: not %mpirun -np 3 ens-train --model=%S/Inputs/open-batch.mlir --data=%t/long.npz --batch-size=2 --members=2 --steps=1 --data-parallel --plot= 2>&1 | FileCheck %s --check-prefix=DP-ROWS
// DP-ROWS: ens-train: error: rank {{[0-2]}}: --data-parallel needs a batch of at least one row per process: the batch size is 2, and mpirun started 3 processes
//
// With --backend=cuda the processes on a machine share its GPUs out: each
// takes device (its rank on the machine) modulo the devices the driver
// sees. A stand-in driver with 2 devices (%fake_cuda) prints the device
// each of 3 processes asks for, then fails, after a pause that lets all
// three ask.
// RUN: env FAKE_CUDA_DEVICES=2 FAKE_CUDA_DELAY=5 LD_LIBRARY_PATH=%fake_cuda/no-device not %mpirun -x FAKE_CUDA_DEVICES -x FAKE_CUDA_DELAY -x LD_LIBRARY_PATH -np 3 ens-train --backend=cuda --steps=1 --members=3 --plot= > %t/devices.txt 2>&1
// RUN: grep 'fake cuda' %t/devices.txt | sort | FileCheck %s --check-prefix=DEVICES
// DEVICES:      fake cuda: cuDeviceGet(0)
// DEVICES-NEXT: fake cuda: cuDeviceGet(0)
// DEVICES-NEXT: fake cuda: cuDeviceGet(1)
// DEVICES-NOT:  fake cuda
//
// A process killed mid-run ends every process within 30 s, with mpirun's
// message.
// RUN: %python %S/Inputs/kill_rank.py 30 %mpirun -np 2 ens-train --model=%S/Inputs/open-batch.mlir --data=%t/long.npz --batch-size=100 --members=8 --epochs=1000000 --plot= | FileCheck %s --check-prefix=KILL
// KILL: ended {{[0-9.]+}} s after the kill, status {{[1-9][0-9]*}}
// KILL-NEXT: mpirun noticed that process rank 1 {{.*}} exited on signal 9 (Killed).
//
// Fewer members than processes is one error, and every process ends.
// RUN: not %mpirun -np 3 ens-train --members=2 --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=FEW
// FEW: ens-train: error: rank {{[0-2]}}: --members=2 is fewer than the 3 processes mpirun started: each needs a member, or give --data-parallel
