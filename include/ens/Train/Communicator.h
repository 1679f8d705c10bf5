//===- Communicator.h - The processes of a distributed run -----*- C++ -*-===//
//
// `mpirun -np P ens-train ...` shares the members out over P processes
// (docs/distributed.md). A Communicator is what ens-train needs of them:
// its rank, their number, and the collectives on host data. Under mpirun,
// and when ens is built with MPI, it is MPI_COMM_WORLD; otherwise it is one
// process, whose collectives are copies.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_COMMUNICATOR_H
#define ENS_TRAIN_COMMUNICATOR_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ens::train {

/// The processes that share a run's members.
class Communicator {
public:
  virtual ~Communicator();

  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// The rank among the processes on this machine.
  virtual int localRank() const = 0;
  bool isRoot() const { return rank() == 0; }

  /// Every rank's `local` values, concatenated in rank order, on every
  /// rank (MPI_Allgatherv).
  virtual std::vector<float> allGather(llvm::ArrayRef<float> local) = 0;
  /// Whether `value` is true on every rank (MPI_Allreduce with MPI_LAND).
  virtual bool allTrue(bool value) = 0;
  /// Ends every process of the run with exit status 1, after this one has
  /// printed `message` (MPI_Abort), so that a failure on one rank never
  /// leaves the others waiting in a collective.
  [[noreturn]] virtual void abort(const std::string &message) = 0;
};

/// The communicator of this process: MPI_COMM_WORLD when it was started by
/// mpirun (and ens-train is built with MPI, which it then initialises),
/// otherwise one process. Throws Failure when mpirun started several
/// processes of an ens-train built without MPI.
std::unique_ptr<Communicator> createCommunicator();

/// One process, whatever launched it: for a caller that trains in its own
/// process alone (the Python package).
std::unique_ptr<Communicator> createSingleProcess();

/// Whether this ens-train is built with MPI.
bool hasMpi();

} // namespace ens::train

#endif // ENS_TRAIN_COMMUNICATOR_H
