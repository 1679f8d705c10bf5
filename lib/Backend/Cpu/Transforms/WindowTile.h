//===- WindowTile.h - Register tiles of convolutions ------------*- C++ -*-===//
//
// How ens-cpu-tile-and-vectorize cuts a convolution (OpAnalysis.h's
// WindowOp) into register tiles: a vector along the result's columns,
// rows along the output channels and several image rows, so that each
// step of the reduction is the outer product of image vectors and a column
// of filter taps, as a contraction's is.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_TRANSFORMS_WINDOWTILE_H
#define ENS_LIB_BACKEND_CPU_TRANSFORMS_WINDOWTILE_H

#include "OpAnalysis.h"

#include <optional>
#include <utility>

namespace mlir::ens::cpu {

/// The loops of a convolution's register tile (planWindowTile).
struct WindowTile {
  /// The result's innermost loop, along which a vector reads the image.
  unsigned vectorLoop = 0;
  /// A loop of the result that the vector's operand does not read: an
  /// output channel, whose column of filter taps is broadcast to the
  /// tile's rows, or, where the vector reads the filter, an input channel,
  /// whose image elements are.
  std::optional<unsigned> rows;
  /// The loop of the result's image rows, read by the image together with
  /// reduction loops (taps) alone: once those are of one iteration, a tile
  /// of several image rows reads each as a vector, and each filter tap
  /// broadcast serves them all.
  std::optional<unsigned> imageRows;
  /// Whether the vector reads the filter, each row an image element.
  bool vectorReadsFilter = false;
};

/// The register tile of a convolution (OpAnalysis.h), or nothing if it has
/// none that vectorizes: the vector runs along the result's innermost loop
/// when a vector along it reads the image contiguously, the rows along a
/// loop of the result that the image does not read (an output channel),
/// and, if it can, the tile spans several image rows, so that each step of
/// the reduction is the outer product of image vectors and a column of
/// filter taps, as a contraction's is. Where the image does not read the
/// result's innermost loop and the filter has it innermost (a filter
/// gradient whose output gradient has its channels innermost), the vector
/// reads the filter instead, and the rows run along a loop that the filter
/// does not read (an input channel), each an image element broadcast.
/// Every other loop, the taps included, is tiled to 1, so that the tile
/// without its unit loops reads through loops alone, which the vectorizer
/// needs.
std::optional<WindowTile> planWindowTile(linalg::LinalgOp op);

/// Chooses the filter rows and image rows of a convolution's register tile
/// whose loops have `rowExtent` and `imageRowExtent` iterations: each
/// divides its loop (the tile keeps static shapes without a split), there
/// are at most `maxImageRows` image rows, and the rows * imageRows
/// accumulators, an image vector per image row and one broadcast fit in
/// `registers`. Of those, the tile with the fewest loads (rows broadcasts
/// and imageRows vectors) per FMA; on a tie, the one with more
/// accumulators.
std::pair<int64_t, int64_t> planWindowRows(int64_t rowExtent,
                                           int64_t imageRowExtent,
                                           int64_t maxImageRows,
                                           int64_t registers);

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_TRANSFORMS_WINDOWTILE_H
