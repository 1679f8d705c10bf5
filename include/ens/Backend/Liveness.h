//===- Liveness.h - Offsets for buffers by their live ranges ----*- C++ -*-===//
//
// One planner for every memory the CUDA backend shares out: a block's
// shared memory among the temporaries of a loop over members, and the
// device arena among the temporaries of a launch plan.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_LIVENESS_H
#define ENS_BACKEND_LIVENESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::ens {

/// A buffer of `bytes` used from step `first` to step `last`, inclusive.
struct LiveRange {
  int64_t bytes;
  unsigned first, last;
};

/// Where each buffer goes, and the bytes the placement needs in all.
struct Placement {
  llvm::SmallVector<int64_t> offsets;
  int64_t peak = 0;
};

/// Places `ranges` in order, each at the lowest offset (a multiple of
/// `alignment`) where it overlaps no buffer placed before whose range meets
/// its own: buffers live at the same step never share a byte.
Placement placeByLiveness(llvm::ArrayRef<LiveRange> ranges, int64_t alignment);

} // namespace mlir::ens

#endif // ENS_BACKEND_LIVENESS_H
