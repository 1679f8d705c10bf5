//===- Overlap.h - Results that share memory with other buffers -*- C++ -*-===//
//
// Compiled code writes its results while it still reads its arguments and
// its other results, so a call whose result shares memory with any other
// buffer of the call is refused. Both ways of calling compiled code, the
// library's Executable and the runtime's Program, check it before every
// call with this one search.
//
// Header-only and std-only: the runtime library links nothing of ens's
// compiler.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_OVERLAP_H
#define ENS_RUNTIME_OVERLAP_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ens::runtime {

/// The bytes [begin, end) of one buffer of a call, in address space
/// `space` (host or a device: ranges in different spaces never overlap).
struct ByteRange {
  uintptr_t begin = 0, end = 0;
  int space = 0;
};

/// The first buffer, in the order of a call's buffers (`numArgs` arguments,
/// then the results), that a result overlaps, for the first result that
/// overlaps one; std::nullopt if none does. Empty ranges overlap nothing.
///
/// A sweep over the ranges sorted by address answers whether any result
/// overlaps in O(n log n): a call of a large ensemble's step passes
/// hundreds of buffers, where the pairwise search took longer than small
/// steps themselves. Only when one does is the pairwise search run, to name
/// the same pair whatever the addresses.
inline std::optional<std::pair<size_t, size_t>>
findResultOverlap(const std::vector<ByteRange> &ranges, size_t numArgs) {
  auto overlap = [&](size_t a, size_t b) {
    const ByteRange &x = ranges[a], &y = ranges[b];
    return x.space == y.space && x.begin < x.end && y.begin < y.end &&
           x.begin < y.end && y.begin < x.end;
  };
  std::vector<size_t> order(ranges.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_pair(ranges[a].space, ranges[a].begin) <
           std::make_pair(ranges[b].space, ranges[b].begin);
  });
  // A range overlaps one before it in this order exactly when it starts
  // before the furthest end so far (of any range, for a result; of a
  // result, for an argument).
  bool any = false;
  uintptr_t anyEnd = 0, resultEnd = 0;
  for (size_t k = 0; k < order.size() && !any; ++k) {
    const ByteRange &range = ranges[order[k]];
    if (range.begin >= range.end)
      continue;
    if (k > 0 && ranges[order[k - 1]].space != range.space)
      anyEnd = resultEnd = 0;
    bool isResult = order[k] >= numArgs;
    any = range.begin < (isResult ? anyEnd : resultEnd);
    anyEnd = std::max(anyEnd, range.end);
    if (isResult)
      resultEnd = std::max(resultEnd, range.end);
  }
  if (!any)
    return std::nullopt;
  for (size_t r = numArgs; r < ranges.size(); ++r)
    for (size_t o = 0; o < r; ++o)
      if (overlap(r, o))
        return std::make_pair(r, o);
  return std::nullopt;
}

} // namespace ens::runtime

#endif // ENS_RUNTIME_OVERLAP_H
