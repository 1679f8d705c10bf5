//===- AutodiffRules.cpp - The vector-Jacobian product of every ens op ----===//
//
// One rule per op, attached through AutodiffOpInterface. `g` is the adjoint
// of the op's result; each rule returns its operands' adjoints, built from
// the forward values the op already has. Conventions where the derivative
// is not unique:
//  - max/min: at a tie the whole gradient goes to the lhs;
//  - reduce_max: tied maxima share the gradient equally;
//  - relu and abs at 0: gradient 0;
//  - pow: the exponent's gradient is 0 where the base is 0.
// Integer conversions have none. Constants, comparisons, one_hot and random
// ops are non-differentiable: their model says why, through
// AutodiffOpInterface::getNonDifferentiableReason.
//
//===----------------------------------------------------------------------===//

#include "AutodiffEmitter.h"

#include "ens/Dialect/Ens/IR/Contraction.h"
#include "ens/Dialect/Ens/Transforms/Autodiff.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::autodiff;

namespace {

/// The model of an op through which no gradient flows, for `reason`: its
/// float results may still get adjoints, which stop here.
template <typename OpTy, const char *reason>
struct NoGradient
    : AutodiffOpInterface::ExternalModel<NoGradient<OpTy, reason>, OpTy> {
  Grads vjp(Operation *op, OpBuilder &, ValueRange) const {
    return SmallVector<Value>(op->getNumOperands(), Value());
  }
  StringRef getNonDifferentiableReason(Operation *) const { return reason; }
};

constexpr char kMask[] = "its result is a mask, constant almost everywhere";
constexpr char kNoOperands[] = "it has no operands";
constexpr char kIndices[] = "its result depends only on integer indices";
constexpr char kDraws[] = "its draws depend only on an integer key";
constexpr char kKeys[] = "it derives integer keys from integers";

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

Grads add(AddOp, Emitter &, Value g) { return SmallVector<Value>{g, g}; }
Grads sub(SubOp, Emitter &e, Value g) {
  return SmallVector<Value>{g, e.neg(g)};
}
Grads mul(MulOp op, Emitter &e, Value g) {
  return SmallVector<Value>{e.mul(g, op.getRhs()), e.mul(g, op.getLhs())};
}
Grads div(DivOp op, Emitter &e, Value g) {
  // d(a/b)/db = -(a/b)/b.
  Value lhsGrad = e.div(g, op.getRhs());
  return SmallVector<Value>{lhsGrad, e.neg(e.mul(lhsGrad, op.getResult()))};
}
template <typename OpTy, CmpPredicate lhsWins>
Grads choose(OpTy op, Emitter &e, Value g) {
  Value lhs = e.cmp(lhsWins, op.getLhs(), op.getRhs());
  return SmallVector<Value>{e.where(lhs, g), e.select(lhs, e.zerosLike(g), g)};
}
Grads pow(PowOp op, Emitter &e, Value g) {
  Value a = op.getLhs(), b = op.getRhs(), y = op.getResult();
  Value bMinusOne = e.sub(b, e.splat(b.getType(), 1));
  Value aGrad = e.mul(g, e.mul(b, e.b.create<PowOp>(e.loc, a, bMinusOne)));
  Value bGrad = e.select(e.cmpZero(CmpPredicate::eq, a), e.zerosLike(g),
                         e.mul(g, e.mul(y, e.log(a))));
  return SmallVector<Value>{aGrad, bGrad};
}
Grads neg(NegOp, Emitter &e, Value g) { return SmallVector<Value>{e.neg(g)}; }
Grads exp(ExpOp op, Emitter &e, Value g) {
  return SmallVector<Value>{e.mul(g, op.getResult())};
}
Grads log(LogOp op, Emitter &e, Value g) {
  return SmallVector<Value>{e.div(g, op.getOperand())};
}
Grads tanh(TanhOp op, Emitter &e, Value g) {
  Value y = op.getResult();
  return SmallVector<Value>{
      e.mul(g, e.sub(e.splat(y.getType(), 1), e.mul(y, y)))};
}
Grads sigmoid(SigmoidOp op, Emitter &e, Value g) {
  Value y = op.getResult();
  return SmallVector<Value>{
      e.mul(g, e.mul(y, e.sub(e.splat(y.getType(), 1), y)))};
}
/// relu(x) > 0 exactly where x > 0: the mask reads the result, which the
/// backward pass usually reads anyway (a max pooling's adjoint does), so
/// the operand need not be kept from the forward pass.
Grads relu(ReluOp op, Emitter &e, Value g) {
  return SmallVector<Value>{
      e.where(e.cmpZero(CmpPredicate::gt, op.getResult()), g)};
}
Grads sqrt(SqrtOp op, Emitter &e, Value g) {
  return SmallVector<Value>{e.div(e.scale(g, 0.5), op.getResult())};
}
Grads rsqrt(RsqrtOp op, Emitter &e, Value g) {
  // d(x^-1/2)/dx = -x^-1/2 / (2x).
  return SmallVector<Value>{
      e.div(e.mul(e.scale(g, -0.5), op.getResult()), op.getOperand())};
}
Grads abs(AbsOp op, Emitter &e, Value g) {
  Value x = op.getOperand();
  return SmallVector<Value>{
      e.select(e.cmpZero(CmpPredicate::gt, x), g,
               e.where(e.cmpZero(CmpPredicate::lt, x), e.neg(g)))};
}
Grads square(SquareOp op, Emitter &e, Value g) {
  return SmallVector<Value>{e.mul(e.scale(g, 2), op.getOperand())};
}
Grads select(SelectOp op, Emitter &e, Value g) {
  return SmallVector<Value>{Value(), e.where(op.getCond(), g),
                            e.select(op.getCond(), e.zerosLike(g), g)};
}
Grads convert(ConvertOp op, Emitter &e, Value g) {
  Type from = getElementTypeOrSelf(op.getOperand().getType());
  Type to = getElementTypeOrSelf(op.getType());
  if (!isa<FloatType>(from) || !isa<FloatType>(to))
    return SmallVector<Value>{Value()};
  return SmallVector<Value>{
      e.b.create<ConvertOp>(e.loc, op.getOperand().getType(), g)};
}

//===----------------------------------------------------------------------===//
// Shape manipulation: broadcast and reduce are each other's adjoints, as are
// slice and pad, and take and scatter_add.
//===----------------------------------------------------------------------===//

Grads broadcastInDim(BroadcastInDimOp op, Emitter &e, Value g) {
  ArrayRef<int64_t> operand = shapeOf(op.getOperand());
  ArrayRef<int64_t> result = shapeOf(op.getResult());
  ArrayRef<int64_t> dims = op.getDims();
  // Sum over new dims and over dims expanded from size 1.
  SmallVector<int64_t> summed;
  for (int64_t d = 0; d < static_cast<int64_t>(result.size()); ++d) {
    const int64_t *source = llvm::find(dims, d);
    if (source == dims.end() ||
        (operand[source - dims.begin()] == 1 && result[d] != 1))
      summed.push_back(d);
  }
  Value grad = summed.empty() ? g : e.reduceSum(g, summed);
  // The kept dims are in result order; put them in operand order.
  SmallVector<int64_t> kept;
  for (auto [i, d] : llvm::enumerate(dims))
    if (!llvm::is_contained(summed, d))
      kept.push_back(i);
  llvm::sort(kept, [&](int64_t a, int64_t b) { return dims[a] < dims[b]; });
  if (!llvm::is_sorted(kept)) {
    // Output dim p is the p-th smallest operand dim, found in `kept`.
    SmallVector<int64_t> sorted(kept), permutation;
    llvm::sort(sorted);
    for (int64_t dim : sorted)
      permutation.push_back(llvm::find(kept, dim) - kept.begin());
    grad = e.b.create<TransposeOp>(e.loc, grad, permutation);
  }
  return SmallVector<Value>{e.reshape(grad, op.getOperand().getType())};
}

Grads reshape(ReshapeOp op, Emitter &e, Value g) {
  return SmallVector<Value>{e.reshape(g, op.getOperand().getType())};
}

Grads transpose(TransposeOp op, Emitter &e, Value g) {
  ArrayRef<int64_t> permutation = op.getPermutation();
  SmallVector<int64_t> inverse(permutation.size());
  for (auto [i, p] : llvm::enumerate(permutation))
    inverse[p] = i;
  return SmallVector<Value>{e.b.create<TransposeOp>(e.loc, g, inverse)};
}

Grads slice(SliceOp op, Emitter &e, Value g) {
  ArrayRef<int64_t> operand = shapeOf(op.getOperand());
  ArrayRef<int64_t> result = shapeOf(op.getResult());
  SmallVector<int64_t> high, interior;
  for (size_t d = 0; d < operand.size(); ++d) {
    int64_t stride = op.getStride()[d], start = op.getStart()[d];
    int64_t end = result[d] ? start + (result[d] - 1) * stride + 1 : start;
    high.push_back(operand[d] - end);
    interior.push_back(stride - 1);
  }
  return SmallVector<Value>{
      e.b.create<PadOp>(e.loc, g, op.getStart(), high, interior)};
}

Grads pad(PadOp op, Emitter &e, Value g) {
  ArrayRef<int64_t> operand = shapeOf(op.getOperand());
  SmallVector<int64_t> limit, stride;
  for (size_t d = 0; d < operand.size(); ++d) {
    int64_t step = op.getInterior()[d] + 1, low = op.getLow()[d];
    limit.push_back(operand[d] ? low + (operand[d] - 1) * step + 1 : low);
    stride.push_back(step);
  }
  return SmallVector<Value>{
      e.b.create<SliceOp>(e.loc, g, op.getLow(), limit, stride)};
}

Grads concat(ConcatOp op, Emitter &e, Value g) {
  SmallVector<Value> grads;
  int64_t dim = op.getDim(), offset = 0;
  for (Value input : op.getInputs()) {
    SmallVector<int64_t> start(shapeOf(g).size(), 0), limit(shapeOf(g)),
        stride(shapeOf(g).size(), 1);
    start[dim] = offset;
    offset += shapeOf(input)[dim];
    limit[dim] = offset;
    grads.push_back(e.b.create<SliceOp>(e.loc, g, start, limit, stride));
  }
  return grads;
}

Grads take(TakeOp op, Emitter &e, Value g) {
  return SmallVector<Value>{
      e.b.create<ScatterAddOp>(e.loc, op.getTable().getType(), g,
                               op.getIndices(), op.getAxis()),
      Value()};
}

Grads scatterAdd(ScatterAddOp op, Emitter &e, Value g) {
  return SmallVector<Value>{
      e.b.create<TakeOp>(e.loc, g, op.getIndices(), op.getAxis()), Value()};
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

Grads reduceSum(ReduceSumOp op, Emitter &e, Value g) {
  return SmallVector<Value>{
      e.unreduce(g, op.getOperand().getType(), op.getDims())};
}

Grads reduceMean(ReduceMeanOp op, Emitter &e, Value g) {
  // In double, which cannot overflow for the sizes of huge dimensions.
  double count = 1;
  for (int64_t d : op.getDims())
    count *= shapeOf(op.getOperand())[d];
  return SmallVector<Value>{e.unreduce(
      e.scale(g, 1.0 / count), op.getOperand().getType(), op.getDims())};
}

Grads reduceMax(ReduceMaxOp op, Emitter &e, Value g) {
  Value x = op.getOperand();
  Value max = e.unreduce(op.getResult(), x.getType(), op.getDims());
  Value isMax = e.b.create<ConvertOp>(e.loc, x.getType(),
                                      e.cmp(CmpPredicate::eq, x, max));
  Value share = e.div(g, e.reduceSum(isMax, op.getDims()));
  return SmallVector<Value>{
      e.mul(e.unreduce(share, x.getType(), op.getDims()), isMax)};
}

Grads logsumexp(LogsumexpOp op, Emitter &e, Value g) {
  Value x = op.getOperand();
  Value y = e.unreduce(op.getResult(), x.getType(), op.getDims());
  return SmallVector<Value>{
      e.mul(e.unreduce(g, x.getType(), op.getDims()), e.exp(e.sub(x, y)))};
}

Grads softmax(SoftmaxOp op, Emitter &e, Value g) {
  Value y = op.getResult();
  int64_t dim = op.getDim();
  Value dot = e.reduceSum(e.mul(g, y), dim);
  return SmallVector<Value>{
      e.mul(y, e.sub(g, e.unreduce(dot, y.getType(), dim)))};
}

Grads logSoftmax(LogSoftmaxOp op, Emitter &e, Value g) {
  Value y = op.getResult();
  int64_t dim = op.getDim();
  Value total = e.unreduce(e.reduceSum(g, dim), y.getType(), dim);
  return SmallVector<Value>{e.sub(g, e.mul(e.exp(y), total))};
}

//===----------------------------------------------------------------------===//
// Contractions: the adjoint of an einsum is an einsum
//===----------------------------------------------------------------------===//

/// The adjoint of `x` in `einsum(x, other)` by `spec` (x's labels first):
/// contract the output adjoint with the other operand, then broadcast over
/// labels that only x had (summed in the forward pass).
Value einsumAdjoint(Emitter &e, Value g, Value other, Type type,
                    StringRef labels, StringRef otherLabels, StringRef out,
                    bool xIsLhs) {
  std::string kept;
  SmallVector<int64_t> keptDims;
  for (auto [i, c] : llvm::enumerate(labels))
    if (out.contains(c) || otherLabels.contains(c)) {
      kept.push_back(c);
      keptDims.push_back(i);
    }
  Value grad = xIsLhs
                   ? e.einsum(g, other, {out.str(), otherLabels.str(), kept})
                   : e.einsum(other, g, {otherLabels.str(), out.str(), kept});
  if (kept.size() == labels.size())
    return grad;
  return e.b.create<BroadcastInDimOp>(e.loc, type, grad, keptDims);
}

template <typename OpTy> Grads contraction(OpTy op, Emitter &e, Value g) {
  FailureOr<EinsumForm> form = getEinsumForm(op);
  if (failed(form))
    return failure();
  // Work on the operands with broadcast dims reshaped away, as the form
  // says, and reshape the adjoints back.
  auto dropped = [&](Value x, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> shape;
    for (auto [d, size] : llvm::enumerate(shapeOf(x)))
      if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
        shape.push_back(size);
    return e.reshape(
        x, RankedTensorType::get(shape, getElementTypeOrSelf(x.getType())));
  };
  Value lhs = dropped(op.getLhs(), form->lhsDropped);
  Value rhs = dropped(op.getRhs(), form->rhsDropped);
  const EinsumSpec &spec = form->spec;
  Value lhsGrad = einsumAdjoint(e, g, rhs, lhs.getType(), spec.lhs, spec.rhs,
                                spec.out, /*xIsLhs=*/true);
  Value rhsGrad = einsumAdjoint(e, g, lhs, rhs.getType(), spec.rhs, spec.lhs,
                                spec.out, /*xIsLhs=*/false);
  return SmallVector<Value>{e.reshape(lhsGrad, op.getLhs().getType()),
                            e.reshape(rhsGrad, op.getRhs().getType())};
}

} // namespace

void mlir::ens::registerAutodiffRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, EnsDialect *) {
    AddOp::attachInterface<VJP<AddOp, add>>(*ctx);
    SubOp::attachInterface<VJP<SubOp, sub>>(*ctx);
    MulOp::attachInterface<VJP<MulOp, mul>>(*ctx);
    DivOp::attachInterface<VJP<DivOp, div>>(*ctx);
    MaxOp::attachInterface<VJP<MaxOp, choose<MaxOp, CmpPredicate::ge>>>(*ctx);
    MinOp::attachInterface<VJP<MinOp, choose<MinOp, CmpPredicate::le>>>(*ctx);
    PowOp::attachInterface<VJP<PowOp, pow>>(*ctx);
    NegOp::attachInterface<VJP<NegOp, neg>>(*ctx);
    ExpOp::attachInterface<VJP<ExpOp, exp>>(*ctx);
    LogOp::attachInterface<VJP<LogOp, log>>(*ctx);
    TanhOp::attachInterface<VJP<TanhOp, tanh>>(*ctx);
    SigmoidOp::attachInterface<VJP<SigmoidOp, sigmoid>>(*ctx);
    ReluOp::attachInterface<VJP<ReluOp, relu>>(*ctx);
    SqrtOp::attachInterface<VJP<SqrtOp, sqrt>>(*ctx);
    RsqrtOp::attachInterface<VJP<RsqrtOp, rsqrt>>(*ctx);
    AbsOp::attachInterface<VJP<AbsOp, abs>>(*ctx);
    SquareOp::attachInterface<VJP<SquareOp, square>>(*ctx);
    CmpOp::attachInterface<NoGradient<CmpOp, kMask>>(*ctx);
    ConstantOp::attachInterface<NoGradient<ConstantOp, kNoOperands>>(*ctx);
    SelectOp::attachInterface<VJP<SelectOp, select>>(*ctx);
    ConvertOp::attachInterface<VJP<ConvertOp, convert>>(*ctx);
    BroadcastInDimOp::attachInterface<VJP<BroadcastInDimOp, broadcastInDim>>(
        *ctx);
    ReshapeOp::attachInterface<VJP<ReshapeOp, reshape>>(*ctx);
    TransposeOp::attachInterface<VJP<TransposeOp, transpose>>(*ctx);
    SliceOp::attachInterface<VJP<SliceOp, slice>>(*ctx);
    PadOp::attachInterface<VJP<PadOp, pad>>(*ctx);
    ConcatOp::attachInterface<VJP<ConcatOp, concat>>(*ctx);
    TakeOp::attachInterface<VJP<TakeOp, take>>(*ctx);
    ScatterAddOp::attachInterface<VJP<ScatterAddOp, scatterAdd>>(*ctx);
    OneHotOp::attachInterface<NoGradient<OneHotOp, kIndices>>(*ctx);
    ReduceSumOp::attachInterface<VJP<ReduceSumOp, reduceSum>>(*ctx);
    ReduceMeanOp::attachInterface<VJP<ReduceMeanOp, reduceMean>>(*ctx);
    ReduceMaxOp::attachInterface<VJP<ReduceMaxOp, reduceMax>>(*ctx);
    LogsumexpOp::attachInterface<VJP<LogsumexpOp, logsumexp>>(*ctx);
    SoftmaxOp::attachInterface<VJP<SoftmaxOp, softmax>>(*ctx);
    LogSoftmaxOp::attachInterface<VJP<LogSoftmaxOp, logSoftmax>>(*ctx);
    EinsumOp::attachInterface<VJP<EinsumOp, contraction<EinsumOp>>>(*ctx);
    TensordotOp::attachInterface<VJP<TensordotOp, contraction<TensordotOp>>>(
        *ctx);
    MatmulOp::attachInterface<VJP<MatmulOp, contraction<MatmulOp>>>(*ctx);
    autodiff::attachWindowVjpRules(ctx);
    RandomUniformOp::attachInterface<NoGradient<RandomUniformOp, kDraws>>(*ctx);
    RandomNormalOp::attachInterface<NoGradient<RandomNormalOp, kDraws>>(*ctx);
    RandomSplitOp::attachInterface<NoGradient<RandomSplitOp, kKeys>>(*ctx);
    RandomFoldInOp::attachInterface<NoGradient<RandomFoldInOp, kKeys>>(*ctx);
  });
}
