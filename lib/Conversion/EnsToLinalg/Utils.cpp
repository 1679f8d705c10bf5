//===- Utils.cpp - Builders shared by the ens-to-linalg lowering ----------===//

#include "Utils.h"

#include "MapEnsToScalarOp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

RankedTensorType lowering::tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

bool lowering::isFloat(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type));
}

Value lowering::scalar(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(floatType, value));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value lowering::index(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

Value lowering::filled(OpBuilder &b, Location loc, RankedTensorType type,
                       double value) {
  Value empty =
      b.create<tensor::EmptyOp>(loc, type.getShape(), type.getElementType());
  return b
      .create<linalg::FillOp>(loc, scalar(b, loc, type.getElementType(), value),
                              empty)
      .getResult(0);
}

Value lowering::generic(OpBuilder &b, Location loc, RankedTensorType resultType,
                        ValueRange inputs, ArrayRef<AffineMap> inputMaps,
                        BodyFn body) {
  unsigned rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = b.create<tensor::EmptyOp>(loc, resultType.getShape(),
                                         resultType.getElementType());
  return b
      .create<linalg::GenericOp>(
          loc, resultType, inputs, init, maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            nested.create<linalg::YieldOp>(
                nestedLoc, body(nested, nestedLoc, args.drop_back()));
          })
      .getResult(0);
}

Value lowering::multiplyAccumulate(OpBuilder &b, Location loc,
                                   RankedTensorType resultType, Value lhs,
                                   Value rhs, ArrayRef<AffineMap> maps,
                                   ArrayRef<utils::IteratorType> iterators) {
  return b
      .create<linalg::GenericOp>(
          loc, resultType, ValueRange{lhs, rhs}, filled(b, loc, resultType, 0),
          maps, iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value product = mulScalar(nb, nloc, args[0], args[1]);
            nb.create<linalg::YieldOp>(nloc,
                                       addScalar(nb, nloc, args[2], product));
          })
      .getResult(0);
}

Value lowering::elementwise(OpBuilder &b, Location loc,
                            RankedTensorType resultType, ValueRange inputs,
                            BodyFn body) {
  SmallVector<AffineMap> maps(inputs.size(),
                              b.getMultiDimIdentityMap(resultType.getRank()));
  return generic(b, loc, resultType, inputs, maps, body);
}

AffineMap lowering::reducedMap(OpBuilder &b, unsigned rank,
                               ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> results;
  for (unsigned d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      results.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(rank, 0, results, b.getContext());
}

SmallVector<Value> lowering::loopIndices(OpBuilder &b, Location loc,
                                         int64_t rank) {
  SmallVector<Value> at;
  for (int64_t d = 0; d < rank; ++d)
    at.push_back(b.create<linalg::IndexOp>(loc, d));
  return at;
}

Value lowering::reshapeTo(OpBuilder &b, Location loc, Value x,
                          RankedTensorType type) {
  RankedTensorType from = tensorType(x);
  if (from == type)
    return x;
  // Grouping every dim of a tensor of `rank` into one dim, or none to or
  // from a scalar.
  auto allInOne = [](int64_t rank, bool scalar) {
    if (scalar)
      return SmallVector<ReassociationIndices>{};
    ReassociationIndices group;
    for (int64_t d = 0; d < rank; ++d)
      group.push_back(d);
    return SmallVector<ReassociationIndices>{group};
  };
  if (from.getRank() > 1 || type.getRank() == 0)
    x = b.create<tensor::CollapseShapeOp>(
        loc, x, allInOne(from.getRank(), type.getRank() == 0));
  if (tensorType(x) == type)
    return x;
  return b.create<tensor::ExpandShapeOp>(
      loc, type, x, allInOne(type.getRank(), tensorType(x).getRank() == 0));
}

Value lowering::insertSlice(OpBuilder &b, Location loc, Value source,
                            Value into, ArrayRef<int64_t> offsets,
                            ArrayRef<int64_t> strides) {
  return b.create<tensor::InsertSliceOp>(
      loc, source, into, ValueRange{}, ValueRange{}, ValueRange{}, offsets,
      tensorType(source).getShape(), strides);
}
