//===- PartialResults.cpp - Reductions split into partial results --------===//
//
// The combiner of a reduction, its neutral start and the combination of
// partial results, which ens-cpu-split-reductions and
// ens-cpu-reduce-in-loops share (PartialResults.h).
//
//===----------------------------------------------------------------------===//

#include "PartialResults.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cpu;

std::optional<Combiner> Combiner::match(linalg::GenericOp op) {
  SmallVector<Operation *, 4> combiners;
  if (op.getNumDpsInits() != 1 ||
      !matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return std::nullopt;
  std::optional<TypedAttr> neutral =
      arith::getNeutralElement(combiners.front());
  if (!neutral)
    return std::nullopt;
  return Combiner{combiners.front(), *neutral};
}

Value Combiner::createNeutral(OpBuilder &b, Location loc,
                              ArrayRef<int64_t> shape, Type elementType) const {
  Value identity = b.create<arith::ConstantOp>(loc, neutral);
  Value empty = b.create<tensor::EmptyOp>(loc, shape, elementType);
  return b.create<linalg::FillOp>(loc, identity, empty).getResult(0);
}

Value Combiner::combine(OpBuilder &b, Location loc, Value partial, unsigned dim,
                        Value accumulator) const {
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(partial.getType());
  int64_t rank = type.getRank();
  AffineMap all = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<AffineExpr> kept(all.getResults());
  kept.erase(kept.begin() + dim);
  // Built from its results, not getMajorSubMap: a reduction to a scalar
  // combines into a map of no results, and getMajorSubMap(0) is null.
  SmallVector<AffineMap> maps{all, AffineMap::get(rank, 0, kept, context)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[dim] = utils::IteratorType::reduction;
  auto combined = b.create<linalg::GenericOp>(
      loc, accumulator.getType(), partial, accumulator, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Operation *step = nb.create(nloc, op->getName().getIdentifier(),
                                    ValueRange{args[1], args[0]},
                                    op->getResultTypes(), op->getAttrs());
        nb.create<linalg::YieldOp>(nloc, step->getResult(0));
      });
  return combined.getResult(0);
}
