//===- EarlyStopping.cpp - Per-member early stopping ----------------------===//

#include "ens/Train/EarlyStopping.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ens::train;

EarlyStoppingState
EarlyStoppingState::start(int64_t members,
                          const std::vector<ens::Tensor> &params) {
  EarlyStoppingState state;
  state.bestLoss.assign(members, std::numeric_limits<float>::infinity());
  state.bestEpoch.assign(members, 0);
  state.stoppedEpoch.assign(members, 0);
  state.best = params;
  return state;
}

bool EarlyStoppingState::allStopped() const {
  return std::all_of(stoppedEpoch.begin(), stoppedEpoch.end(),
                     [](float epoch) { return epoch > 0; });
}

void ens::train::copyMember(llvm::ArrayRef<ens::Tensor> from,
                            llvm::MutableArrayRef<ens::Tensor> to,
                            int64_t member) {
  for (size_t i = 0; i < from.size(); ++i) {
    int64_t members = from[i].type().shape.front();
    size_t bytes = from[i].byteSize() / members;
    std::copy_n(static_cast<const char *>(from[i].data()) + member * bytes,
                bytes, static_cast<char *>(to[i].data()) + member * bytes);
  }
}

void ens::train::recordEpoch(EarlyStoppingState &state, int64_t epoch,
                             int64_t patience, const std::vector<float> &losses,
                             llvm::ArrayRef<ens::Tensor> params) {
  for (size_t member = 0; member < losses.size(); ++member) {
    if (state.stopped(member))
      continue;
    if (losses[member] < state.bestLoss[member]) {
      state.bestLoss[member] = losses[member];
      state.bestEpoch[member] = epoch;
      copyMember(params, state.best, member);
    } else if (epoch - state.bestEpoch[member] >= patience) {
      state.stoppedEpoch[member] = epoch;
    }
  }
}
