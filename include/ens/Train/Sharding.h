//===- Sharding.h - The members of one process ------------------*- C++ -*-===//
//
// Under `mpirun -np P`, rank r trains members [r*M/P, (r+1)*M/P) of each
// ensemble (rounded down, so that the remainder spreads evenly): a
// MemberShard. Everything random about a member (its initialisation, its
// shuffles, its bootstrap sample) is a function of its index in its
// ensemble, so a member trains the same whatever P is.
//
// A run's state exists in two forms: local, the rank's members (K
// ensembles of its M_r members each, member i of ensemble k at k*M_r + i),
// which it trains; and global, all K*M members, which checkpoints,
// summaries and predictions use. localize() takes a rank's members out of
// the global form; globalize() gathers every rank's into it.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_SHARDING_H
#define ENS_TRAIN_SHARDING_H

#include "ens/Train/Checkpoint.h"
#include "ens/Train/Communicator.h"

#include "ens/ens.h"

#include <cstdint>
#include <vector>

namespace ens::train {

/// Rows [begin, end) of each of the `outer` blocks of `rows` rows that
/// `tensor` holds (row-major), as a tensor of `type`: a process's members
/// of each ensemble, or its part of every member's batch.
ens::Tensor takeRowsOfBlocks(const ens::Tensor &tensor, int64_t outer,
                             int64_t rows, int64_t begin, int64_t end,
                             ens::TensorType type);

/// The members of one rank: [begin, end) of each of `ensembles` ensembles
/// of `members`.
struct MemberShard {
  int64_t members = 1, ensembles = 1, begin = 0, end = 1;

  /// Rank `rank`'s share of `ensembles` ensembles of `members` over `size`
  /// ranks.
  static MemberShard of(int64_t members, int64_t ensembles, int rank, int size);

  /// The rank's members per ensemble.
  int64_t count() const { return end - begin; }
  /// Whether the rank has every member.
  bool isWhole() const { return count() == members; }

  /// The rank's slices of a global per-member tensor [K*M x ...] or vector
  /// [K*M]: [K*M_r x ...].
  ens::Tensor localize(const ens::Tensor &global) const;
  std::vector<float> localize(const std::vector<float> &global) const;
  TrainState localize(const TrainState &global) const;

  /// Every rank's `local` slices, gathered in the global order on every
  /// rank.
  ens::Tensor globalize(const ens::Tensor &local, Communicator &comm) const;
  std::vector<float> globalize(const std::vector<float> &local,
                               Communicator &comm) const;
  TrainState globalize(const TrainState &local, Communicator &comm) const;
};

} // namespace ens::train

#endif // ENS_TRAIN_SHARDING_H
