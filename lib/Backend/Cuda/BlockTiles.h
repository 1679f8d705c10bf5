//===- BlockTiles.h - How a block's threads share a block tile --*- C++ -*-===//
//
// Private to the CUDA backend's block-tile emitters (BlockTileEmitter.cpp,
// MmaEmitter.cpp, FfmaTileEmitter.cpp): the points of a block tile that
// each thread holds in accumulators, and how it multiplies the operands
// staged in shared memory into them, on tensor cores or in FFMA. The
// staging, the cp.async pipeline and the epilogue are the same for both.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_BLOCKTILES_H
#define ENS_LIB_BACKEND_CUDA_BLOCKTILES_H

#include "ens/Backend/Cuda/KernelConfig.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace mlir::ens::cuda {

/// A thread's share of a block tile.
struct BlockTileThreads {
  /// Statements that compute the thread's place in the block tile, before
  /// the loop over block tiles.
  SmallVector<std::string> coordinates;
  /// The rows and the columns of the thread's points: a name for each and
  /// its offset from the block tile's first row (ens_r0) or column
  /// (ens_c0).
  SmallVector<std::pair<std::string, std::string>> rows, cols;
  /// The thread's accumulator arrays: element e of `name` holds the point
  /// at row `points[e].first` and column `points[e].second` (positions in
  /// rows and cols).
  struct Accumulators {
    std::string name;
    SmallVector<std::pair<unsigned, unsigned>> points;
  };
  SmallVector<Accumulators> accumulators;
  /// Writes, at an indent, the products of the staged steps of a stage,
  /// whose operands start at ens_a and ens_b as MmaStaging lays them out,
  /// added into the accumulators.
  std::function<void(llvm::raw_ostream &, unsigned)> products;
};

/// A thread's share of `mma`'s block tiles on tensor cores (mma.sync
/// m16n8k8 fragments), with the block tile `blockCols` columns wide.
BlockTileThreads getMmaThreads(const MmaConfig &mma, const MmaStaging &staging,
                               int64_t blockCols);

/// A thread's share of `mma`'s block tiles in FFMA: a micro-tile of
/// warpRows / kFfmaThreadRows x warpCols / kFfmaThreadCols points, in
/// groups of 4 consecutive rows and columns that it reads with 128-bit
/// shared loads.
BlockTileThreads getFfmaThreads(const MmaConfig &mma, const MmaStaging &staging,
                                int64_t blockCols);

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_BLOCKTILES_H
