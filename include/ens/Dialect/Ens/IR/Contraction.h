//===- Contraction.h - einsum, tensordot and matmul as one form -*- C++ -*-===//
//
// Every contraction op is an einsum once its broadcast dimensions are
// removed. Transforms that treat contractions uniformly (batching rules,
// vector-Jacobian products, lowering) work on this form.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_CONTRACTION_H
#define ENS_DIALECT_ENS_IR_CONTRACTION_H

#include "ens/Dialect/Ens/IR/ShapeInference.h"

#include "mlir/IR/Operation.h"

namespace mlir::ens {

/// A contraction as `einsum(reshape(lhs), reshape(rhs))` with `spec`, where
/// the reshapes drop the operand dimensions listed in `lhsDropped` and
/// `rhsDropped` (size-1 batch dimensions that matmul broadcasts).
struct EinsumForm {
  EinsumSpec spec;
  SmallVector<int64_t> lhsDropped, rhsDropped;
};

/// The einsum form of an `ens.einsum`, `ens.tensordot` or `ens.matmul`.
/// Fails with a diagnostic on the op when more than 26 labels are needed.
FailureOr<EinsumForm> getEinsumForm(Operation *contraction);

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_IR_CONTRACTION_H
