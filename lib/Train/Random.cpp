//===- Random.cpp - The random numbers of ens-train -----------------------===//

#include "ens/Train/Random.h"

#include <cmath>
#include <numeric>
#include <utility>

using namespace ens::train;

uint64_t Random::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double Random::uniform() { return (next() >> 11) * 0x1.0p-53; }

double Random::normal() {
  double u1 = 1.0 - uniform(); // In (0, 1].
  double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

int64_t Random::below(int64_t bound) {
  return static_cast<int64_t>(uniform() * static_cast<double>(bound));
}

std::vector<int64_t> Random::permutation(int64_t count) {
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  for (int64_t i = count - 1; i > 0; --i)
    std::swap(order[i], order[below(i + 1)]);
  return order;
}

Random Random::stream(uint64_t seed, uint64_t stream) {
  Random mix(seed * 0x2545f4914f6cdd1dull + stream);
  return Random(mix.next());
}
