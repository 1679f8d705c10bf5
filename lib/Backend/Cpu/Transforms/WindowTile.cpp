//===- WindowTile.cpp - Register tiles of convolutions --------------------===//
//
// Part of ens. See WindowTile.h.
//
//===----------------------------------------------------------------------===//

#include "WindowTile.h"

using namespace mlir;
using namespace mlir::ens;

/// The loop of `window`'s result that indexes its second innermost
/// dimension, if it is parallel, differs from `vectorLoop` and `rows`, and
/// every dimension of the image that reads it reads it at coefficient 1
/// with reduction loops alone.
static std::optional<unsigned> imageRowLoop(const cpu::WindowOp &window,
                                            unsigned vectorLoop,
                                            std::optional<unsigned> rows) {
  unsigned rank = window.result.getNumResults();
  if (rank < 2)
    return std::nullopt;
  unsigned loop =
      cast<AffineDimExpr>(window.result.getResult(rank - 2)).getPosition();
  linalg::LinalgOp op = window.op;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (loop == vectorLoop || loop == rows ||
      iterators[loop] != utils::IteratorType::parallel)
    return std::nullopt;
  for (AffineExpr expr : window.image.getResults()) {
    if (!expr.isFunctionOfDim(loop))
      continue;
    std::optional<llvm::SmallDenseMap<unsigned, int64_t, 4>> terms =
        cpu::loopCoefficients(expr);
    if (!terms || terms->lookup(loop) != 1)
      return std::nullopt;
    for (unsigned other = 0; other < iterators.size(); ++other)
      if (other != loop && expr.isFunctionOfDim(other) &&
          iterators[other] != utils::IteratorType::reduction)
        return std::nullopt;
  }
  return loop;
}

std::optional<cpu::WindowTile> cpu::planWindowTile(linalg::LinalgOp op) {
  std::optional<WindowOp> window = WindowOp::match(op);
  if (!window)
    return std::nullopt;
  WindowTile tile;
  tile.vectorLoop = window->innermostResultLoop;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[tile.vectorLoop] != utils::IteratorType::parallel)
    return std::nullopt;
  // The operand that the vector reads: the image, or (in a filter gradient
  // with the output channels innermost) the filter, each image element then
  // broadcast.
  AffineMap along;
  if (window->readsContiguouslyAlong(tile.vectorLoop)) {
    along = window->image;
  } else if (window->filterReadsContiguouslyAlong(tile.vectorLoop)) {
    along = window->filter;
    tile.vectorReadsFilter = true;
  } else {
    return std::nullopt;
  }
  // The rows: a loop of the result that the vector's operand does not read
  // (an output channel of a forward convolution, an input channel of a
  // filter gradient), so that each row is one broadcast element. Of a
  // filter gradient's, the longest, for the most accumulators: its taps
  // have 3, its input channels more.
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  for (AffineExpr expr : llvm::reverse(window->result.getResults())) {
    unsigned loop = cast<AffineDimExpr>(expr).getPosition();
    if (loop == tile.vectorLoop || along.isFunctionOfDim(loop))
      continue;
    if (!tile.rows || extents[loop] > extents[*tile.rows])
      tile.rows = loop;
    if (along == window->image)
      break;
  }
  if (tile.rows && along == window->image)
    tile.imageRows = imageRowLoop(*window, tile.vectorLoop, tile.rows);
  return tile;
}

std::pair<int64_t, int64_t> cpu::planWindowRows(int64_t rowExtent,
                                                int64_t imageRowExtent,
                                                int64_t maxImageRows,
                                                int64_t registers) {
  std::pair<int64_t, int64_t> best{1, 1};
  for (int64_t rows = 1; rows <= rowExtent; ++rows) {
    for (int64_t imageRows = 1;
         imageRows <= std::min(imageRowExtent, maxImageRows); ++imageRows) {
      if (rowExtent % rows != 0 || imageRowExtent % imageRows != 0 ||
          rows * imageRows + imageRows + 1 > registers)
        continue;
      auto [bestRows, bestImageRows] = best;
      // Loads per FMA compared as fractions: (r + v) / (r * v).
      int64_t lhs = (rows + imageRows) * bestRows * bestImageRows;
      int64_t rhs = (bestRows + bestImageRows) * rows * imageRows;
      if (lhs < rhs ||
          (lhs == rhs && rows * imageRows > bestRows * bestImageRows))
        best = {rows, imageRows};
    }
  }
  return best;
}
