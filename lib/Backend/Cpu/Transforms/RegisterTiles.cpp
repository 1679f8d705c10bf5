//===- RegisterTiles.cpp - How the CPU backend cuts ops into tiles --------===//
//
// The register tiles of contractions (BLIS-style: rows by vectors of the
// result, the accumulators in registers), of convolutions' windows, of
// narrow elementwise ops and of reductions, and the loop that threads
// share.
//
//===----------------------------------------------------------------------===//

#include "RegisterTiles.h"

#include "OpAnalysis.h"
#include "WindowTile.h"

#include "ens/Backend/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cpu-tile-and-vectorize"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cpu;

/// Rows of the result in one register tile of a convolution with one image
/// row, and vectors side by side in a column sum: 8 accumulators stay in
/// registers while the reduction runs.
static constexpr int64_t kRegisterRows = 8;

/// The most vectors side by side in one row of a contraction's register
/// tile, as in BLIS's AVX-512 and AVX2 kernels (two to four).
static constexpr int64_t kMaxTileVectors = 4;

/// The largest divisor of `extent` that is at most `bound`, so that tiles
/// divide their loops evenly and keep static shapes.
static int64_t largestDivisor(int64_t extent, int64_t bound) {
  for (int64_t divisor = std::min(extent, bound); divisor > 1; --divisor)
    if (extent % divisor == 0)
      return divisor;
  return 1;
}

/// The vector registers of a target whose widest vectors have `vectorBytes`
/// bytes: AVX-512 has 32, AVX and SSE have 16.
static int64_t vectorRegisters(unsigned vectorBytes) {
  return vectorBytes >= 64 ? 32 : 16;
}

namespace {
/// The register tile of a contraction: `rows` of the result by `vectors`
/// vectors of `width` lanes. Each step of the reduction then does
/// rows * vectors FMAs, reading `vectors` vectors of the operand that runs
/// along the vector loop and broadcasting `rows` elements of the other.
struct ContractionTile {
  int64_t rows = 1;
  int64_t vectors = 1;
  int64_t width = 1;
};
} // namespace

/// Chooses the register tile of a contraction whose result has `rowExtent`
/// rows and `vectorExtent` columns, on a target with `lanes` lanes per
/// vector and `registers` vector registers. Each step of the reduction
/// costs a tile of r rows and v vectors r + v loads when the operand read
/// along the vector loop is `contiguous`, and r + v * lanes otherwise (a
/// transposed operand, as in dX = dY * W^T, is read an element at a time:
/// such tiles are one vector wide and as tall as the registers allow). The
/// tile chosen needs the fewest loads per step over the whole result,
/// counting the tiles of what it leaves over (split off by planTiles and
/// tiled on their own), with its rows * vectors accumulators, the vectors of
/// a step (a gathered one takes four) and one broadcast in registers; on a
/// tie, the one with more accumulators, which keep more FMAs in flight.
static ContractionTile planContractionTile(int64_t rowExtent,
                                           int64_t vectorExtent, int64_t lanes,
                                           int64_t registers, bool contiguous) {
  ContractionTile best;
  best.width = std::min(vectorExtent, lanes);
  int64_t columnVectors = llvm::divideCeil(vectorExtent, best.width);
  int64_t maxVectors =
      contiguous ? std::min(kMaxTileVectors, vectorExtent / best.width) : 1;
  int64_t loadsPerVector = contiguous ? 1 : best.width;
  // A vector gathered from single elements is assembled in quarters, which
  // take registers of their own.
  int64_t vectorTemporaries = contiguous ? 1 : 4;
  // The loads of one reduction step over `extent` cut into tiles of `size`
  // (the last perhaps smaller), a tile of n costing tileLoads(n).
  auto loadsOver = [](int64_t extent, int64_t size, auto tileLoads) {
    int64_t loads = extent / size * tileLoads(size);
    if (extent % size != 0)
      loads += tileLoads(extent % size);
    return loads;
  };
  int64_t fewest = std::numeric_limits<int64_t>::max();
  for (int64_t vectors = 1; vectors <= maxVectors; ++vectors) {
    for (int64_t rows = 1; rows <= rowExtent; ++rows) {
      if (rows * vectors + vectors * vectorTemporaries + 1 > registers)
        break;
      int64_t loads = loadsOver(rowExtent, rows, [&](int64_t tileRows) {
        return loadsOver(columnVectors, vectors, [&](int64_t tileVectors) {
          return tileRows + tileVectors * loadsPerVector;
        });
      });
      if (loads < fewest ||
          (loads == fewest && rows * vectors > best.rows * best.vectors)) {
        fewest = loads;
        best.rows = rows;
        best.vectors = vectors;
      }
    }
  }
  return best;
}

bool cpu::readsContiguouslyAlong(linalg::LinalgOp op, unsigned loop) {
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *operand) {
    return cpu::innermostLoop(op, *operand) == loop;
  });
}

TilePlan cpu::planTiles(linalg::LinalgOp op, ArrayRef<int64_t> extents,
                        const TileTarget &options) {
  unsigned numLoops = extents.size();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  TilePlan plan;
  plan.tile.assign(extents.begin(), extents.end());

  bool contraction = linalg::isaContractionOpInterface(op);
  std::optional<unsigned> bits = cpu::widestElementBits(op);
  std::optional<unsigned> vectorLoop;
  // A reduction to a scalar would vectorize to a vector.contract with a
  // 0-d accumulator, which the vector dialect rejects; it stays scalar.
  bool scalarResult =
      cast<ShapedType>(op.getDpsInitOperand(0)->get().getType()).getRank() == 0;
  std::optional<unsigned> rowLoop;
  std::optional<cpu::WindowTile> window;
  if (bits && !scalarResult) {
    if ((window = cpu::planWindowTile(op))) {
      vectorLoop = window->vectorLoop;
      rowLoop = window->rows;
      plan.dropUnitLoops = true;
      plan.keepLoopOfUnitSums = window->vectorReadsFilter;
    } else if (succeeded(linalg::vectorizeOpPrecondition(op))) {
      vectorLoop = cpu::pickVectorLoop(op, contraction);
      if (contraction)
        rowLoop = cpu::rowLoop(op);
    }
  }
  if (vectorLoop) {
    plan.vectorize = true;
    plan.tile.assign(numLoops, 1);
    int64_t lanes = std::max<int64_t>(1, options.vectorBytes * 8 / *bits);
    plan.tile[*vectorLoop] = largestDivisor(extents[*vectorLoop], lanes);
    if (contraction) {
      bool hasRows = rowLoop && rowLoop != vectorLoop;
      bool contiguous = readsContiguouslyAlong(op, *vectorLoop);
      ContractionTile tile = planContractionTile(
          hasRows ? extents[*rowLoop] : 1, extents[*vectorLoop], lanes,
          vectorRegisters(options.vectorBytes), contiguous);
      int64_t columns = tile.vectors * tile.width;
      plan.tile[*vectorLoop] = columns;
      if (hasRows)
        plan.tile[*rowLoop] = tile.rows;
      if (hasRows && extents[*rowLoop] % tile.rows != 0)
        plan.split = {*rowLoop,
                      extents[*rowLoop] - extents[*rowLoop] % tile.rows};
      else if (extents[*vectorLoop] % columns != 0)
        plan.split = {*vectorLoop,
                      extents[*vectorLoop] - extents[*vectorLoop] % columns};
      LLVM_DEBUG({
        llvm::dbgs() << "[" DEBUG_TYPE "] contraction at " << op.getLoc()
                     << ": " << tile.rows << " rows x " << tile.vectors
                     << " vectors of " << tile.width << " lanes, "
                     << (contiguous ? "contiguous" : "gathered") << ", "
                     << vectorRegisters(options.vectorBytes) << " registers";
        if (plan.split)
          llvm::dbgs() << "; split at " << plan.split->second << " along loop "
                       << plan.split->first;
        llvm::dbgs() << "\n";
      });
      // The parts of a split op are tiled on their own.
      if (plan.split)
        return plan;
    } else if (window && window->imageRows) {
      auto [rows, imageRows] = cpu::planWindowRows(
          extents[*rowLoop], extents[*window->imageRows], kMaxTileVectors,
          vectorRegisters(options.vectorBytes));
      plan.tile[*rowLoop] = rows;
      plan.tile[*window->imageRows] = imageRows;
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] convolution at " << op.getLoc() << ": "
                 << rows << " rows x " << imageRows << " image rows x "
                 << plan.tile[*vectorLoop] << " lanes\n");
    } else if (rowLoop && rowLoop != vectorLoop) {
      int64_t rows = largestDivisor(extents[*rowLoop], kRegisterRows);
      plan.tile[*rowLoop] = rows;
      // A convolution whose vector reads the image along one loop with no
      // image rows to span (one over flattened image rows) takes two
      // vectors side by side where they fit, so that each broadcast filter
      // tap serves two FMAs.
      int64_t twoVectors = 2 * plan.tile[*vectorLoop];
      if (window && !window->vectorReadsFilter &&
          plan.tile[*vectorLoop] == lanes &&
          extents[*vectorLoop] % twoVectors == 0 &&
          rows * 2 + 2 + 1 <= vectorRegisters(options.vectorBytes))
        plan.tile[*vectorLoop] = twoVectors;
    } else if (extents[*vectorLoop] * *bits < cpu::kNarrowRowBits) {
      // An innermost dimension narrower than a vector (a pooling window's
      // columns in its adjoint's [rows, window rows, columns, window
      // columns] view) would leave most lanes idle: the vector runs along
      // the next dimension too, which the result holds contiguously after it.
      if (std::optional<unsigned> outer =
              cpu::contiguousOuterLoop(op, *vectorLoop)) {
        plan.tile[*outer] =
            largestDivisor(extents[*outer], lanes / extents[*vectorLoop]);
        LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] narrow elementwise op at "
                                << op.getLoc() << ": " << plan.tile[*outer]
                                << " x " << extents[*vectorLoop] << " lanes\n");
      }
    } else if (isa<linalg::TransposeOp>(*op)) {
      // A transpose that moves its input's innermost dimension reads a
      // vector's worth of it per step too, a tile of rows that the vector
      // lowering transposes in registers: a vector of the result alone
      // would gather an element per lane.
      std::optional<unsigned> inputLoop =
          cpu::innermostLoop(op, *op.getDpsInputOperand(0));
      if (inputLoop && *inputLoop != *vectorLoop)
        plan.tile[*inputLoop] = largestDivisor(extents[*inputLoop], lanes);
    }
    // A reduction across the vector loop (a column sum) reads one vector
    // per step at a stride of a whole row: a tile of up to 8 vectors side
    // by side reads 8 times as much contiguous memory per row, with 8
    // accumulators in registers.
    if (!contraction && !rowLoop && plan.tile[*vectorLoop] == lanes &&
        iterators[*vectorLoop] == utils::IteratorType::parallel &&
        op.getNumReductionLoops() > 0) {
      int64_t wide =
          largestDivisor(extents[*vectorLoop], lanes * kRegisterRows);
      if (wide % lanes == 0)
        plan.tile[*vectorLoop] = wide;
    }
  }

  int64_t work = 1;
  for (int64_t extent : extents)
    work *= extent;
  if (options.threads <= 1 || work < kMinParallelWork)
    return plan;
  // The first parallel loop of more than one iteration runs on threads, one
  // register tile per iteration; the vector loop only if there is no other,
  // cut into about one chunk per thread.
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (iterators[loop] != utils::IteratorType::parallel || loop == vectorLoop)
      continue;
    if (extents[loop] == 1)
      continue;
    plan.parallelLoop = loop;
    break;
  }
  if (!plan.parallelLoop && vectorLoop &&
      iterators[*vectorLoop] == utils::IteratorType::parallel)
    plan.parallelLoop = vectorLoop;
  if (!plan.parallelLoop)
    return plan;
  unsigned loop = *plan.parallelLoop;
  int64_t extent = extents[loop];
  if (plan.tile[loop] < extent && loop != vectorLoop) {
    plan.chunk = plan.tile[loop];
    return plan;
  }
  // Whole vectors per chunk, as close to one chunk per thread as divides
  // the loop.
  int64_t step = loop == vectorLoop ? plan.tile[loop] : 1;
  int64_t chunk =
      llvm::alignTo(llvm::divideCeil(extent, options.threads), step);
  while (extent % chunk != 0)
    chunk += step;
  if (chunk == extent)
    plan.parallelLoop.reset();
  else
    plan.chunk = chunk;
  return plan;
}
