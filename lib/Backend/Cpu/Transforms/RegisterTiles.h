//===- RegisterTiles.h - How the CPU backend cuts ops into tiles -*- C++
//-*-===//
//
// Private to the CPU backend's ens-cpu-tile-and-vectorize: the plan of one
// linalg op's register tiles (their shape, whether they become vector
// code, the loop whose tiles run on different threads, a split where the
// tile does not divide a loop), chosen from the op and the target's vector
// width and threads. TileAndVectorize.cpp carries the plan out.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_TRANSFORMS_REGISTERTILES_H
#define ENS_LIB_BACKEND_CPU_TRANSFORMS_REGISTERTILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <utility>

namespace mlir::ens::cpu {

/// The machine that code is tiled for.
struct TileTarget {
  /// Threads that will run the tiles of one op.
  unsigned threads;
  /// The width of the widest vector registers in bytes.
  unsigned vectorBytes;
};

/// How one linalg op is cut into tiles.
struct TilePlan {
  /// The extent of each loop in one register tile. Equal to the loop's
  /// extent for loops that are not tiled.
  SmallVector<int64_t> tile;
  /// Whether the register tiles become vector code.
  bool vectorize = false;
  /// The loop whose tiles run on different threads, if any, and how many
  /// of its iterations each such tile covers.
  std::optional<unsigned> parallelLoop;
  int64_t chunk = 0;
  /// Whether the register tile's unit loops go before it is vectorized: a
  /// convolution's tile reads the image at `position + tap`, which the
  /// vectorizer takes only once the unit tap loops are gone.
  bool dropUnitLoops = false;
  /// Whether a sum of unit loops alone keeps its parallel loop when the
  /// unit loops go (dropUnitLoops).
  bool keepLoopOfUnitSums = false;
  /// A loop that the register tile does not divide, and the iteration at
  /// which the op is split in two along it: the first part is a whole
  /// number of tiles, and the second is planned again on its own.
  std::optional<std::pair<unsigned, int64_t>> split;
};

/// Chooses the tiles of `op`, whose loops have the static `extents`, for
/// `target`.
TilePlan planTiles(linalg::LinalgOp op, ArrayRef<int64_t> extents,
                   const TileTarget &target);

/// Whether some input of `op` reads along `loop` contiguously: the loop
/// indexes its innermost dimension.
bool readsContiguouslyAlong(linalg::LinalgOp op, unsigned loop);

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_TRANSFORMS_REGISTERTILES_H
