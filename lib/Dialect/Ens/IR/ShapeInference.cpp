//===- ShapeInference.cpp - Shared shape rules of ens ops -----------------===//
//
// Every diagnostic names the offending attribute, dimension and sizes, so a
// user can fix the program from the message alone.
//
// A `?` size (ShapedType::kDynamic) is unknown: a check that involves one
// passes, and a result size computed from one is `?`. ens-specialize later
// re-runs these rules on concrete sizes, where every check applies.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/IR/ShapeInference.h"

#include "ens/Support/Sizes.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::ens;

/// Formats a list of integers as "[a, b, c]".
static std::string formatList(ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
  return text;
}

bool mlir::ens::isCompatibleSize(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

int64_t mlir::ens::joinSizes(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? b : a;
}

bool mlir::ens::isCompatibleShape(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip_equal(a, b), [](auto sizes) {
           return isCompatibleSize(std::get<0>(sizes), std::get<1>(sizes));
         });
}

LogicalResult mlir::ens::verifyDimInRange(std::optional<Location> loc,
                                          StringRef what, int64_t dim,
                                          int64_t rank) {
  if (dim >= 0 && dim < rank)
    return success();
  return emitOptionalError(loc, what, " ", dim,
                           " is out of range for a tensor of rank ", rank);
}

LogicalResult mlir::ens::verifyDistinctDims(std::optional<Location> loc,
                                            StringRef what,
                                            ArrayRef<int64_t> dims,
                                            int64_t rank) {
  llvm::SmallBitVector seen(rank);
  for (int64_t dim : dims) {
    if (failed(verifyDimInRange(loc, Twine(what + " entry").str(), dim, rank)))
      return failure();
    if (seen.test(dim))
      return emitOptionalError(loc, what, " ", formatList(dims),
                               " names dimension ", dim, " twice");
    seen.set(dim);
  }
  return success();
}

FailureOr<Shape> mlir::ens::inferTransposeShape(std::optional<Location> loc,
                                                ArrayRef<int64_t> shape,
                                                ArrayRef<int64_t> permutation) {
  if (permutation.size() != shape.size())
    return emitOptionalError(
        loc, "permutation ", formatList(permutation), " has ",
        permutation.size(), " entries but the operand has rank ", shape.size());
  if (failed(verifyDistinctDims(loc, "permutation", permutation, shape.size())))
    return failure();
  Shape result;
  for (int64_t dim : permutation)
    result.push_back(shape[dim]);
  return result;
}

/// Checks that each of the per-dimension attributes `names` has `rank`
/// entries.
static LogicalResult verifyOnePerDim(std::optional<Location> loc,
                                     StringRef names, size_t rank,
                                     ArrayRef<ArrayRef<int64_t>> lists) {
  if (llvm::all_of(lists,
                   [&](ArrayRef<int64_t> l) { return l.size() == rank; }))
    return success();
  std::string sizes;
  for (auto [i, list] : llvm::enumerate(lists))
    sizes += (i == 0                  ? ""
              : i + 1 == lists.size() ? " and "
                                      : ", ") +
             std::to_string(list.size());
  return emitOptionalError(loc, names,
                           " must have one entry per operand dimension (rank ",
                           rank, "), got ", sizes);
}

FailureOr<Shape> mlir::ens::inferSliceShape(std::optional<Location> loc,
                                            ArrayRef<int64_t> shape,
                                            ArrayRef<int64_t> start,
                                            ArrayRef<int64_t> limit,
                                            ArrayRef<int64_t> stride) {
  size_t rank = shape.size();
  if (failed(verifyOnePerDim(loc, "start, limit and stride", rank,
                             {start, limit, stride})))
    return failure();
  Shape result;
  for (size_t d = 0; d < rank; ++d) {
    if (stride[d] < 1)
      return emitOptionalError(loc, "stride ", stride[d], " of dimension ", d,
                               " must be at least 1");
    if (start[d] < 0 || start[d] > limit[d] ||
        (!ShapedType::isDynamic(shape[d]) && limit[d] > shape[d]))
      return emitOptionalError(loc, "dimension ", d, " of size ", shape[d],
                               " cannot be sliced from ", start[d], " to ",
                               limit[d], " (need 0 <= start <= limit <= size)");
    // ceil(extent / stride), written so that a huge stride cannot overflow.
    int64_t extent = limit[d] - start[d];
    result.push_back(extent == 0 ? 0 : (extent - 1) / stride[d] + 1);
  }
  return result;
}

FailureOr<Shape> mlir::ens::inferPadShape(std::optional<Location> loc,
                                          ArrayRef<int64_t> shape,
                                          ArrayRef<int64_t> low,
                                          ArrayRef<int64_t> high,
                                          ArrayRef<int64_t> interior) {
  size_t rank = shape.size();
  if (failed(verifyOnePerDim(loc, "low, high and interior", rank,
                             {low, high, interior})))
    return failure();
  Shape result;
  for (size_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0 || interior[d] < 0)
      return emitOptionalError(loc, "padding of dimension ", d,
                               " must be non-negative, got low ", low[d],
                               ", high ", high[d], ", interior ", interior[d]);
    if (ShapedType::isDynamic(shape[d])) {
      result.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t gaps = shape[d] > 0 ? shape[d] - 1 : 0;
    int64_t size;
    if (llvm::MulOverflow(gaps, interior[d], size) ||
        llvm::AddOverflow(size, low[d], size) ||
        llvm::AddOverflow(size, shape[d], size) ||
        llvm::AddOverflow(size, high[d], size))
      return emitOptionalError(loc, "padding dimension ", d, " of size ",
                               shape[d], " with low ", low[d], ", high ",
                               high[d], ", interior ", interior[d],
                               " overflows a 64-bit size");
    result.push_back(size);
  }
  return result;
}

FailureOr<Shape> mlir::ens::inferConcatShape(std::optional<Location> loc,
                                             ArrayRef<Shape> inputs,
                                             int64_t dim) {
  if (inputs.empty())
    return emitOptionalError(loc, "needs at least one input");
  const Shape &first = inputs.front();
  if (failed(verifyDimInRange(loc, "dim", dim, first.size())))
    return failure();
  Shape result = first;
  for (auto [i, input] : llvm::enumerate(inputs.drop_front())) {
    if (input.size() != first.size())
      return emitOptionalError(loc, "input ", i + 1, " has rank ", input.size(),
                               " but input 0 has rank ", first.size());
    for (size_t d = 0; d < first.size(); ++d) {
      if (static_cast<int64_t>(d) == dim)
        continue;
      if (!isCompatibleSize(input[d], result[d]))
        return emitOptionalError(loc, "input ", i + 1, " has size ", input[d],
                                 " in dimension ", d, " but input 0 has size ",
                                 result[d], " (only dimension ", dim,
                                 " may differ)");
      result[d] = joinSizes(result[d], input[d]);
    }
    if (ShapedType::isDynamic(result[dim]) || ShapedType::isDynamic(input[dim]))
      result[dim] = ShapedType::kDynamic;
    else if (llvm::AddOverflow(result[dim], input[dim], result[dim]))
      return emitOptionalError(loc, "the sizes of dimension ", dim,
                               " of the inputs overflow a 64-bit size");
  }
  return result;
}

FailureOr<Shape> mlir::ens::inferTakeShape(std::optional<Location> loc,
                                           ArrayRef<int64_t> table,
                                           ArrayRef<int64_t> indices,
                                           int64_t axis) {
  if (failed(verifyDimInRange(loc, "axis", axis, table.size())))
    return failure();
  if (table[axis] == 0)
    return emitOptionalError(loc, "cannot take from axis ", axis, " of size 0");
  Shape result(table.begin(), table.begin() + axis);
  result.append(indices.begin(), indices.end());
  result.append(table.begin() + axis + 1, table.end());
  return result;
}

FailureOr<Shape> mlir::ens::inferReduceShape(std::optional<Location> loc,
                                             ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> dims) {
  if (failed(verifyDistinctDims(loc, "dims", dims, shape.size())))
    return failure();
  Shape result;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      result.push_back(size);
  return result;
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// Checks that `labels` are lower-case and distinct; `part` names them.
static LogicalResult verifyLabels(std::optional<Location> loc, StringRef spec,
                                  StringRef part, StringRef labels) {
  for (auto [i, c] : llvm::enumerate(labels)) {
    if (c < 'a' || c > 'z')
      return emitOptionalError(loc, "einsum spec \"", spec, "\": ", part,
                               " label '", StringRef(&c, 1),
                               "' is not a lower-case letter");
    if (labels.find(c, i + 1) != StringRef::npos)
      return emitOptionalError(loc, "einsum spec \"", spec, "\": ", part,
                               " repeats label '", StringRef(&c, 1), "'");
  }
  return success();
}

FailureOr<EinsumSpec> EinsumSpec::parse(StringRef spec,
                                        std::optional<Location> loc) {
  auto [inputs, out] = spec.split("->");
  if (inputs.size() == spec.size())
    return emitOptionalError(loc, "einsum spec \"", spec,
                             "\" must have an explicit '->' and output");
  auto [lhs, rhs] = inputs.split(',');
  if (lhs.size() == inputs.size() || rhs.contains(','))
    return emitOptionalError(loc, "einsum spec \"", spec,
                             "\" must name exactly two operands");
  if (failed(verifyLabels(loc, spec, "lhs", lhs)) ||
      failed(verifyLabels(loc, spec, "rhs", rhs)) ||
      failed(verifyLabels(loc, spec, "output", out)))
    return failure();
  for (char c : out)
    if (!lhs.contains(c) && !rhs.contains(c))
      return emitOptionalError(loc, "einsum spec \"", spec,
                               "\": output label '", StringRef(&c, 1),
                               "' appears in no operand");
  return EinsumSpec{lhs.str(), rhs.str(), out.str()};
}

std::string EinsumSpec::str() const { return lhs + "," + rhs + "->" + out; }

FailureOr<Shape> mlir::ens::inferEinsumShape(std::optional<Location> loc,
                                             const EinsumSpec &spec,
                                             ArrayRef<int64_t> lhs,
                                             ArrayRef<int64_t> rhs) {
  if (spec.lhs.size() != lhs.size())
    return emitOptionalError(loc, "einsum spec \"", spec.str(), "\" gives ",
                             spec.lhs.size(), " labels for lhs of rank ",
                             lhs.size());
  if (spec.rhs.size() != rhs.size())
    return emitOptionalError(loc, "einsum spec \"", spec.str(), "\" gives ",
                             spec.rhs.size(), " labels for rhs of rank ",
                             rhs.size());
  for (auto [i, c] : llvm::enumerate(spec.lhs)) {
    size_t j = spec.rhs.find(c);
    if (j != std::string::npos && !isCompatibleSize(lhs[i], rhs[j]))
      return emitOptionalError(loc, "einsum label '", StringRef(&c, 1),
                               "' has size ", lhs[i], " in lhs dimension ", i,
                               " but size ", rhs[j], " in rhs dimension ", j);
  }
  Shape result;
  for (char c : spec.out) {
    size_t i = spec.lhs.find(c), j = spec.rhs.find(c);
    if (i == std::string::npos)
      result.push_back(rhs[j]);
    else
      result.push_back(j == std::string::npos ? lhs[i]
                                              : joinSizes(lhs[i], rhs[j]));
  }
  return result;
}

FailureOr<Shape> mlir::ens::inferTensordotShape(std::optional<Location> loc,
                                                ArrayRef<int64_t> lhs,
                                                ArrayRef<int64_t> rhs,
                                                ArrayRef<int64_t> lhsDims,
                                                ArrayRef<int64_t> rhsDims) {
  if (lhsDims.size() != rhsDims.size())
    return emitOptionalError(loc, "lhs_dims ", formatList(lhsDims),
                             " and rhs_dims ", formatList(rhsDims),
                             " must have the same length");
  if (failed(verifyDistinctDims(loc, "lhs_dims", lhsDims, lhs.size())) ||
      failed(verifyDistinctDims(loc, "rhs_dims", rhsDims, rhs.size())))
    return failure();
  for (auto [l, r] : llvm::zip(lhsDims, rhsDims))
    if (!isCompatibleSize(lhs[l], rhs[r]))
      return emitOptionalError(loc, "contracted lhs dimension ", l,
                               " has size ", lhs[l], " but rhs dimension ", r,
                               " has size ", rhs[r]);
  Shape result;
  for (auto [d, size] : llvm::enumerate(lhs))
    if (!llvm::is_contained(lhsDims, static_cast<int64_t>(d)))
      result.push_back(size);
  for (auto [d, size] : llvm::enumerate(rhs))
    if (!llvm::is_contained(rhsDims, static_cast<int64_t>(d)))
      result.push_back(size);
  return result;
}

FailureOr<Shape> mlir::ens::inferMatmulShape(std::optional<Location> loc,
                                             ArrayRef<int64_t> lhs,
                                             ArrayRef<int64_t> rhs) {
  if (lhs.empty() || rhs.empty())
    return emitOptionalError(loc,
                             "matmul operands must have rank at least 1, "
                             "got ranks ",
                             lhs.size(), " and ", rhs.size());
  Shape l(lhs.begin(), lhs.end()), r(rhs.begin(), rhs.end());
  bool lhsVector = l.size() == 1, rhsVector = r.size() == 1;
  if (lhsVector)
    l.insert(l.begin(), 1);
  if (rhsVector)
    r.push_back(1);
  int64_t k = l.back(), kr = r[r.size() - 2];
  if (!isCompatibleSize(k, kr))
    return emitOptionalError(loc, "matmul contracts lhs dimension ",
                             lhs.size() - 1, " of size ", k,
                             " with rhs dimension ",
                             rhsVector ? 0 : rhs.size() - 2, " of size ", kr);
  ArrayRef<int64_t> lb = ArrayRef<int64_t>(l).drop_back(2);
  ArrayRef<int64_t> rb = ArrayRef<int64_t>(r).drop_back(2);
  size_t batchRank = std::max(lb.size(), rb.size());
  Shape result;
  for (size_t i = 0; i < batchRank; ++i) {
    int64_t a = i + lb.size() >= batchRank ? lb[i + lb.size() - batchRank] : 1;
    int64_t b = i + rb.size() >= batchRank ? rb[i + rb.size() - batchRank] : 1;
    if (!isCompatibleSize(a, b) && a != 1 && b != 1)
      return emitOptionalError(loc, "matmul batch dimensions ", formatShape(lb),
                               " and ", formatShape(rb),
                               " do not broadcast: sizes ", a, " and ", b);
    // A `?` against a size n other than 1 is 1 or n, so broadcasts to n.
    bool takeB = a == 1 || (ShapedType::isDynamic(a) && b != 1);
    result.push_back(takeB ? b : a);
  }
  if (!lhsVector)
    result.push_back(l[l.size() - 2]);
  if (!rhsVector)
    result.push_back(r.back());
  return result;
}

LogicalResult mlir::ens::verifyBroadcastInDim(std::optional<Location> loc,
                                              ArrayRef<int64_t> operand,
                                              ArrayRef<int64_t> result,
                                              ArrayRef<int64_t> dims) {
  if (dims.size() != operand.size())
    return emitOptionalError(loc, "dims ", formatList(dims), " has ",
                             dims.size(), " entries but the operand has rank ",
                             operand.size());
  if (failed(verifyDistinctDims(loc, "dims", dims, result.size())))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims))
    if (operand[i] != 1 && !isCompatibleSize(operand[i], result[d]))
      return emitOptionalError(loc, "operand dimension ", i, " of size ",
                               operand[i],
                               " cannot broadcast to result "
                               "dimension ",
                               d, " of size ", result[d]);
  return success();
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

int64_t mlir::ens::dilatedSize(int64_t size, int64_t dilation) {
  return size == 0 ? 0 : (size - 1) * dilation + 1;
}

/// Checks that `dims`, the attribute `name`, lists `rank` distinct
/// dimensions of an operand of that rank.
static LogicalResult
verifyConvRoles(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                StringRef operand, ArrayRef<int64_t> dims, int64_t rank) {
  if (static_cast<int64_t>(dims.size()) != rank)
    return emitError ? emitError() << name << " must have " << rank
                                   << " entries, one per " << operand
                                   << " dimension, got " << dims.size()
                     : failure();
  llvm::SmallBitVector seen(rank);
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      return emitError ? emitError() << name << " entry " << dim
                                     << " is out of range for " << operand
                                     << " of rank " << rank
                       : failure();
    if (seen.test(dim))
      return emitError ? emitError() << name << " " << formatList(dims)
                                     << " names dimension " << dim << " twice"
                       : failure();
    seen.set(dim);
  }
  return success();
}

/// Checks that the window attribute `name` has an entry per dimension of
/// `dims` (two, low and high, when `pairs`), each at least `min` (none for
/// conv padding, whose negative amounts crop).
static LogicalResult
verifyWindowAttr(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                 ArrayRef<int64_t> values, int64_t count,
                 std::optional<int64_t> min, StringRef dims,
                 bool pairs = false) {
  if (static_cast<int64_t>(values.size()) != count)
    return emitError ? emitError()
                           << name << " must have " << count << " entries for "
                           << (pairs ? "the low and high ends of " : "") << dims
                           << ", got " << values.size()
                     : failure();
  for (auto [i, value] : llvm::enumerate(values))
    if (min && value < *min)
      return emitError ? emitError()
                             << name << " entry " << i << " must be at least "
                             << *min << ", got " << value
                       : failure();
  return success();
}

FailureOr<Shape>
mlir::ens::inferConvShape(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                          const ConvDims &dims) {
  int64_t rank = lhs.size();
  if (static_cast<int64_t>(rhs.size()) != rank)
    return emitError ? emitError()
                           << "lhs has rank " << rank << " but rhs has rank "
                           << rhs.size() << "; both have one dimension per "
                           << "role and the same spatial dimensions"
                     : failure();
  if (rank < 2)
    return emitError ? emitError()
                           << "operands must have rank at least 2 (batch "
                              "and feature), got rank "
                           << rank
                     : failure();
  if (failed(verifyConvRoles(emitError, "lhs_dims", "lhs", dims.lhs, rank)) ||
      failed(verifyConvRoles(emitError, "rhs_dims", "rhs", dims.rhs, rank)) ||
      failed(verifyConvRoles(emitError, "out_dims", "result", dims.out, rank)))
    return failure();
  int64_t spatial = rank - 2;
  StringRef spatialDims = "the spatial dimensions";
  if (failed(verifyWindowAttr(emitError, "window_strides", dims.strides,
                              spatial, 1, spatialDims)) ||
      failed(verifyWindowAttr(emitError, "padding", dims.padding, 2 * spatial,
                              std::nullopt, spatialDims, /*pairs=*/true)) ||
      failed(verifyWindowAttr(emitError, "lhs_dilation", dims.lhsDilation,
                              spatial, 1, spatialDims)) ||
      failed(verifyWindowAttr(emitError, "rhs_dilation", dims.rhsDilation,
                              spatial, 1, spatialDims)))
    return failure();
  int64_t groups = dims.groups;
  if (groups < 1)
    return emitError ? emitError()
                           << "feature_group_count must be at least 1, got "
                           << groups
                     : failure();

  int64_t features = lhs[dims.lhs[1]];
  if (!ShapedType::isDynamic(features) && features % groups != 0)
    return emitError ? emitError() << "lhs feature dimension " << dims.lhs[1]
                                   << " has size " << features
                                   << ", which feature_group_count " << groups
                                   << " does not divide"
                     : failure();
  int64_t groupFeatures = ShapedType::isDynamic(features) ? ShapedType::kDynamic
                                                          : features / groups;
  if (!isCompatibleSize(rhs[dims.rhs[1]], groupFeatures))
    return emitError ? emitError()
                           << "rhs input-feature dimension " << dims.rhs[1]
                           << " has size " << rhs[dims.rhs[1]]
                           << " but the lhs feature size " << features
                           << " / feature_group_count " << groups << " is "
                           << groupFeatures
                     : failure();
  int64_t outFeatures = rhs[dims.rhs[0]];
  if (!ShapedType::isDynamic(outFeatures) && outFeatures % groups != 0)
    return emitError ? emitError() << "rhs output-feature dimension "
                                   << dims.rhs[0] << " has size " << outFeatures
                                   << ", which feature_group_count " << groups
                                   << " does not divide"
                     : failure();

  Shape result(rank);
  result[dims.out[0]] = lhs[dims.lhs[0]];
  result[dims.out[1]] = outFeatures;
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = lhs[dims.lhs[2 + i]], k = rhs[dims.rhs[2 + i]];
    int64_t &size = result[dims.out[2 + i]];
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k)) {
      size = ShapedType::kDynamic;
      continue;
    }
    // In 128 bits, so that no attribute can overflow the arithmetic.
    __int128 dilatedIn =
        in == 0 ? 0 : (__int128(in) - 1) * dims.lhsDilation[i] + 1;
    __int128 padded = dilatedIn + dims.padding[2 * i] + dims.padding[2 * i + 1];
    __int128 window = k == 0 ? 0 : (__int128(k) - 1) * dims.rhsDilation[i] + 1;
    __int128 positions =
        padded < window ? 0 : (padded - window) / dims.strides[i] + 1;
    if (padded > std::numeric_limits<int64_t>::max() ||
        window > std::numeric_limits<int64_t>::max() ||
        positions > std::numeric_limits<int64_t>::max())
      return emitError ? emitError() << "spatial dimension " << i
                                     << " overflows a 64-bit size when dilated "
                                        "and padded"
                       : failure();
    size = static_cast<int64_t>(positions);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

bool mlir::ens::windowsTile(const Window &window, ArrayRef<int64_t> shape,
                            ArrayRef<int64_t> resultShape) {
  for (auto [d, size] : llvm::enumerate(shape))
    if (window.padding[2 * d] != 0 || window.padding[2 * d + 1] != 0 ||
        window.strides[d] != window.dimensions[d] ||
        resultShape[d] * window.dimensions[d] != size)
      return false;
  return true;
}

FailureOr<Shape>
mlir::ens::inferReduceWindowShape(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape,
                                  const Window &window) {
  int64_t rank = shape.size();
  StringRef allDims = "the operand dimensions";
  if (failed(verifyWindowAttr(emitError, "window_dimensions", window.dimensions,
                              rank, 1, allDims)) ||
      failed(verifyWindowAttr(emitError, "window_strides", window.strides, rank,
                              1, allDims)) ||
      failed(verifyWindowAttr(emitError, "padding", window.padding, 2 * rank, 0,
                              allDims, /*pairs=*/true)))
    return failure();
  Shape result;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = window.dimensions[d];
    int64_t lo = window.padding[2 * d], hi = window.padding[2 * d + 1];
    // Padding below the window keeps an operand element in every window,
    // which the max adjoint and the average's count rely on.
    if (lo >= size || hi >= size)
      return emitError ? emitError()
                             << "padding (" << lo << ", " << hi
                             << ") of dimension " << d
                             << " must be below the window size " << size
                       : failure();
    if (ShapedType::isDynamic(shape[d])) {
      result.push_back(ShapedType::kDynamic);
      continue;
    }
    __int128 padded = __int128(shape[d]) + lo + hi;
    if (padded < size)
      return emitError ? emitError()
                             << "window of size " << size
                             << " does not fit dimension " << d << " of size "
                             << shape[d] << " padded to " << (int64_t)padded
                       : failure();
    result.push_back(
        static_cast<int64_t>((padded - size) / window.strides[d] + 1));
  }
  return result;
}
