// A checkpoint survives kill -9 at any moment: ens-train checkpoints after
// every step and is killed 20 times, at random moments of the loop and
// inside checkpoint writes; each time the next run resumes from what the
// kill left, never from an earlier step (see Inputs/kill_checkpoints.py).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/kill_checkpoints.py ens-train %t 20 | FileCheck %s
// CHECK: 20 kills, {{[1-9][0-9]*}} during a write; every one resumed
