//===- LaneAddresses.h - How a warp's global accesses spread ----*- C++ -*-===//
//
// Whether a kernel's global loads and stores are coalesced depends on the
// addresses of the warp's 32 lanes, which SASS computes from the thread's
// index (S2R SR_TID.X) with integer arithmetic. A forward dataflow analysis
// follows that arithmetic for the first warp of a block: each register
// holds a value common to the warp that may be unknown (the block's index,
// a pointer, a loop counter) plus a known offset per lane. At every global
// access it then counts the 32-byte sectors the warp's addresses touch,
// against the sectors its bytes would fill if they were contiguous.
//
// The analysis assumes one-dimensional blocks (SR_TID.Y and .Z are 0) of
// whole warps, and indices that are not negative (the sign ptxas extracts
// to round a signed division is 0), and counts every lane, whatever guards
// the access.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TOOLS_ENS_SASS_LANEADDRESSES_H
#define ENS_TOOLS_ENS_SASS_LANEADDRESSES_H

#include "Sass.h"

#include <optional>
#include <vector>

namespace mlir::ens::sass {

/// A global load, store or asynchronous copy of a kernel, and how the
/// first warp's addresses spread over memory.
struct GlobalAccess {
  /// Its index in the kernel's code.
  size_t index = 0;
  /// Bytes each lane accesses.
  unsigned width = 4;
  /// The 32-byte sectors the warp's lanes touch (taking the part of the
  /// address common to the warp as 32-byte aligned); none where the
  /// analysis cannot tell the lanes' addresses apart.
  std::optional<unsigned> sectors;
  /// The sectors the lanes' distinct bytes would fill if contiguous.
  unsigned neededSectors = 0;
  /// Whether the warps the analysis followed reach it.
  bool reached = true;

  /// Whether the lanes touch more than twice the sectors their bytes need
  /// (a column of a row-major matrix, lanes 16 bytes or more apart).
  bool isUncoalesced() const { return sectors && *sectors > 2 * neededSectors; }
};

/// The threads of a kernel's blocks and its blocks, as it is launched.
struct LaunchShape {
  int64_t blockThreads = 0, gridBlocks = 0;
};

/// The global accesses of `kernel` in the order of its code. Given the
/// launch's shape, the block's width and index are known: the analysis
/// follows the first and last warps of four blocks and counts each access
/// at its worst; without it, the first warp of a block whose index is
/// unknown and whose width is a multiple of 32.
std::vector<GlobalAccess>
analyzeGlobalAccesses(const Kernel &kernel,
                      std::optional<LaunchShape> shape = std::nullopt);

} // namespace mlir::ens::sass

#endif // ENS_TOOLS_ENS_SASS_LANEADDRESSES_H
