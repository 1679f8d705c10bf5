//===- Random.h - The random numbers of ens-train ---------------*- C++ -*-===//
//
// One small generator for everything ens-train draws on the host: the
// built-in problem, the batches' shuffles and bootstrap samples. It is
// defined here, not taken from <random>, so that the same seed gives the
// same numbers with every standard library.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_RANDOM_H
#define ENS_TRAIN_RANDOM_H

#include <cstdint>
#include <vector>

namespace ens::train {

/// A small deterministic generator (SplitMix64), the same everywhere.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  /// A generator for one purpose, `stream`, of the runs made from `seed`:
  /// different streams give unrelated numbers.
  static Random stream(uint64_t seed, uint64_t stream);
  uint64_t next();
  /// Uniform in [0, 1).
  double uniform();
  /// Standard normal (Box-Muller).
  double normal();
  /// A uniform integer in [0, bound).
  int64_t below(int64_t bound);
  /// A uniform permutation of 0, ..., count - 1 (Fisher-Yates).
  std::vector<int64_t> permutation(int64_t count);

private:
  uint64_t state;
};

} // namespace ens::train

#endif // ENS_TRAIN_RANDOM_H
