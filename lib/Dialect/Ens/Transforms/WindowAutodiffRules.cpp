//===- WindowAutodiffRules.cpp - VJPs of conv and reduce_window -----------===//
//
// The adjoints of the sliding-window ops, built from ens ops so that they
// batch, lower and differentiate again like any other program
// (docs/autodiff.md).
//
//===----------------------------------------------------------------------===//

#include "AutodiffEmitter.h"

#include "ens/Dialect/Ens/Transforms/Batching.h"
#include "ens/Support/HostTensor.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::autodiff;

namespace {

//===----------------------------------------------------------------------===//
// Convolutions: both adjoints are convolutions (docs/autodiff.md)
//===----------------------------------------------------------------------===//

/// `x` reversed along dimension `dim`, by a take of constant indices.
Value reverseDim(Emitter &e, Value x, int64_t dim) {
  int64_t size = shapeOf(x)[dim];
  if (size <= 1)
    return x;
  SmallVector<int32_t> indices;
  for (int64_t i = size - 1; i >= 0; --i)
    indices.push_back(static_cast<int32_t>(i));
  Value reversed = e.b.create<ConstantOp>(
      e.loc,
      DenseElementsAttr::get(RankedTensorType::get({size}, e.b.getI32Type()),
                             ArrayRef<int32_t>(indices)));
  return e.b.create<TakeOp>(e.loc, x, reversed, dim);
}

/// `first, second, spatial...` as the roles of a transposed convolution.
Shape roles(int64_t first, int64_t second, ArrayRef<int64_t> dims) {
  Shape result{first, second};
  llvm::append_range(result, dims.drop_front(2));
  return result;
}

Grads conv(ConvOp op, Emitter &e, Value g) {
  ConvDims dims = op.getConvDims();
  int64_t groups = dims.groups, spatial = dims.getSpatialRank();
  ArrayRef<int64_t> lhsShape = shapeOf(op.getLhs());
  ArrayRef<int64_t> rhsShape = shapeOf(op.getRhs());
  ArrayRef<int64_t> outShape = shapeOf(g);
  Shape lhsPadding, rhsPadding;
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = dilatedSize(lhsShape[dims.lhs[2 + i]], dims.lhsDilation[i]);
    int64_t window =
        dilatedSize(rhsShape[dims.rhs[2 + i]], dims.rhsDilation[i]);
    int64_t out = dilatedSize(outShape[dims.out[2 + i]], dims.strides[i]);
    int64_t lo = dims.padding[2 * i];
    // The input adjoint runs the reversed window over the output adjoint
    // dilated by the strides; these pads realign it with the input.
    int64_t before = window - 1 - lo;
    lhsPadding.append({before, in + window - 1 - out - before});
    // The filter adjoint runs the output adjoint over the padded input; the
    // high pad makes exactly the filter's taps.
    rhsPadding.append({lo, out - in + window - lo - 1});
  }

  // Input adjoint: the output adjoint convolved with the spatially reversed
  // filters, their feature roles swapped. With groups, each group's output
  // features become input features of that group: the group count moves
  // from the filters' output-feature dim into their input-feature dim.
  Value filters = op.getRhs();
  if (groups > 1) {
    int64_t o = dims.rhs[0], i = dims.rhs[1];
    filters = splitDim(e.b, e.loc, filters, o, groups);
    filters = mergeDimInto(e.b, e.loc, filters, o, i < o ? i : i + 1);
  }
  for (int64_t dim : ArrayRef<int64_t>(dims.rhs).drop_front(2))
    filters = reverseDim(e, filters, dim);
  ConvDims lhsAdjoint;
  lhsAdjoint.lhs = dims.out;
  lhsAdjoint.rhs = roles(dims.rhs[1], dims.rhs[0], dims.rhs);
  lhsAdjoint.out = dims.lhs;
  lhsAdjoint.strides = dims.lhsDilation;
  lhsAdjoint.padding = lhsPadding;
  lhsAdjoint.lhsDilation = dims.strides;
  lhsAdjoint.rhsDilation = dims.rhsDilation;
  lhsAdjoint.groups = groups;
  Value lhsGrad = e.b.create<ConvOp>(e.loc, g, filters, lhsAdjoint);

  // Filter adjoint: the input convolved with the output adjoint, batch and
  // feature roles swapped so that the batch is summed. With groups, the
  // group count moves from the input's feature dim into its batch dim, so
  // that each group of output features meets only its own input features.
  Value input = op.getLhs();
  if (groups > 1) {
    int64_t f = dims.lhs[1], b = dims.lhs[0];
    input = splitDim(e.b, e.loc, input, f, groups);
    input = mergeDimInto(e.b, e.loc, input, f, b < f ? b : b + 1);
  }
  ConvDims rhsAdjoint;
  rhsAdjoint.lhs = roles(dims.lhs[1], dims.lhs[0], dims.lhs);
  rhsAdjoint.rhs = roles(dims.out[1], dims.out[0], dims.out);
  rhsAdjoint.out = roles(dims.rhs[1], dims.rhs[0], dims.rhs);
  rhsAdjoint.strides = dims.rhsDilation;
  rhsAdjoint.padding = rhsPadding;
  rhsAdjoint.lhsDilation = dims.lhsDilation;
  rhsAdjoint.rhsDilation = dims.strides;
  rhsAdjoint.groups = groups;
  Value rhsGrad = e.b.create<ConvOp>(e.loc, input, g, rhsAdjoint);
  return SmallVector<Value>{lhsGrad, rhsGrad};
}

//===----------------------------------------------------------------------===//
// Pooling: the sum's adjoint is a sum over windows of the spread output
// adjoint; the max's routes each window's adjoint to its first maximum.
//===----------------------------------------------------------------------===//

/// `g`, whose elements belong to windows `stride` apart, spread to the
/// padded operand's positions of tap `start` of each window.
Value spread(Emitter &e, Value g, ArrayRef<int64_t> start,
             ArrayRef<int64_t> stride, ArrayRef<int64_t> padded) {
  SmallVector<int64_t> high, interior;
  for (auto [d, size] : llvm::enumerate(shapeOf(g))) {
    interior.push_back(stride[d] - 1);
    high.push_back(padded[d] - start[d] - ((size - 1) * stride[d] + 1));
  }
  return e.b.create<PadOp>(e.loc, g, start, high, interior);
}

/// Each window's least row-major tap position holding its maximum `y`, or
/// the number of taps where none does (a NaN), found at the result's shape
/// from one strided slice of the operand per tap: elementwise, so it
/// vectorizes along the result's rows, and it reads what the pooling reads.
Value firstMaximumOfTiles(Emitter &e, const Window &window, Value x, Value y) {
  ArrayRef<int64_t> resultShape = shapeOf(y);
  int64_t numTaps = getNumElements(window.dimensions);
  // The taps in reverse row-major order, each overriding the later ones:
  // the least tap at the maximum wins, and none (numTaps) where no tap is.
  SmallVector<SmallVector<int64_t>> taps;
  forEachIndex(window.dimensions,
               [&](ArrayRef<int64_t> tap, int64_t) { taps.emplace_back(tap); });
  Value first = e.splat(y.getType(), static_cast<double>(numTaps));
  for (int64_t t = numTaps - 1; t >= 0; --t) {
    SmallVector<int64_t> limit;
    for (auto [d, size] : llvm::enumerate(resultShape))
      limit.push_back(taps[t][d] + (size - 1) * window.strides[d] + 1);
    Value atTap = e.b.create<SliceOp>(e.loc, x, taps[t], limit, window.strides);
    Value isMax = e.cmp(CmpPredicate::eq, atTap, y);
    first =
        e.select(isMax, e.splat(y.getType(), static_cast<double>(t)), first);
  }
  return first;
}

/// The max's adjoint when the windows tile the operand: the operand viewed
/// as [r0, w0, r1, w1, ...] (r the result's sizes, w the window's), where
/// each window is the w dimensions at one result position, and one pass
/// over that view gives each window's adjoint `g` to the tap at its first
/// maximum `first`.
Value routeToFirstMaximumOfTiles(Emitter &e, const Window &window, Value x,
                                 Value first, Value g) {
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  SmallVector<int64_t> tiledShape, resultDims, tapDims;
  for (auto [d, size] : llvm::enumerate(shapeOf(first))) {
    resultDims.push_back(tiledShape.size());
    tiledShape.push_back(size);
    tapDims.push_back(tiledShape.size());
    tiledShape.push_back(window.dimensions[d]);
  }
  auto tiledType = RankedTensorType::get(tiledShape, element);
  auto overTaps = [&](Value atResult) -> Value {
    return e.b.create<BroadcastInDimOp>(e.loc, tiledType, atResult, resultDims);
  };
  SmallVector<Attribute> positions;
  for (int64_t t = 0, n = getNumElements(window.dimensions); t < n; ++t)
    positions.push_back(e.b.getFloatAttr(element, t));
  Value tapPositions = e.b.create<BroadcastInDimOp>(
      e.loc, tiledType,
      e.b.create<ConstantOp>(
          e.loc,
          DenseElementsAttr::get(
              RankedTensorType::get(window.dimensions, element), positions)),
      tapDims);
  // Named steps: the order of the ops must not depend on the order in which
  // the compiler evaluates arguments.
  Value tiledFirst = overTaps(first);
  Value atFirst = e.cmp(CmpPredicate::eq, tapPositions, tiledFirst);
  Value tiledG = overTaps(g);
  return e.reshape(e.where(atFirst, tiledG), x.getType());
}

Grads reduceWindow(ReduceWindowOp op, Emitter &e, Value g) {
  Window window = op.getWindow();
  Value x = op.getOperand(), y = op.getResult();
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size();
  SmallVector<int64_t> low, high, padded;
  for (int64_t d = 0; d < rank; ++d) {
    low.push_back(window.padding[2 * d]);
    high.push_back(window.padding[2 * d + 1]);
    padded.push_back(shape[d] + low[d] + high[d]);
  }
  SmallVector<int64_t> ones(rank, 1), zeros(rank, 0);
  bool isPadded = llvm::any_of(window.padding, [](int64_t p) { return p; });
  // Back from the padded operand's positions to the operand's.
  auto unpad = [&](Value paddedGrad) -> Value {
    if (!isPadded)
      return paddedGrad;
    SmallVector<int64_t> limit;
    for (int64_t d = 0; d < rank; ++d)
      limit.push_back(low[d] + shape[d]);
    return e.b.create<SliceOp>(e.loc, paddedGrad, low, limit, ones);
  };

  if (op.getKind() == WindowKind::add) {
    // Element p of the padded operand receives the adjoints of the
    // windows starting at p - w + 1 .. p: a sum over windows (stride 1,
    // w - 1 zeros before) of the adjoint spread `stride` apart.
    Value spreadGrad = spread(e, g, zeros, window.strides, padded);
    Window sum{window.dimensions, Shape(ones.begin(), ones.end()), {}};
    for (int64_t d = 0; d < rank; ++d)
      sum.padding.append({window.dimensions[d] - 1, 0});
    return SmallVector<Value>{unpad(
        e.b.create<ReduceWindowOp>(e.loc, WindowKind::add, spreadGrad, sum))};
  }

  if (windowsTile(window, shape, shapeOf(y))) {
    // The search goes beside the pooling in the forward pass, as frameworks
    // keep the pooling's indices: there it reads the taps that the pooling
    // reads, and fusion computes both in one pass over the operand instead
    // of reading the operand again in the adjoint sweep.
    Value first;
    {
      OpBuilder::InsertionGuard guard(e.b);
      e.b.setInsertionPointAfter(op);
      first = firstMaximumOfTiles(e, window, x, y);
    }
    return SmallVector<Value>{
        routeToFirstMaximumOfTiles(e, window, x, first, g)};
  }

  // Max: for each tap of the window in row-major order, the windows whose
  // maximum is at that tap and not at an earlier one (`remaining` tracks
  // the windows not yet routed) pass their adjoint to it. Taps in the
  // padding never match: `valid` is 0 there.
  Value paddedX = x, valid;
  if (isPadded) {
    paddedX = e.b.create<PadOp>(e.loc, x, low, high, zeros);
    valid = e.b.create<PadOp>(e.loc, e.splat(x.getType(), 1), low, high, zeros);
  }
  Value remaining = e.splat(y.getType(), 1);
  Value paddedGrad;
  forEachIndex(window.dimensions, [&](ArrayRef<int64_t> tap, int64_t) {
    SmallVector<int64_t> limit;
    for (int64_t d = 0; d < rank; ++d)
      limit.push_back(tap[d] + (shapeOf(y)[d] - 1) * window.strides[d] + 1);
    auto atTap = [&](Value v) -> Value {
      return e.b.create<SliceOp>(e.loc, v, tap, limit, window.strides);
    };
    Value isMax = e.b.create<ConvertOp>(
        e.loc, y.getType(), e.cmp(CmpPredicate::eq, atTap(paddedX), y));
    if (valid)
      isMax = e.mul(isMax, atTap(valid));
    Value routed = e.mul(isMax, remaining);
    remaining = e.sub(remaining, routed);
    Value contribution =
        spread(e, e.mul(g, routed), tap, window.strides, padded);
    paddedGrad = paddedGrad ? e.add(paddedGrad, contribution) : contribution;
  });
  return SmallVector<Value>{unpad(paddedGrad)};
}

} // namespace

void autodiff::attachWindowVjpRules(MLIRContext *context) {
  ConvOp::attachInterface<VJP<ConvOp, conv>>(*context);
  ReduceWindowOp::attachInterface<VJP<ReduceWindowOp, reduceWindow>>(*context);
}
