//===- Sharding.cpp - The members of one process --------------------------===//

#include "ens/Train/Sharding.h"

#include <cstring>

using namespace ens::train;

ens::Tensor ens::train::takeRowsOfBlocks(const ens::Tensor &tensor,
                                         int64_t outer, int64_t rows,
                                         int64_t begin, int64_t end,
                                         ens::TensorType type) {
  const size_t rowBytes = tensor.byteSize() / (outer * rows);
  ens::Tensor part(std::move(type));
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(static_cast<char *>(part.data()) + o * (end - begin) * rowBytes,
                static_cast<const char *>(tensor.data()) +
                    (o * rows + begin) * rowBytes,
                (end - begin) * rowBytes);
  return part;
}

MemberShard MemberShard::of(int64_t members, int64_t ensembles, int rank,
                            int size) {
  MemberShard shard;
  shard.members = members;
  shard.ensembles = ensembles;
  shard.begin = members * rank / size;
  shard.end = members * (rank + 1) / size;
  return shard;
}

ens::Tensor MemberShard::localize(const ens::Tensor &global) const {
  if (isWhole())
    return global;
  ens::TensorType type = global.type();
  type.shape[0] = ensembles * count();
  return takeRowsOfBlocks(global, ensembles, members, begin, end,
                          std::move(type));
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

/// `state` with each per-member tensor mapped by `tensor` and each
/// per-member vector by `values`; the step and the curves (which are of
/// all members, the same on every rank) kept.
template <typename TensorFn, typename ValuesFn>
static TrainState mapMembers(const TrainState &state, TensorFn tensor,
                             ValuesFn values) {
  TrainState result;
  result.step = state.step;
  for (auto [from, to] :
       {std::pair(&state.params, &result.params),
        std::pair(&state.m, &result.m), std::pair(&state.v, &result.v)})
    for (const ens::Tensor &each : *from)
      to->push_back(tensor(each));
  result.learningRates = values(state.learningRates);
  result.initialLoss = values(state.initialLoss);
  result.curveMin = state.curveMin;
  result.curveMedian = state.curveMedian;
  result.curveMax = state.curveMax;
  result.accuracyCurve = state.accuracyCurve;
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping) {
    EarlyStoppingState mapped;
    mapped.bestLoss = values(stopping->bestLoss);
    mapped.bestEpoch = values(stopping->bestEpoch);
    mapped.stoppedEpoch = values(stopping->stoppedEpoch);
    for (const ens::Tensor &each : stopping->best)
      mapped.best.push_back(tensor(each));
    result.stopping = std::move(mapped);
  }
  return result;
}

TrainState MemberShard::localize(const TrainState &global) const {
  return mapMembers(
      global, [&](const ens::Tensor &tensor) { return localize(tensor); },
      [&](const std::vector<float> &values) { return localize(values); });
}

TrainState MemberShard::globalize(const TrainState &local,
                                  Communicator &comm) const {
  return mapMembers(
      local, [&](const ens::Tensor &tensor) { return globalize(tensor, comm); },
      [&](const std::vector<float> &values) {
        return globalize(values, comm);
      });
}
