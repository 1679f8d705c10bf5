//===- PartialResults.h - Reductions split into partial results -*- C++ -*-===//
//
// What the CPU passes that split a reduction share: the op that combines
// each step into the reduction's result, partial results that start from
// its neutral element, and the reduction of those partial results into the
// original accumulator.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_TRANSFORMS_PARTIALRESULTS_H
#define ENS_LIB_BACKEND_CPU_TRANSFORMS_PARTIALRESULTS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::ens::cpu {

/// The single op that combines each step of a reduction into its result,
/// and that op's neutral element (an add's 0, a max's -inf).
struct Combiner {
  Operation *op;
  TypedAttr neutral;

  /// The combiner of `op`, if `op` has one init, into which its body
  /// combines with a single op that has a neutral element.
  static std::optional<Combiner> match(linalg::GenericOp op);

  /// A tensor of `shape` and `elementType` filled with the neutral element:
  /// the start of partial results.
  Value createNeutral(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                      Type elementType) const;

  /// Combines dimension `dim` of `partial` into `accumulator`, whose shape
  /// is `partial`'s without `dim`.
  Value combine(OpBuilder &b, Location loc, Value partial, unsigned dim,
                Value accumulator) const;
};

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_TRANSFORMS_PARTIALRESULTS_H
