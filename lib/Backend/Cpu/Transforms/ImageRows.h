//===- ImageRows.h - Convolutions over flattened image rows -----*- C++ -*-===//
//
// A convolution whose image rows are narrower than a vector, rewritten so
// that a vector runs along its image rows and columns together: the image
// is copied once per column tap into rows as wide as the result's, which
// then lie end to end, so that a result position p = row * columns +
// column reads the copy at p + row tap * columns + column tap * image rows
// * columns (ens-cpu-split-reductions). Of a padded image, the copies are
// made from the image before its padding.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_TRANSFORMS_IMAGEROWS_H
#define ENS_LIB_BACKEND_CPU_TRANSFORMS_IMAGEROWS_H

#include "OpAnalysis.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::ens::cpu {

/// The loops of a convolution whose image rows can be flattened
/// (matchImageRows).
struct ImageRows {
  /// The result's image row and column loops, its two innermost dimensions.
  unsigned row, column;
  /// The tap loops that the image reads with them: `row + rowTap`,
  /// `column + columnTap`, its two innermost dimensions.
  unsigned rowTap, columnTap;
};

/// The image rows of `window` to flatten, if its result's columns are fewer
/// than `lanes` and its rows times columns a multiple of them, its image's
/// two innermost dimensions are read at `row + rowTap` and `column +
/// columnTap` (no stride or dilation) and no other operand dimension reads
/// those loops, and its shapes are static.
std::optional<ImageRows> matchImageRows(const WindowOp &window, int64_t lanes);

/// Replaces the convolution `op` by one over a copy of its image with a row
/// per column tap and image row, each as wide as the result's rows, and
/// the result's rows and columns as one loop, whose result is then
/// reshaped back: a vector along that loop reads the copy contiguously.
/// An image that is zeros with a window inserted (a padded image) is
/// copied from that window into zeros, not read itself.
void flattenImageRows(RewriterBase &rewriter, linalg::GenericOp op,
                      const ImageRows &rows);

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_TRANSFORMS_IMAGEROWS_H
