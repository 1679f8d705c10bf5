//===- Utils.h - Builders shared by the ens-to-linalg lowering --*- C++ -*-===//
//
// Private to lib/Conversion/EnsToLinalg: the tensor, constant and
// linalg.generic builders that more than one op family uses.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_CONVERSION_ENSTOLINALG_UTILS_H
#define ENS_LIB_CONVERSION_ENSTOLINALG_UTILS_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::ens::lowering {

/// The ranked tensor type of `value`.
RankedTensorType tensorType(Value value);

/// Whether `type`, or its element type, is a float.
bool isFloat(Type type);

/// A scalar constant of `type` (float or integer).
Value scalar(OpBuilder &b, Location loc, Type type, double value);

/// An index constant.
Value index(OpBuilder &b, Location loc, int64_t value);

/// A tensor of `type` filled with `value`.
Value filled(OpBuilder &b, Location loc, RankedTensorType type, double value);

/// Maps the scalars of one element of each input to the result's element.
using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// A linalg.generic over `resultType`'s index space: input i is read through
/// `inputMaps[i]`, the result with the identity; `body` maps the scalars of
/// the inputs to the result's.
Value generic(OpBuilder &b, Location loc, RankedTensorType resultType,
              ValueRange inputs, ArrayRef<AffineMap> inputMaps, BodyFn body);

/// A zero-filled `resultType` accumulating lhs * rhs over `iterators`'
/// reduction loops: a linalg.generic reading lhs, rhs and the result
/// through `maps` (the contractions' and the convolutions' form).
Value multiplyAccumulate(OpBuilder &b, Location loc,
                         RankedTensorType resultType, Value lhs, Value rhs,
                         ArrayRef<AffineMap> maps,
                         ArrayRef<utils::IteratorType> iterators);

/// An elementwise linalg.generic: every input has the result's shape.
Value elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ValueRange inputs, BodyFn body);

/// The map reading a tensor reduced over `dims` (removed) from the index
/// space of the unreduced one of rank `rank`.
AffineMap reducedMap(OpBuilder &b, unsigned rank, ArrayRef<int64_t> dims);

/// The `linalg.index` of each of the `rank` loops of the enclosing generic.
SmallVector<Value> loopIndices(OpBuilder &b, Location loc, int64_t rank);

/// `source` inserted whole into `into` at `offsets` with `strides`.
Value insertSlice(OpBuilder &b, Location loc, Value source, Value into,
                  ArrayRef<int64_t> offsets, ArrayRef<int64_t> strides);

/// `x` reshaped to `type` in row-major order: collapsed to one dimension
/// (none for a scalar), then expanded.
Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType type);

} // namespace mlir::ens::lowering

#endif // ENS_LIB_CONVERSION_ENSTOLINALG_UTILS_H
