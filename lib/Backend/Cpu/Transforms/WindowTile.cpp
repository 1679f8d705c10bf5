//===- WindowTile.cpp - Register tiles of convolutions --------------------===//
//
// Part of ens. See WindowTile.h.
//
//===----------------------------------------------------------------------===//

#include "WindowTile.h"

using namespace mlir;
using namespace mlir::ens;

/// The loop of `window`'s image rows: of the loops of its result other
/// than `vectorLoop` and `rows`, the innermost that is parallel and that the
/// image reads together with taps (reduction loops), each dimension that
/// reads it at coefficient 1 with reduction loops alone. That is the
/// result's second innermost loop in a forward convolution (its rows); in a
/// filter gradient with a partial result per column tap
/// (ens-cpu-split-reductions), whose image reads its column taps with the
/// partial results' parallel loop, the row taps are the image rows, so that
/// a tile over them reads each output gradient vector once for them all.
static std::optional<unsigned> imageRowLoop(const cpu::WindowOp &window,
                                            unsigned vectorLoop,
                                            std::optional<unsigned> rows) {
  linalg::LinalgOp op = window.op;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto readWithTaps = [&](unsigned loop) {
    bool taps = false;
    for (AffineExpr expr : window.image.getResults()) {
      if (!expr.isFunctionOfDim(loop))
        continue;
      std::optional<llvm::SmallDenseMap<unsigned, int64_t, 4>> terms =
          cpu::loopCoefficients(expr);
      if (!terms || terms->lookup(loop) != 1)
        return false;
      for (auto [other, coefficient] : *terms) {
        if (other == loop)
          continue;
        if (iterators[other] != utils::IteratorType::reduction)
          return false;
        taps = true;
      }
    }
    return taps;
  };
  for (AffineExpr expr : llvm::reverse(window.result.getResults())) {
    unsigned loop = cast<AffineDimExpr>(expr).getPosition();
    if (loop != vectorLoop && loop != rows &&
        iterators[loop] == utils::IteratorType::parallel && readWithTaps(loop))
      return loop;
  }
  return std::nullopt;
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
