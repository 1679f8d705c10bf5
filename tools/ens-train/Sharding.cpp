//===- Sharding.cpp - The members of one process --------------------------===//

#include "Sharding.h"

#include <cstring>

using namespace ens_train;

MemberShard MemberShard::of(int64_t members, int64_t ensembles, int rank,
                            int size) {
  MemberShard shard;
  shard.members = members;
  shard.ensembles = ensembles;
  shard.begin = members * rank / size;
  shard.end = members * (rank + 1) / size;
  return shard;
}

/// The bytes of one member's slice of `tensor`, which holds `slots`.
static size_t sliceBytes(const ens::Tensor &tensor, int64_t slots) {
  return tensor.byteSize() / slots;
}

ens::Tensor MemberShard::localize(const ens::Tensor &global) const {
  if (isWhole())
    return global;
  ens::TensorType type = global.type();
  type.shape[0] = ensembles * count();
  ens::Tensor local(type);
  const size_t bytes = sliceBytes(global, ensembles * members);
  for (int64_t k = 0; k < ensembles; ++k)
    std::memcpy(static_cast<char *>(local.data()) + k * count() * bytes,
                static_cast<const char *>(global.data()) +
                    (k * members + begin) * bytes,
                count() * bytes);
  return local;
}

std::vector<float>
MemberShard::localize(const std::vector<float> &global) const {
  std::vector<float> local;
  for (int64_t k = 0; k < ensembles; ++k)
    local.insert(local.end(), global.begin() + k * members + begin,
                 global.begin() + k * members + end);
  return local;
}

std::vector<float> MemberShard::globalize(const std::vector<float> &local,
                                          Communicator &comm) const {
  // A process with every member (alone, or under --data-parallel) has
  // nothing to gather.
  if (isWhole())
    return local;
  // Rank-major: rank r's K slices of its M_r members.
  std::vector<float> gathered = comm.allGather(local);
  std::vector<float> global(gathered.size());
  const int64_t width = gathered.size() / (ensembles * members);
  size_t at = 0;
  for (int r = 0; r < comm.size(); ++r) {
    MemberShard shard = of(members, ensembles, r, comm.size());
    for (int64_t k = 0; k < ensembles; ++k) {
      size_t values = shard.count() * width;
      std::copy_n(gathered.begin() + at, values,
                  global.begin() + (k * members + shard.begin) * width);
      at += values;
    }
  }
  return global;
}

ens::Tensor MemberShard::globalize(const ens::Tensor &local,
                                   Communicator &comm) const {
  if (isWhole())
    return local;
  const float *values = static_cast<const float *>(local.data());
  std::vector<float> global = globalize(
      std::vector<float>(values, values + local.type().numElements()), comm);
  ens::TensorType type = local.type();
  type.shape[0] = ensembles * members;
  ens::Tensor result(type);
  std::copy(global.begin(), global.end(), static_cast<float *>(result.data()));
  return result;
}

TrainState MemberShard::localize(const TrainState &global) const {
  TrainState local;
  local.step = global.step;
  for (auto [from, to] :
       {std::pair(&global.params, &local.params),
        std::pair(&global.m, &local.m), std::pair(&global.v, &local.v)})
    for (const ens::Tensor &tensor : *from)
      to->push_back(localize(tensor));
  local.learningRates = localize(global.learningRates);
  local.initialLoss = localize(global.initialLoss);
  // The curves are of all members, the same on every rank.
  local.curveMin = global.curveMin;
  local.curveMedian = global.curveMedian;
  local.curveMax = global.curveMax;
  local.accuracyCurve = global.accuracyCurve;
  if (const std::optional<EarlyStoppingState> &stopping = global.stopping) {
    EarlyStoppingState part;
    part.bestLoss = localize(stopping->bestLoss);
    part.bestEpoch = localize(stopping->bestEpoch);
    part.stoppedEpoch = localize(stopping->stoppedEpoch);
    for (const ens::Tensor &tensor : stopping->best)
      part.best.push_back(localize(tensor));
    local.stopping = std::move(part);
  }
  return local;
}

TrainState MemberShard::globalize(const TrainState &local,
                                  Communicator &comm) const {
  TrainState global;
  global.step = local.step;
  for (auto [from, to] :
       {std::pair(&local.params, &global.params),
        std::pair(&local.m, &global.m), std::pair(&local.v, &global.v)})
    for (const ens::Tensor &tensor : *from)
      to->push_back(globalize(tensor, comm));
  global.learningRates = globalize(local.learningRates, comm);
  global.initialLoss = globalize(local.initialLoss, comm);
  global.curveMin = local.curveMin;
  global.curveMedian = local.curveMedian;
  global.curveMax = local.curveMax;
  global.accuracyCurve = local.accuracyCurve;
  if (const std::optional<EarlyStoppingState> &stopping = local.stopping) {
    EarlyStoppingState whole;
    whole.bestLoss = globalize(stopping->bestLoss, comm);
    whole.bestEpoch = globalize(stopping->bestEpoch, comm);
    whole.stoppedEpoch = globalize(stopping->stoppedEpoch, comm);
    for (const ens::Tensor &tensor : stopping->best)
      whole.best.push_back(globalize(tensor, comm));
    global.stopping = std::move(whole);
  }
  return global;
}
