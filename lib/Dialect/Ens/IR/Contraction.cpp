//===- Contraction.cpp - einsum, tensordot and matmul as one form ---------===//

#include "ens/Dialect/Ens/IR/Contraction.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ens;

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Letters for labels numbered 0, 1, ...
static FailureOr<std::string> toLetters(Operation *op,
                                        ArrayRef<int64_t> labels) {
  std::string letters;
  for (int64_t label : labels) {
    if (label >= 26)
      return op->emitOpError() << "needs more than 26 einsum labels";
    letters.push_back(static_cast<char>('a' + label));
  }
  return letters;
}

static FailureOr<EinsumForm> makeForm(Operation *op, ArrayRef<int64_t> lhs,
                                      ArrayRef<int64_t> rhs,
                                      ArrayRef<int64_t> out) {
  FailureOr<std::string> l = toLetters(op, lhs), r = toLetters(op, rhs),
                         o = toLetters(op, out);
  if (failed(l) || failed(r) || failed(o))
    return failure();
  return EinsumForm{EinsumSpec{*l, *r, *o}, {}, {}};
}

/// tensordot: lhs dimension d has label d; a contracted rhs dimension shares
/// its lhs partner's label, a free one gets lhsRank + d.
static FailureOr<EinsumForm> tensordotForm(TensordotOp dot) {
  int64_t lhsRank = shapeOf(dot.getLhs()).size();
  int64_t rhsRank = shapeOf(dot.getRhs()).size();
  ArrayRef<int64_t> lhsDims = dot.getLhsDims(), rhsDims = dot.getRhsDims();
  SmallVector<int64_t> lhs, rhs, out;
  for (int64_t d = 0; d < lhsRank; ++d) {
    lhs.push_back(d);
    if (!llvm::is_contained(lhsDims, d))
      out.push_back(d);
  }
  for (int64_t d = 0; d < rhsRank; ++d) {
    const int64_t *pair = llvm::find(rhsDims, d);
    bool contracted = pair != rhsDims.end();
    rhs.push_back(contracted ? lhsDims[pair - rhsDims.begin()] : lhsRank + d);
    if (!contracted)
      out.push_back(lhsRank + d);
  }
  return makeForm(dot, lhs, rhs, out);
}

/// matmul: batch dims get labels 0..B-1 (right-aligned), then m, k, n. A
/// rank-1 operand contributes only k; a size-1 batch dim that broadcasts
/// against a larger one is dropped.
static FailureOr<EinsumForm> matmulForm(MatmulOp matmul) {
  ArrayRef<int64_t> lhsShape = shapeOf(matmul.getLhs());
  ArrayRef<int64_t> rhsShape = shapeOf(matmul.getRhs());
  ArrayRef<int64_t> outShape = shapeOf(matmul.getResult());
  bool lhsVector = lhsShape.size() == 1, rhsVector = rhsShape.size() == 1;
  int64_t batch =
      static_cast<int64_t>(outShape.size()) - !lhsVector - !rhsVector;
  int64_t m = batch, k = batch + 1, n = batch + 2;
  auto labelsOf = [&](ArrayRef<int64_t> shape, ArrayRef<int64_t> matrix,
                      SmallVector<int64_t> &dropped) {
    SmallVector<int64_t> labels;
    int64_t operandBatch = shape.size() - matrix.size();
    for (int64_t d = 0; d < operandBatch; ++d) {
      int64_t label = batch - operandBatch + d;
      if (shape[d] == 1 && outShape[label] != 1)
        dropped.push_back(d);
      else
        labels.push_back(label);
    }
    labels.append(matrix.begin(), matrix.end());
    return labels;
  };
  SmallVector<int64_t> lhsDropped, rhsDropped;
  SmallVector<int64_t> lhs = labelsOf(
      lhsShape, lhsVector ? ArrayRef<int64_t>{k} : ArrayRef<int64_t>{m, k},
      lhsDropped);
  SmallVector<int64_t> rhs = labelsOf(
      rhsShape, rhsVector ? ArrayRef<int64_t>{k} : ArrayRef<int64_t>{k, n},
      rhsDropped);
  auto out = llvm::to_vector(llvm::seq<int64_t>(0, batch));
  if (!lhsVector)
    out.push_back(m);
  if (!rhsVector)
    out.push_back(n);
  FailureOr<EinsumForm> form = makeForm(matmul, lhs, rhs, out);
  if (succeeded(form)) {
    form->lhsDropped = std::move(lhsDropped);
    form->rhsDropped = std::move(rhsDropped);
  }
  return form;
}

FailureOr<EinsumForm> mlir::ens::getEinsumForm(Operation *contraction) {
  return llvm::TypeSwitch<Operation *, FailureOr<EinsumForm>>(contraction)
      .Case([](EinsumOp einsum) -> FailureOr<EinsumForm> {
        FailureOr<EinsumSpec> spec =
            EinsumSpec::parse(einsum.getSpec(), einsum.getLoc());
        if (failed(spec))
          return failure();
        return EinsumForm{*spec, {}, {}};
      })
      .Case(tensordotForm)
      .Case(matmulForm)
      .Default([](Operation *op) {
        return op->emitOpError() << "is not a contraction";
      });
}
