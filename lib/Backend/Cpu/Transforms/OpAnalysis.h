//===- OpAnalysis.h - What the CPU passes read from linalg ops --*- C++ -*-===//
//
// The facts about a linalg op that the CPU backend's tiling passes decide
// by: the loop a vector runs along, and whether the op is a convolution.
// EnsToLinalg lowers every convolution, whatever its layout, to one
// linalg.generic that multiplies and accumulates its image and filter
// operands, reading the image at `position * stride + tap * dilation`.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_TRANSFORMS_OPANALYSIS_H
#define ENS_LIB_BACKEND_CPU_TRANSFORMS_OPANALYSIS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::ens::cpu {

/// The loop that indexes the innermost (contiguous) dimension of `operand`,
/// if it is indexed by a loop alone.
std::optional<unsigned> innermostLoop(linalg::LinalgOp op, OpOperand &operand);

/// The loop to vectorize along: for a contraction, the innermost dimension
/// of the result (each step of the reduction is then an outer product);
/// otherwise the innermost dimension of the largest operand, so that most
/// memory is read and written as whole vectors. Results win ties.
std::optional<unsigned> pickVectorLoop(linalg::LinalgOp op, bool contraction);

/// Rows of vectors narrower than this many bits fill less than any vector
/// register: an elementwise op along such an innermost dimension vectorizes
/// along the next one too (contiguousOuterLoop), and ens-cpu-lower-vectors
/// computes such tiles as 1-D vectors.
inline constexpr unsigned kNarrowRowBits = 128;

/// For an elementwise op (every loop parallel, every operand read through
/// loops alone) whose result's innermost dimension is `vectorLoop`: the loop
/// of the result's second innermost dimension, if a vector may run along
/// both, the two read as one contiguous run. Each operand must read the two
/// loops as its two innermost dimensions, in that order, or `vectorLoop`
/// alone innermost (the other loop broadcast), or the outer loop alone
/// innermost (`vectorLoop` broadcast), or neither: nothing is gathered.
std::optional<unsigned> contiguousOuterLoop(linalg::LinalgOp op,
                                            unsigned vectorLoop);

/// The loop of a contraction's rows: the one that indexes the second
/// innermost dimension of its result, if that is a loop alone.
std::optional<unsigned> rowLoop(linalg::LinalgOp op);

/// The widest element type among the operands of `op` in bits, or nothing
/// if some operand cannot be vectorized: i1 is stored a byte per element,
/// but a vector of i1 would be stored a bit per element.
std::optional<unsigned> widestElementBits(linalg::LinalgOp op);

/// Whether the body of `op` is `out + in0 * in1` on floats, with one init:
/// the body that EnsToLinalg gives every contraction and convolution.
bool isMultiplyAccumulate(linalg::LinalgOp op);

/// The coefficient of each loop in `expr` if it is a sum of loops times
/// constants, as a window read is (`d3 * 2 + d6`); nothing otherwise.
std::optional<llvm::SmallDenseMap<unsigned, int64_t, 4>>
loopCoefficients(AffineExpr expr);

/// A multiply-accumulate whose first input, the image, is read through
/// sums of loops in some dimension (a window) and whose result is read
/// through loops alone: a convolution.
struct WindowOp {
  linalg::LinalgOp op;
  /// How the image, the filter and the result are read.
  AffineMap image, filter, result;
  /// The image's innermost dimension as coefficients of loops.
  llvm::SmallDenseMap<unsigned, int64_t, 4> innermostRead;
  /// The loop that indexes the result's innermost dimension.
  unsigned innermostResultLoop;

  /// `op` as a window op, if it is one.
  static std::optional<WindowOp> match(linalg::LinalgOp op);

  /// Whether the image's innermost dimension is read at `loop` with
  /// coefficient 1 and no other of its dimensions depends on `loop`, and
  /// the filter reads `loop`, if at all, as its innermost dimension alone:
  /// a vector along `loop` then reads both operands contiguously.
  bool readsContiguouslyAlong(unsigned loop) const;

  /// Whether the image does not read `loop` and the filter reads it as its
  /// innermost dimension alone: a vector along `loop` then reads the
  /// filter contiguously and each image element is broadcast (a filter
  /// gradient whose output gradient has its channels innermost).
  bool filterReadsContiguouslyAlong(unsigned loop) const;
};

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_TRANSFORMS_OPANALYSIS_H
