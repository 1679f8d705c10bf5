//===- DataParallel.h - One member's batch over processes -------*- C++ -*-===//
//
// `--data-parallel` under `mpirun -np P`, for members fewer than processes:
// every process holds every member, and each step's batch of B rows is
// split over the processes, rank r taking rows [r*B/P, (r+1)*B/P) of each
// member's batch. Each computes its members' losses and gradients on its
// rows (@ens_train_grads); the gradients are averaged, weighted by the
// rows, in rank order on every process (so every process gets the same
// bits); and every process applies the same Adam update
// (@ens_train_update). This is DDP's scheme. The average of the parts'
// mean losses is the whole batch's mean loss, so the step equals a single
// process's up to the order of the sums (docs/distributed.md states the
// tolerance).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_DATAPARALLEL_H
#define ENS_TRAIN_DATAPARALLEL_H

#include "ens/Train/Communicator.h"
#include "ens/Train/Evaluation.h"

#include "ens/ens.h"

#include <vector>

namespace ens::train {

/// One data-parallel step of `programs`' members on `args`, the step
/// program's arguments (parameters, moments, the step, the learning rates,
/// x, targets); returns what the step program would (the parameters and
/// moments after it, then the members' losses).
std::vector<ens::Tensor>
runDataParallelStep(Programs &programs, Communicator &comm,
                    const std::vector<ens::Tensor> &args);

} // namespace ens::train

#endif // ENS_TRAIN_DATAPARALLEL_H
