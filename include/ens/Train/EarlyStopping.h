//===- EarlyStopping.h - Per-member early stopping --------------*- C++ -*-===//
//
// --patience=P: after every epoch each member's loss on the validation set
// is compared with its best so far. A member whose loss has not improved
// for P epochs stops: from then on its parameters and Adam's moments are
// kept as they were (its update masked) while the others train on. At the
// end every member gets back the parameters of its best epoch.
//
// The state (each member's best loss, best epoch, the epoch it stopped in
// and its best parameters) is part of a checkpoint, so a resumed run stops
// the same members at the same epochs as an uninterrupted one.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_EARLYSTOPPING_H
#define ENS_TRAIN_EARLYSTOPPING_H

#include "ens/ens.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace ens::train {

/// What early stopping knows about every member.
struct EarlyStoppingState {
  /// Per member: its lowest validation loss (infinity before the first
  /// epoch), the epoch (from 1) that gave it (0: none yet), and the epoch
  /// it stopped after (0: still training). Epochs are whole floats.
  std::vector<float> bestLoss, bestEpoch, stoppedEpoch;
  /// The stacked parameters of every member's best epoch, in the order of
  /// Model::params.
  std::vector<ens::Tensor> best;

  /// The state of `members` members before any epoch, for `params`.
  static EarlyStoppingState start(int64_t members,
                                  const std::vector<ens::Tensor> &params);
  bool stopped(int64_t member) const { return stoppedEpoch[member] > 0; }
  bool allStopped() const;
};

/// Records the validation `losses` after `epoch` for the members' current
/// `params`, and stops the members that have not improved for `patience`
/// epochs. A NaN loss never improves.
void recordEpoch(EarlyStoppingState &state, int64_t epoch, int64_t patience,
                 const std::vector<float> &losses,
                 llvm::ArrayRef<ens::Tensor> params);

/// Copies member `member`'s slice of every stacked tensor of `from` into
/// the tensor of `to` in the same place.
void copyMember(llvm::ArrayRef<ens::Tensor> from,
                llvm::MutableArrayRef<ens::Tensor> to, int64_t member);

} // namespace ens::train

#endif // ENS_TRAIN_EARLYSTOPPING_H
