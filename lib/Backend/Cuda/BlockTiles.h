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

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace mlir::ens::cuda {

/// mma.sync m16n8k8's tile: m x n accumulators, k steps.
inline constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 8;

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

/// Whether every block tile's columns are inside the op: FFMA block tiles
/// (not tensor cores) of `blockCols` columns over `columns` columns, a
/// multiple of them, so that a thread's consecutive columns load and store
/// their epilogue's operands as one access.
inline bool hasColumnsInside(const MmaConfig &mma, int64_t columns,
                             int64_t blockCols) {
  return !mma.enabled() && columns % blockCols == 0;
}

/// A group of a thread's points whose epilogue loads go together
/// (emitBlockTiles): the points of accumulator array `acc` at `elements`.
/// A whole row (`wholeRow`) is an array of more than one point, all in one
/// row, whose columns are all inside the op, so that its consecutive
/// columns load and store as 128-bit accesses; a point of any other array
/// is a group of its own.
struct EpilogueGroup {
  const BlockTileThreads::Accumulators *acc;
  SmallVector<unsigned> elements;
  bool wholeRow;
};

/// At most this many words of a thread's epilogue operands are loaded at
/// once: the accumulators and these fit in the 128 registers a thread of
/// a block tile may take (two blocks per SM).
inline constexpr int64_t kEpilogueBatchWords = 32;

/// The epilogue of `threads`' points in batches of consecutive groups,
/// each batch's loads (`words` a point) issued before any of its stores,
/// as many groups as keep the batch within kEpilogueBatchWords words (at
/// least one). `columnsInside`: every block tile's columns are inside the
/// op. A batch's loads wait for the stores before it, which may alias
/// them: the epilogue's loads make a round trip a batch (as the SASS
/// shows, sm_90).
SmallVector<SmallVector<EpilogueGroup>>
getEpilogueBatches(const BlockTileThreads &threads, bool columnsInside,
                   int64_t words);

/// The words that the epilogue `epilogue` of `contraction` loads for each
/// point: the outputs it reads and its inputs besides the contraction's
/// result, but those at a constant place (a scalar, loaded once).
int64_t countEpilogueWords(linalg::GenericOp contraction,
                           linalg::GenericOp epilogue);

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_BLOCKTILES_H
