//===- Batches.cpp - Which rows each member trains on ---------------------===//

#include "ens/Train/Batches.h"

#include "ens/Train/Random.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <utility>

using namespace ens::train;

/// The streams of Random::stream that batches draw from; the synthetic
/// problem uses 1 to 3, the validation split 18.
static constexpr uint64_t kShuffleStream = 16, kBootstrapStream = 17;

const char *ens::train::getShuffleName(Shuffle shuffle) {
  switch (shuffle) {
  case Shuffle::None:
    return "none";
  case Shuffle::Shared:
    return "shared";
  case Shuffle::Member:
    return "member";
  }
  return "none";
}

std::optional<Shuffle> ens::train::parseShuffle(const std::string &name) {
  for (Shuffle shuffle : {Shuffle::None, Shuffle::Shared, Shuffle::Member})
    if (name == getShuffleName(shuffle))
      return shuffle;
  return std::nullopt;
}

BatchSchedule::BatchSchedule(const Batching &batching, int64_t rows,
                             int64_t members, uint64_t seed)
    : batching(batching), rows(rows), members(members), seed(seed) {
  assert(batching.batchSize >= 1 && rows >= batching.batchSize);
  if (!batching.bootstrap)
    return;
  // Each member's sample depends on its index alone, so that it is the same
  // whatever the number of members.
  Random streams = Random::stream(seed, kBootstrapStream);
  uint64_t base = streams.next();
  for (int64_t member = 0; member < members; ++member) {
    Random random = Random::stream(base, member);
    std::vector<int64_t> sample(rows);
    for (int64_t &row : sample)
      row = random.below(rows);
    samples.push_back(std::move(sample));
  }
}

const std::vector<int64_t> &BatchSchedule::orderOf(int64_t epoch,
                                                   int64_t member) {
  bool perMember = batching.perMember();
  if (epoch != cachedEpoch) {
    cachedEpoch = epoch;
    orders.assign(perMember ? members : 1, {});
  }
  std::vector<int64_t> &order = orders[perMember ? member : 0];
  if (!order.empty())
    return order;
  if (batching.shuffle == Shuffle::None) {
    order.resize(rows);
    std::iota(order.begin(), order.end(), 0);
  } else {
    // From the epoch's stream (and the member's, per member).
    Random epochs = Random::stream(seed, kShuffleStream);
    uint64_t epochSeed = Random::stream(epochs.next(), epoch).next();
    Random random = batching.shuffle == Shuffle::Member
                        ? Random::stream(epochSeed, member)
                        : Random(epochSeed);
    order = random.permutation(rows);
  }
  if (batching.bootstrap)
    for (int64_t &row : order)
      row = samples[member][row];
  return order;
}

const std::vector<int64_t> &BatchSchedule::rowsAt(int64_t step,
                                                  int64_t member) {
  assert(step >= 1 && member >= 0 && member < members);
  int64_t epoch = (step - 1) / stepsPerEpoch();
  int64_t first = (step - 1) % stepsPerEpoch() * batching.batchSize;
  int64_t size = std::min(batching.batchSize, rows - first);
  const std::vector<int64_t> &order = orderOf(epoch, member);
  batch.assign(order.begin() + first, order.begin() + first + size);
  return batch;
}
