//===- Contraction.cpp - Lowering ens contractions to linalg --------------===//
//
// einsum, tensordot and matmul share one einsum form (ens/Dialect/Ens/IR/
// Contraction.h) and become one linalg.generic: a loop per output label
// (parallel, in output order) then a loop per summed label (reduction),
// accumulating products into zeros.
//
//===----------------------------------------------------------------------===//

#include "MapEnsToScalarOp.h"
#include "Patterns.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/Contraction.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

/// `x` without its dimensions `dims`, which have size 1.
static Value dropDims(OpBuilder &b, Location loc, Value x,
                      ArrayRef<int64_t> dims) {
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(tensorType(x).getShape()))
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      shape.push_back(size);
  return reshapeTo(
      b, loc, x, RankedTensorType::get(shape, tensorType(x).getElementType()));
}

/// Fails, with the diagnostic of getEinsumForm, when the contraction needs
/// more labels than the einsum form has letters.
template <typename OpTy>
static FailureOr<Value>
lowerContraction(OpTy op, typename OpTy::Adaptor adaptor, OpBuilder &b) {
  FailureOr<EinsumForm> form = getEinsumForm(op);
  if (failed(form))
    return failure();
  Location loc = op.getLoc();
  Value lhs = dropDims(b, loc, adaptor.getLhs(), form->lhsDropped);
  Value rhs = dropDims(b, loc, adaptor.getRhs(), form->rhsDropped);
  const EinsumSpec &spec = form->spec;
  // Loop d iterates label labels[d]: the output's labels, then the summed.
  std::string labels = spec.out;
  for (char c : spec.lhs + spec.rhs)
    if (labels.find(c) == std::string::npos)
      labels.push_back(c);
  auto mapOf = [&](StringRef operandLabels) {
    SmallVector<AffineExpr> exprs;
    for (char c : operandLabels)
      exprs.push_back(b.getAffineDimExpr(labels.find(c)));
    return AffineMap::get(labels.size(), 0, exprs, b.getContext());
  };
  SmallVector<utils::IteratorType> iterators;
  for (size_t i = 0; i < labels.size(); ++i)
    iterators.push_back(i < spec.out.size() ? utils::IteratorType::parallel
                                            : utils::IteratorType::reduction);
  return multiplyAccumulate(b, loc, op.getType(), lhs, rhs,
                            {mapOf(spec.lhs), mapOf(spec.rhs), mapOf(spec.out)},
                            iterators);
}

void lowering::populateEnsToLinalgContractionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<OpLowering<EinsumOp, lowerContraction<EinsumOp>>,
               OpLowering<TensordotOp, lowerContraction<TensordotOp>>,
               OpLowering<MatmulOp, lowerContraction<MatmulOp>>>(
      patterns.getContext());
}
