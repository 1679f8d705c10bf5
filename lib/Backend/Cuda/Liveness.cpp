//===- Liveness.cpp - Offsets for buffers by their live ranges ------------===//

#include "ens/Backend/Liveness.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::ens;

Placement mlir::ens::placeByLiveness(llvm::ArrayRef<LiveRange> ranges,
                                     int64_t alignment) {
  Placement placement;
  for (auto [i, range] : llvm::enumerate(ranges)) {
    // Raise the offset past every earlier buffer that overlaps it in time
    // and in space until none does.
    int64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (auto [j, other] : llvm::enumerate(ranges.take_front(i))) {
        int64_t at = placement.offsets[j];
        bool meets = other.first <= range.last && range.first <= other.last;
        if (meets && at < offset + range.bytes && offset < at + other.bytes) {
          offset = llvm::alignTo(at + other.bytes, alignment);
          moved = true;
        }
      }
    }
    placement.offsets.push_back(offset);
    placement.peak = std::max(placement.peak, offset + range.bytes);
  }
  return placement;
}
