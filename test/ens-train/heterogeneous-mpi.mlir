// REQUIRES: mpi
// A heterogeneous ensemble under mpirun (test/ens-train/heterogeneous.mlir):
// each process trains its share of every group's members, and every group
// ends with the same bytes as a run of its model alone in one process.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: %mpirun -np 2 ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --model=%S/Inputs/het-deep.mlir --members=3,2,4 --data=%t/long-targets0.csv --batch-size=64 --epochs=3 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --plot= --checkpoint=%t/np2 > %t/np2.txt
// RUN: FileCheck %s < %t/np2.txt
// CHECK: ens-train: a heterogeneous ensemble of 9 members in 3 groups
// CHECK: 2 processes, each training 1 or so members of each group
// RUN: ens-train --model=%S/Inputs/het-narrow.mlir --members=3 --data=%t/long-targets0.csv --batch-size=64 --epochs=3 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --plot= --checkpoint=%t/narrow > %t/narrow.txt
// RUN: ens-train --model=%S/Inputs/het-wide.mlir --members=2 --data=%t/long-targets0.csv --batch-size=64 --epochs=3 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --plot= --checkpoint=%t/wide > %t/wide.txt
// RUN: ens-train --model=%S/Inputs/het-deep.mlir --members=4 --data=%t/long-targets0.csv --batch-size=64 --epochs=3 --shuffle=member --bootstrap --val-split=0.2 --patience=1 --seed=5 --plot= --checkpoint=%t/deep > %t/deep.txt
// RUN: %python %S/Inputs/same_state.py %t/np2/group-0 %t/narrow
// RUN: %python %S/Inputs/same_state.py %t/np2/group-1 %t/wide
// RUN: %python %S/Inputs/same_state.py %t/np2/group-2 %t/deep
//
// Every group needs a member per process.
// RUN: not %mpirun -np 3 ens-train --model=%S/Inputs/het-narrow.mlir --model=%S/Inputs/het-wide.mlir --members=3,2 --data=%t/long-targets0.csv --batch-size=64 --steps=1 --plot= > %t/few.txt 2>&1
// RUN: FileCheck %s --check-prefix=FEW < %t/few.txt
// FEW: ens-train: error: rank {{[0-9]}}: --model={{.*}}het-wide.mlir has 2 members, fewer than the 3 processes mpirun started: each process trains a share of every group's members
