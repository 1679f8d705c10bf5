//===- MapEnsToScalarOp.h - ens ops as scalar arith and math ----*- C++ -*-===//
//
// Private to lib/Conversion/EnsToLinalg: what one element of an elementwise
// ens op computes, as arith and math ops on scalars. It is the body of the
// linalg.generic that lowers the op, and the other families reuse its pieces
// (a contraction's multiply-add, a reduction's combiner, a random draw's
// rounding) so that every family has the same scalar semantics.
//
// The semantics are the reference interpreter's (docs/semantics.md):
// integers wrap, max and min propagate NaN, float to i32 saturates and sends
// NaN to 0, anything to i1 is `x != 0`.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_CONVERSION_ENSTOLINALG_MAPENSTOSCALAROP_H
#define ENS_LIB_CONVERSION_ENSTOLINALG_MAPENSTOSCALAROP_H

#include "mlir/IR/Builders.h"

namespace mlir::ens::lowering {

/// The scalar computation of elementwise ens `op` (an op with the
/// Elementwise trait) on one element of each operand, `args`.
Value mapEnsOpToScalarOp(Operation *op, OpBuilder &b, Location loc,
                         ValueRange args);

/// `x + y`, wrapping for integers.
Value addScalar(OpBuilder &b, Location loc, Value x, Value y);

/// `x * y`, wrapping for integers.
Value mulScalar(OpBuilder &b, Location loc, Value x, Value y);

/// The maximum of `x` and `y`; NaN if either is NaN.
Value maxScalar(OpBuilder &b, Location loc, Value x, Value y);

/// `x` converted to `to` as `ens.convert` does.
Value convertScalar(OpBuilder &b, Location loc, Value x, Type to);

} // namespace mlir::ens::lowering

#endif // ENS_LIB_CONVERSION_ENSTOLINALG_MAPENSTOSCALAROP_H
