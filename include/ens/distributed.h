//===- distributed.h - Members across MPI processes -------------*- C++ -*-===//
//
// Part of the ens C++ API (ens.h) for applications that spread an
// ensemble's members over MPI processes, as `mpirun ens-train` does
// (docs/distributed.md): which members a process trains, and the gather of
// every process's members into one stacked tensor. Header-only, so that
// libens does not depend on MPI: include it where mpi.h is, and link MPI
// yourself (CMake: find_package(MPI), MPI::MPI_CXX or MPI::MPI_C).
//
//   ens::distributed::MemberRange mine = ens::distributed::memberRange(64);
//   // ... compile a vmap of size mine.count(), run it on members
//   // [mine.begin, mine.end) ...
//   ens::Tensor all = ens::distributed::allGatherMembers(local);
//
// For results that do not depend on the number of processes, derive each
// member's random streams from its index in the ensemble, not from its
// place in a process's vmap: initialise all members in every process
// (a small program) and keep your own, as ens-train does.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DISTRIBUTED_H
#define ENS_DISTRIBUTED_H

#include "ens/ens.h"

// MPI's C API only: OpenMPI's and MPICH's headers otherwise declare their
// deprecated C++ bindings, which need a library of their own.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ens::distributed {

/// The members [begin, end) of an ensemble that one process trains.
struct MemberRange {
  int64_t begin = 0, end = 0;
  int64_t count() const { return end - begin; }
};

/// Rank `rank` of `size`'s share of `members` members:
/// [floor(rank * members / size), floor((rank + 1) * members / size)), so
/// that the remainder spreads evenly (8 over 3: 2, 3 and 3).
inline MemberRange memberRange(int64_t members, int rank, int size) {
  return {members * rank / size, members * (rank + 1) / size};
}

/// This process's share of `members` members in `comm`.
inline MemberRange memberRange(int64_t members,
                               MPI_Comm comm = MPI_COMM_WORLD) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  return memberRange(members, rank, size);
}

/// Every process's `local` [M_r x ...], stacked in rank order, which is
/// member order for memberRange's shares: [M x ...] on every process
/// (MPI_Allgatherv). The trailing dimensions and the element type must
/// agree on every process; throws ens::Error if they do not, or if the
/// bytes are beyond what MPI's int counts.
inline Tensor allGatherMembers(const Tensor &local,
                               MPI_Comm comm = MPI_COMM_WORLD) {
  const TensorType &type = local.type();
  if (type.shape.empty())
    throw Error("allGatherMembers: a rank-0 tensor has no members");
  int size = 1;
  MPI_Comm_size(comm, &size);
  // Each process's leading size and its bytes per member, checked equal.
  int64_t rowBytes =
      type.shape[0] ? static_cast<int64_t>(local.byteSize()) / type.shape[0]
                    : -1;
  std::vector<int64_t> mine{type.shape[0], rowBytes}, all(2 * size);
  MPI_Allgather(mine.data(), 2, MPI_INT64_T, all.data(), 2, MPI_INT64_T, comm);
  int64_t members = 0, bytes = -1;
  for (int r = 0; r < size; ++r) {
    members += all[2 * r];
    if (all[2 * r + 1] < 0)
      continue;
    if (bytes >= 0 && all[2 * r + 1] != bytes)
      throw Error("allGatherMembers: the processes' members differ in size");
    bytes = all[2 * r + 1];
  }
  if (bytes < 0)
    bytes = 0;
  if (members * bytes > INT_MAX)
    throw Error("allGatherMembers: " + std::to_string(members * bytes) +
                " bytes are more than MPI's int counts");
  std::vector<int> counts(size), offsets(size);
  for (int r = 0, at = 0; r < size; ++r) {
    counts[r] = static_cast<int>(all[2 * r] * bytes);
    offsets[r] = at;
    at += counts[r];
  }
  TensorType gatheredType = type;
  gatheredType.shape[0] = members;
  Tensor gathered(gatheredType);
  MPI_Allgatherv(local.data(), static_cast<int>(local.byteSize()), MPI_BYTE,
                 gathered.data(), counts.data(), offsets.data(), MPI_BYTE,
                 comm);
  return gathered;
}

} // namespace ens::distributed

#endif // ENS_DISTRIBUTED_H
