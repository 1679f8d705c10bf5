//===- Batches.h - Which rows each member trains on -------------*- C++ -*-===//
//
// Minibatch training: the data's N rows are read in epochs of batches of B
// rows: ceil(N / B) batches, the last of N mod B rows if B does not divide
// N, or with --drop-last (and always for a model written for one batch
// size) floor(N / B), the rows past the last whole batch left out of that
// epoch (with --shuffle they differ from epoch to epoch). Step s (counted
// from 1) is batch (s - 1) mod S of epoch (s - 1) / S, S batches an epoch.
//
// Each member's rows are a pure function of the seed, the step and the
// member's index, so a run resumed from a checkpoint at any step, even in
// the middle of an epoch, reads exactly the rows an uninterrupted run
// would, without storing any generator state:
//
//   --shuffle=none    the rows in order, every epoch;
//   --shuffle=shared  one permutation per epoch, the same for every member
//                     (a DataLoader with shuffle=True feeding all members);
//   --shuffle=member  one permutation per epoch and member;
//   --bootstrap       each member draws its own N rows with replacement
//                     once (bagging), and epochs walk that sample, in order
//                     or shuffled as above.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_BATCHES_H
#define ENS_TRAIN_BATCHES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ens::train {

/// How each epoch orders the rows.
enum class Shuffle { None, Shared, Member };

/// The name --shuffle takes ("none", "shared", "member").
const char *getShuffleName(Shuffle shuffle);
/// The shuffle that `name` names, if any.
std::optional<Shuffle> parseShuffle(const std::string &name);

/// How the data is cut into batches, recorded in checkpoints.
struct Batching {
  int64_t batchSize = 0;
  Shuffle shuffle = Shuffle::None;
  bool bootstrap = false;
  /// Whether the last batch of an epoch, when partial, is left out.
  bool dropLast = true;

  /// Whether members train on different rows at the same step, so that the
  /// step takes a batch per member instead of one for all.
  bool perMember() const { return shuffle == Shuffle::Member || bootstrap; }
};

/// The rows of every batch of a run.
class BatchSchedule {
public:
  /// `rows` rows (at least `batching.batchSize`) shared out to `members`
  /// members from `seed`.
  BatchSchedule(const Batching &batching, int64_t rows, int64_t members,
                uint64_t seed);

  /// Batches in an epoch.
  int64_t stepsPerEpoch() const {
    return batching.dropLast
               ? rows / batching.batchSize
               : (rows + batching.batchSize - 1) / batching.batchSize;
  }

  /// The rows that `member` trains on at `step` (from 1), B of them but in
  /// a partial last batch; with a batch shared by all members
  /// (!batching.perMember()), any member's.
  const std::vector<int64_t> &rowsAt(int64_t step, int64_t member);

private:
  /// The order of the rows in `epoch` for `member` (for all members when
  /// not shuffled per member), cached for the current epoch.
  const std::vector<int64_t> &orderOf(int64_t epoch, int64_t member);

  Batching batching;
  int64_t rows, members;
  uint64_t seed;
  /// Each member's bootstrap sample (empty without --bootstrap).
  std::vector<std::vector<int64_t>> samples;
  /// The epoch the orders below are for, and one order per member (one
  /// for all without per-member orders).
  int64_t cachedEpoch = -1;
  std::vector<std::vector<int64_t>> orders;
  std::vector<int64_t> batch;
};

} // namespace ens::train

#endif // ENS_TRAIN_BATCHES_H
