//===- OpAnalysis.cpp - What the CPU passes read from linalg ops ----------===//
//
// Part of ens. See OpAnalysis.h.
//
//===----------------------------------------------------------------------===//

#include "OpAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ens;

std::optional<unsigned> cpu::innermostLoop(linalg::LinalgOp op,
                                           OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return dim.getPosition();
  return std::nullopt;
}

std::optional<unsigned> cpu::pickVectorLoop(linalg::LinalgOp op,
                                            bool contraction) {
  if (contraction)
    return innermostLoop(op, *op.getDpsInitOperand(0));
  OpOperand *largest = nullptr;
  int64_t most = 0;
  for (OpOperand &operand : llvm::reverse(op->getOpOperands())) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (type && type.getRank() > 0 && type.getNumElements() > most) {
      most = type.getNumElements();
      largest = &operand;
    }
  }
  if (!largest)
    return std::nullopt;
  return innermostLoop(op, *largest);
}

std::optional<unsigned> cpu::contiguousOuterLoop(linalg::LinalgOp op,
                                                 unsigned vectorLoop) {
  if (op.getNumLoops() != op.getNumParallelLoops())
    return std::nullopt;
  std::optional<unsigned> outer = rowLoop(op);
  if (!outer || *outer == vectorLoop ||
      innermostLoop(op, *op.getDpsInitOperand(0)) != vectorLoop)
    return std::nullopt;
  MLIRContext *context = op.getContext();
  AffineExpr inner = getAffineDimExpr(vectorLoop, context);
  AffineExpr row = getAffineDimExpr(*outer, context);
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (!map.isProjectedPermutation())
      return std::nullopt;
    ArrayRef<AffineExpr> reads = map.getResults();
    std::optional<unsigned> innerAt = map.getResultPosition(inner);
    std::optional<unsigned> rowAt = map.getResultPosition(row);
    unsigned last = reads.size() - 1;
    if (innerAt && *innerAt != last)
      return std::nullopt;
    if (rowAt && *rowAt != (innerAt ? last - 1 : last))
      return std::nullopt;
  }
  return outer;
}

std::optional<unsigned> cpu::rowLoop(linalg::LinalgOp op) {
  AffineMap result = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (result.getNumResults() < 2)
    return std::nullopt;
  if (auto row =
          dyn_cast<AffineDimExpr>(result.getResult(result.getNumResults() - 2)))
    return row.getPosition();
  return std::nullopt;
}

std::optional<unsigned> cpu::widestElementBits(linalg::LinalgOp op) {
  unsigned widest = 0;
  for (Value operand : op->getOperands()) {
    Type type = getElementTypeOrSelf(operand.getType());
    if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() < 8)
      return std::nullopt;
    widest = std::max(widest, type.getIntOrFloatBitWidth());
  }
  return widest;
}

bool cpu::isMultiplyAccumulate(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  Block *body = op.getBlock();
  if (body->getOperations().size() != 3)
    return false;
  auto mul = dyn_cast<arith::MulFOp>(body->front());
  auto add = dyn_cast<arith::AddFOp>(*std::next(body->begin()));
  auto yield = dyn_cast<linalg::YieldOp>(body->back());
  if (!mul || !add || !yield || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != add.getResult())
    return false;
  Value in0 = body->getArgument(0), in1 = body->getArgument(1),
        out = body->getArgument(2);
  bool mulOfInputs = (mul.getLhs() == in0 && mul.getRhs() == in1) ||
                     (mul.getLhs() == in1 && mul.getRhs() == in0);
  bool addToOutput = (add.getLhs() == out && add.getRhs() == mul) ||
                     (add.getLhs() == mul && add.getRhs() == out);
  return mulOfInputs && addToOutput;
}

std::optional<llvm::SmallDenseMap<unsigned, int64_t, 4>>
cpu::loopCoefficients(AffineExpr expr) {
  llvm::SmallDenseMap<unsigned, int64_t, 4> terms;
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    terms[dim.getPosition()] = 1;
    return terms;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  if (binary.getKind() == AffineExprKind::Mul) {
    auto dim = dyn_cast<AffineDimExpr>(binary.getLHS());
    auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (!dim || !factor)
      return std::nullopt;
    terms[dim.getPosition()] = factor.getValue();
    return terms;
  }
  if (binary.getKind() != AffineExprKind::Add)
    return std::nullopt;
  auto lhs = loopCoefficients(binary.getLHS());
  auto rhs = loopCoefficients(binary.getRHS());
  if (!lhs || !rhs)
    return std::nullopt;
  for (auto [loop, factor] : *rhs)
    (*lhs)[loop] += factor;
  return lhs;
}

std::optional<cpu::WindowOp> cpu::WindowOp::match(linalg::LinalgOp op) {
  if (!isMultiplyAccumulate(op))
    return std::nullopt;
  AffineMap image = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap filter = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap result = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (image.isProjectedPermutation() || !filter.isProjectedPermutation() ||
      !result.isProjectedPermutation() || image.getNumResults() == 0 ||
      result.getNumResults() == 0)
    return std::nullopt;
  for (AffineExpr expr : image.getResults())
    if (!loopCoefficients(expr))
      return std::nullopt;
  WindowOp window;
  window.op = op;
  window.image = image;
  window.filter = filter;
  window.result = result;
  window.innermostRead = *loopCoefficients(image.getResults().back());
  window.innermostResultLoop =
      cast<AffineDimExpr>(result.getResults().back()).getPosition();
  return window;
}

bool cpu::WindowOp::readsContiguouslyAlong(unsigned loop) const {
  auto it = innermostRead.find(loop);
  if (it == innermostRead.end() || it->second != 1)
    return false;
  for (AffineExpr expr : image.getResults().drop_back())
    if (expr.isFunctionOfDim(loop))
      return false;
  for (AffineExpr expr : filter.getResults().drop_back())
    if (expr.isFunctionOfDim(loop))
      return false;
  return true;
}

bool cpu::WindowOp::filterReadsContiguouslyAlong(unsigned loop) const {
  if (image.isFunctionOfDim(loop) || filter.getNumResults() == 0)
    return false;
  for (AffineExpr expr : filter.getResults().drop_back())
    if (expr.isFunctionOfDim(loop))
      return false;
  return filter.getResults().back() ==
         getAffineDimExpr(loop, filter.getContext());
}
