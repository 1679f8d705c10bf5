//===- Convolution.cpp - Lowering ens.conv and reduce_window to linalg ----===//
//
// ens.conv becomes one linalg.generic in the convolution form: a parallel
// loop per result dimension, then reduction loops over the input features
// of a group and the filter taps. The input is first dilated and padded by
// an ens.pad and cropped (negative padding) by an ens.slice, each lowered
// by its own pattern, so that every read is
// position * stride + tap * rhs_dilation. With feature groups, the input's
// feature, the filters' output-feature and the result's feature dimensions are
// reshaped to expose the group as a loop of its own. Any layout lowers to this
// one form, which the CPU and CUDA backends compile as they compile any
// linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "MapEnsToScalarOp.h"
#include "Patterns.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"
#include "ens/Support/HostTensor.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

/// `x` with dimension `dim` split into (`groups`, size / `groups`).
static Value splitGroups(OpBuilder &b, Location loc, Value x, int64_t dim,
                         int64_t groups) {
  RankedTensorType type = tensorType(x);
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] /= groups;
  shape.insert(shape.begin() + dim, groups);
  return reshapeTo(b, loc, x,
                   RankedTensorType::get(shape, type.getElementType()));
}

static FailureOr<Value> lowerConv(ConvOp op, ConvOp::Adaptor adaptor,
                                  OpBuilder &b) {
  Location loc = op.getLoc();
  ConvDims dims = op.getConvDims();
  int64_t rank = dims.lhs.size(), spatial = dims.getSpatialRank();
  int64_t groups = dims.groups;
  bool grouped = groups > 1;

  // The dilation and the padding are materialised: positive padding by an
  // ens.pad, negative padding (cropping) by an ens.slice, so that every
  // read is `position * stride + tap * rhs_dilation`, with no constant term.
  Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
  SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t d = dims.lhs[2 + i];
    low[d] = std::max<int64_t>(dims.padding[2 * i], 0);
    high[d] = std::max<int64_t>(dims.padding[2 * i + 1], 0);
    interior[d] = dims.lhsDilation[i] - 1;
  }
  auto isZero = [](ArrayRef<int64_t> values) {
    return llvm::all_of(values, [](int64_t v) { return v == 0; });
  };
  if (!isZero(low) || !isZero(high) || !isZero(interior))
    lhs = b.create<PadOp>(loc, lhs, low, high, interior);
  if (llvm::any_of(dims.padding, [](int64_t p) { return p < 0; })) {
    SmallVector<int64_t> start(rank, 0), limit(tensorType(lhs).getShape()),
        stride(rank, 1);
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t d = dims.lhs[2 + i];
      start[d] = std::min(std::max<int64_t>(-dims.padding[2 * i], 0), limit[d]);
      limit[d] = std::max(
          start[d], limit[d] - std::max<int64_t>(-dims.padding[2 * i + 1], 0));
    }
    lhs = b.create<SliceOp>(loc, lhs, start, limit, stride);
  }

  // Loops: batch, (group,) feature, the result's spatial dims, then the
  // input features of a group and the taps. The batch leads whatever the
  // result's layout: the CUDA backend shares a leading loop out over
  // threads, and that loop must read the input at a plain index.
  RankedTensorType type = op.getType();
  int64_t numOut = rank + grouped;
  int64_t featureLoop = numOut;
  auto spatialLoop = [&](int64_t i) { return 2 + grouped + i; };
  auto tapLoop = [&](int64_t i) { return numOut + 1 + i; };
  int64_t numLoops = numOut + 1 + spatial;
  auto dim = [&](int64_t loop) { return b.getAffineDimExpr(loop); };
  // The result feature's loops: (group, feature in group) or (feature).
  SmallVector<AffineExpr> outFeature{dim(1)};
  if (grouped)
    outFeature.push_back(dim(2));
  auto spatialIndex = [](ArrayRef<int64_t> roles, int64_t d) {
    return llvm::find(roles, d) - roles.begin() - 2;
  };

  SmallVector<AffineExpr> lhsExprs, rhsExprs, outExprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == dims.lhs[0]) {
      lhsExprs.push_back(dim(0));
    } else if (d == dims.lhs[1]) {
      if (grouped)
        lhsExprs.push_back(dim(1));
      lhsExprs.push_back(dim(featureLoop));
    } else {
      int64_t i = spatialIndex(dims.lhs, d);
      lhsExprs.push_back(dim(spatialLoop(i)) * dims.strides[i] +
                         dim(tapLoop(i)) * dims.rhsDilation[i]);
    }
    if (d == dims.rhs[0])
      llvm::append_range(rhsExprs, outFeature);
    else if (d == dims.rhs[1])
      rhsExprs.push_back(dim(featureLoop));
    else
      rhsExprs.push_back(dim(tapLoop(spatialIndex(dims.rhs, d))));
    if (d == dims.out[0])
      outExprs.push_back(dim(0));
    else if (d == dims.out[1])
      llvm::append_range(outExprs, outFeature);
    else
      outExprs.push_back(dim(spatialLoop(spatialIndex(dims.out, d))));
  }
  auto mapOf = [&](ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(numLoops, 0, exprs, b.getContext());
  };

  RankedTensorType outType = type;
  if (grouped) {
    lhs = splitGroups(b, loc, lhs, dims.lhs[1], groups);
    rhs = splitGroups(b, loc, rhs, dims.rhs[0], groups);
    SmallVector<int64_t> shape(type.getShape());
    shape[dims.out[1]] /= groups;
    shape.insert(shape.begin() + dims.out[1], groups);
    outType = RankedTensorType::get(shape, type.getElementType());
  }
  SmallVector<utils::IteratorType> iterators(numOut,
                                             utils::IteratorType::parallel);
  iterators.append(1 + spatial, utils::IteratorType::reduction);
  Value result = multiplyAccumulate(
      b, loc, outType, lhs, rhs,
      {mapOf(lhsExprs), mapOf(rhsExprs), mapOf(outExprs)}, iterators);
  return grouped ? reshapeTo(b, loc, result, type) : result;
}

/// Windows of at most this many taps that tile their operand combine one
/// strided slice per tap.
static constexpr int64_t kMaxSlicedTaps = 16;

/// A reduce_window whose windows tile the operand (2x2 pooling with stride
/// 2): one elementwise linalg.generic over the result combining, in the
/// window's row-major order from the reduction's identity, a strided slice
/// of the operand per tap. Each slice reads the operand through loops alone,
/// so the CPU backend vectorizes the op along the result's rows, where the
/// general form (a read at `position * stride + tap`) stays scalar.
static Value combineTapSlices(OpBuilder &b, Location loc, Value x,
                              RankedTensorType type, const Window &window,
                              bool isMax, double identity) {
  MLIRContext *context = b.getContext();
  SmallVector<Value> slices;
  forEachIndex(window.dimensions, [&](ArrayRef<int64_t> tap, int64_t) {
    slices.push_back(b.create<tensor::ExtractSliceOp>(
        loc, x, getAsIndexOpFoldResult(context, tap),
        getAsIndexOpFoldResult(context, type.getShape()),
        getAsIndexOpFoldResult(context, window.strides)));
  });
  return elementwise(
      b, loc, type, slices,
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value result = scalar(nb, nloc, type.getElementType(), identity);
        for (Value atTap : args.take_front(slices.size()))
          result = isMax ? maxScalar(nb, nloc, result, atTap)
                         : addScalar(nb, nloc, result, atTap);
        return result;
      });
}

/// One linalg.generic over the result's dims (parallel) and the window's
/// (reduction), reading the operand padded with the reduction's identity.
/// A window-shaped operand that the body ignores bounds the window loops,
/// as in linalg's named pooling ops.
static FailureOr<Value> lowerReduceWindow(ReduceWindowOp op,
                                          ReduceWindowOp::Adaptor adaptor,
                                          OpBuilder &b) {
  Location loc = op.getLoc();
  Window window = op.getWindow();
  bool isMax = op.getKind() == WindowKind::max;
  double identity = isMax ? -std::numeric_limits<double>::infinity() : 0;
  RankedTensorType type = op.getType();
  int64_t rank = type.getRank();
  Value x = adaptor.getOperand();
  if (windowsTile(window, tensorType(x).getShape(), type.getShape()) &&
      getNumElements(window.dimensions) <= kMaxSlicedTaps)
    return combineTapSlices(b, loc, x, type, window, isMax, identity);
  SmallVector<int64_t> low, paddedShape;
  for (int64_t d = 0; d < rank; ++d) {
    low.push_back(window.padding[2 * d]);
    paddedShape.push_back(tensorType(x).getDimSize(d) + low[d] +
                          window.padding[2 * d + 1]);
  }
  if (llvm::any_of(window.padding, [](int64_t p) { return p != 0; }))
    x = insertSlice(
        b, loc, x,
        filled(b, loc,
               RankedTensorType::get(paddedShape, type.getElementType()),
               identity),
        low, SmallVector<int64_t>(rank, 1));
  Value taps =
      b.create<tensor::EmptyOp>(loc, window.dimensions, type.getElementType());
  // The result's loops, the dims that are not pooled (window and stride
  // 1) first: the CUDA backend shares the leading loop out over threads,
  // and that loop must read the operand at a plain index.
  SmallVector<int64_t> loopOf(rank);
  int64_t next = 0;
  for (bool pooled : {false, true})
    for (int64_t d = 0; d < rank; ++d)
      if ((window.dimensions[d] != 1 || window.strides[d] != 1) == pooled)
        loopOf[d] = next++;
  SmallVector<AffineExpr> xExprs, tapExprs, outExprs;
  for (int64_t d = 0; d < rank; ++d) {
    xExprs.push_back(b.getAffineDimExpr(loopOf[d]) * window.strides[d] +
                     b.getAffineDimExpr(rank + d));
    tapExprs.push_back(b.getAffineDimExpr(rank + d));
    outExprs.push_back(b.getAffineDimExpr(loopOf[d]));
  }
  auto mapOf = [&](ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(2 * rank, 0, exprs, b.getContext());
  };
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(rank, utils::IteratorType::reduction);
  return b
      .create<linalg::GenericOp>(
          loc, type, ValueRange{x, taps}, filled(b, loc, type, identity),
          SmallVector<AffineMap>{mapOf(xExprs), mapOf(tapExprs),
                                 mapOf(outExprs)},
          iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            nb.create<linalg::YieldOp>(
                nloc, isMax ? maxScalar(nb, nloc, args[2], args[0])
                            : addScalar(nb, nloc, args[2], args[0]));
          })
      .getResult(0);
}

void lowering::populateEnsToLinalgConvolutionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<OpLowering<ConvOp, lowerConv>,
               OpLowering<ReduceWindowOp, lowerReduceWindow>>(
      patterns.getContext());
}
