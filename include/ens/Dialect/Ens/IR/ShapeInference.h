//===- ShapeInference.h - Shared shape rules of ens ops ---------*- C++ -*-===//
//
// The shape rules of every ens op in one place. Op verifiers, type inference,
// the reference interpreter and the transforms all call these, so a rule is
// written once. Each function takes an optional location: with one, a
// failure emits a precise diagnostic there; without one, it fails silently.
//
// A size may be `?` (ShapedType::kDynamic): a check involving one passes and
// a result size that depends on one is `?` (docs/shapes.md).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_SHAPEINFERENCE_H
#define ENS_DIALECT_ENS_IR_SHAPEINFERENCE_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::ens {

using Shape = llvm::SmallVector<int64_t, 4>;

/// A parsed `ens.einsum` specification "<lhs>,<rhs>-><out>": one lower-case
/// label per dimension of each operand and of the result.
struct EinsumSpec {
  std::string lhs, rhs, out;

  /// Parses and checks the syntax of `spec`; shapes are checked by
  /// inferEinsumShape.
  static FailureOr<EinsumSpec> parse(llvm::StringRef spec,
                                     std::optional<Location> loc);
  /// Prints the spec in the attribute's syntax.
  std::string str() const;
};

/// Whether sizes `a` and `b` may be equal: they are, or either is `?`
/// (ShapedType::kDynamic), which every rule here treats as unknown.
bool isCompatibleSize(int64_t a, int64_t b);

/// The better known of two compatible sizes: the static one, if either is.
int64_t joinSizes(int64_t a, int64_t b);

/// Whether `a` and `b` have one rank and compatible sizes throughout.
bool isCompatibleShape(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Checks that `dim` indexes a tensor of rank `rank`; `what` names the
/// attribute in the diagnostic.
LogicalResult verifyDimInRange(std::optional<Location> loc,
                               llvm::StringRef what, int64_t dim, int64_t rank);

/// Checks that `dims` are distinct dimensions of a tensor of rank `rank`.
LogicalResult verifyDistinctDims(std::optional<Location> loc,
                                 llvm::StringRef what,
                                 llvm::ArrayRef<int64_t> dims, int64_t rank);

FailureOr<Shape> inferTransposeShape(std::optional<Location> loc,
                                     llvm::ArrayRef<int64_t> shape,
                                     llvm::ArrayRef<int64_t> permutation);

FailureOr<Shape> inferSliceShape(std::optional<Location> loc,
                                 llvm::ArrayRef<int64_t> shape,
                                 llvm::ArrayRef<int64_t> start,
                                 llvm::ArrayRef<int64_t> limit,
                                 llvm::ArrayRef<int64_t> stride);

FailureOr<Shape> inferPadShape(std::optional<Location> loc,
                               llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<int64_t> low,
                               llvm::ArrayRef<int64_t> high,
                               llvm::ArrayRef<int64_t> interior);

FailureOr<Shape> inferConcatShape(std::optional<Location> loc,
                                  llvm::ArrayRef<Shape> inputs, int64_t dim);

FailureOr<Shape> inferTakeShape(std::optional<Location> loc,
                                llvm::ArrayRef<int64_t> table,
                                llvm::ArrayRef<int64_t> indices, int64_t axis);

/// The shape left after removing `dims`.
FailureOr<Shape> inferReduceShape(std::optional<Location> loc,
                                  llvm::ArrayRef<int64_t> shape,
                                  llvm::ArrayRef<int64_t> dims);

FailureOr<Shape> inferEinsumShape(std::optional<Location> loc,
                                  const EinsumSpec &spec,
                                  llvm::ArrayRef<int64_t> lhs,
                                  llvm::ArrayRef<int64_t> rhs);

FailureOr<Shape> inferTensordotShape(std::optional<Location> loc,
                                     llvm::ArrayRef<int64_t> lhs,
                                     llvm::ArrayRef<int64_t> rhs,
                                     llvm::ArrayRef<int64_t> lhsDims,
                                     llvm::ArrayRef<int64_t> rhsDims);

FailureOr<Shape> inferMatmulShape(std::optional<Location> loc,
                                  llvm::ArrayRef<int64_t> lhs,
                                  llvm::ArrayRef<int64_t> rhs);

/// The dimension numbers and window of an `ens.conv`, with defaults filled
/// in (docs/convolution.md). `lhs`, `rhs` and `out` list the positions of
/// (batch, feature, spatial...), (output feature, input feature,
/// spatial...) and (batch, feature, spatial...) respectively.
struct ConvDims {
  Shape lhs, rhs, out;
  Shape strides, padding, lhsDilation, rhsDilation;
  int64_t groups = 1;

  /// The number of spatial dimensions.
  int64_t getSpatialRank() const {
    return static_cast<int64_t>(lhs.size()) - 2;
  }
};

/// The size of a dimension of `size` elements with `dilation - 1` zeros
/// between consecutive ones; the shared definition of the conv rules.
int64_t dilatedSize(int64_t size, int64_t dilation);

/// The result shape of an `ens.conv` of operands of shapes `lhs` and `rhs`.
/// Every failure is reported through `emitError` (which may be null, to
/// fail silently) with the attribute and sizes at fault.
FailureOr<Shape>
inferConvShape(llvm::function_ref<InFlightDiagnostic()> emitError,
               llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
               const ConvDims &dims);

/// The window of an `ens.reduce_window`, with defaults filled in: one size
/// and stride per dimension, and two padding amounts (low, high).
struct Window {
  Shape dimensions, strides, padding;
};

/// Whether the windows of an `ens.reduce_window` over an operand of `shape`
/// with a result of `resultShape` tile the operand: unpadded, each a stride
/// of its own size from the next, together covering every element once (as
/// 2x2 pooling with stride 2 does on an even image).
bool windowsTile(const Window &window, llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<int64_t> resultShape);

/// The result shape of an `ens.reduce_window` over an operand of `shape`,
/// with failures reported through `emitError` (which may be null).
FailureOr<Shape>
inferReduceWindowShape(llvm::function_ref<InFlightDiagnostic()> emitError,
                       llvm::ArrayRef<int64_t> shape, const Window &window);

LogicalResult verifyBroadcastInDim(std::optional<Location> loc,
                                   llvm::ArrayRef<int64_t> operand,
                                   llvm::ArrayRef<int64_t> result,
                                   llvm::ArrayRef<int64_t> dims);

} // namespace mlir::ens

#endif // ENS_DIALECT_ENS_IR_SHAPEINFERENCE_H
