//===- Random.cpp - Lowering ens random ops to linalg ---------------------===//
//
// Every random op is a linalg.generic with no inputs whose body computes
// Threefry-2x32 inline from the key and the element's counter, exactly as
// ref::threefry2x32 and ref::randomDraw do, so that draws are bit-identical
// on every backend.
//
//===----------------------------------------------------------------------===//

#include "MapEnsToScalarOp.h"
#include "Patterns.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

using KeyWords = std::pair<Value, Value>;

/// Threefry-2x32 (20 rounds) of `key` and `counter` on i32 scalars.
static KeyWords threefry(OpBuilder &b, Location loc, KeyWords key,
                         KeyWords counter) {
  static constexpr int kRotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  Type i32 = b.getI32Type();
  auto c = [&](uint32_t value) {
    return b.create<arith::ConstantOp>(
        loc, b.getIntegerAttr(i32, static_cast<int32_t>(value)));
  };
  Value ks[3] = {key.first, key.second,
                 b.create<arith::XOrIOp>(
                     loc, b.create<arith::XOrIOp>(loc, key.first, key.second),
                     c(0x1BD11BDA))};
  Value x0 = b.create<arith::AddIOp>(loc, counter.first, ks[0]);
  Value x1 = b.create<arith::AddIOp>(loc, counter.second, ks[1]);
  for (uint32_t group = 0; group < 5; ++group) {
    for (int rotation : kRotations[group % 2]) {
      x0 = b.create<arith::AddIOp>(loc, x0, x1);
      x1 = b.create<arith::OrIOp>(
          loc, b.create<arith::ShLIOp>(loc, x1, c(rotation)),
          b.create<arith::ShRUIOp>(loc, x1, c(32 - rotation)));
      x1 = b.create<arith::XOrIOp>(loc, x1, x0);
    }
    x0 = b.create<arith::AddIOp>(loc, x0, ks[(group + 1) % 3]);
    x1 = b.create<arith::AddIOp>(
        loc, b.create<arith::AddIOp>(loc, x1, ks[(group + 2) % 3]),
        c(group + 1));
  }
  return {x0, x1};
}

/// The key at the leading indices `at` of a key tensor.
static KeyWords keyAt(OpBuilder &b, Location loc, Value keys,
                      ArrayRef<Value> at) {
  SmallVector<Value> first(at), second(at);
  first.push_back(index(b, loc, 0));
  second.push_back(index(b, loc, 1));
  return {b.create<tensor::ExtractOp>(loc, keys, first),
          b.create<tensor::ExtractOp>(loc, keys, second)};
}

/// The row-major linear index of dims [from, rank) as i32.
static Value linearIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                         ArrayRef<Value> at, int64_t from) {
  Value linear = index(b, loc, 0);
  for (int64_t d = from; d < static_cast<int64_t>(shape.size()); ++d)
    linear = b.create<arith::AddIOp>(
        loc, b.create<arith::MulIOp>(loc, linear, index(b, loc, shape[d])),
        at[d]);
  return b.create<arith::IndexCastOp>(loc, b.getI32Type(), linear);
}

/// A uniform in [0, 1) from random bits, as ref::randomDraw: f64 takes 52
/// bits of both words, any other type 23 bits of the first, rounded once.
static Value uniformFromBits(OpBuilder &b, Location loc, Value w0, Value w1,
                             Type type) {
  if (type.isF64()) {
    Type i64 = b.getI64Type();
    Value high = b.create<arith::ShLIOp>(
        loc, b.create<arith::ExtUIOp>(loc, i64, w0),
        b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(32)));
    Value word = b.create<arith::OrIOp>(loc, high,
                                        b.create<arith::ExtUIOp>(loc, i64, w1));
    Value mantissa = b.create<arith::ShRUIOp>(
        loc, word, b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(12)));
    return b.create<arith::MulFOp>(
        loc, b.create<arith::UIToFPOp>(loc, type, mantissa),
        scalar(b, loc, type, 0x1p-52));
  }
  Value mantissa = b.create<arith::ShRUIOp>(
      loc, w0, b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(9)));
  Value value = b.create<arith::MulFOp>(
      loc, b.create<arith::UIToFPOp>(loc, b.getF64Type(), mantissa),
      scalar(b, loc, b.getF64Type(), 0x1p-23));
  return convertScalar(b, loc, value, type);
}

/// A standard normal from random bits by Box-Muller, in double as
/// ref::randomDraw, rounded to `type`.
static Value normalFromBits(OpBuilder &b, Location loc, Value w0, Value w1,
                            Type type) {
  Type f64 = b.getF64Type();
  // (w + 0.5) / 2^32, in (0, 1) so that the logarithm is finite.
  auto open = [&](Value word) -> Value {
    Value value = b.create<arith::UIToFPOp>(loc, f64, word);
    return b.create<arith::MulFOp>(
        loc, b.create<arith::AddFOp>(loc, value, scalar(b, loc, f64, 0.5)),
        scalar(b, loc, f64, 0x1p-32));
  };
  Value radius = b.create<math::SqrtOp>(
      loc, b.create<arith::MulFOp>(loc, scalar(b, loc, f64, -2),
                                   b.create<math::LogOp>(loc, open(w0))));
  Value angle =
      b.create<arith::MulFOp>(loc, scalar(b, loc, f64, 2 * M_PI), open(w1));
  return convertScalar(
      b, loc,
      b.create<arith::MulFOp>(loc, radius, b.create<math::CosOp>(loc, angle)),
      type);
}

/// Element i of each key's block draws from the counter (0, i), i being
/// the row-major index within the block (the dims after the key's batch).
template <typename OpTy>
static Value lowerDraw(OpTy op, Value keys, OpBuilder &b, bool normal) {
  RankedTensorType type = op.getType();
  int64_t keyRank = tensorType(keys).getRank() - 1;
  return generic(
      b, op.getLoc(), type, {}, {},
      [&](OpBuilder &nb, Location loc, ValueRange) -> Value {
        SmallVector<Value> at = loopIndices(nb, loc, type.getRank());
        KeyWords key =
            keyAt(nb, loc, keys, ArrayRef<Value>(at).take_front(keyRank));
        Value counter = linearIndex(nb, loc, type.getShape(), at, keyRank);
        auto [w0, w1] = threefry(
            nb, loc, key, {scalar(nb, loc, nb.getI32Type(), 0), counter});
        Type element = type.getElementType();
        return normal ? normalFromBits(nb, loc, w0, w1, element)
                      : uniformFromBits(nb, loc, w0, w1, element);
      });
}

static FailureOr<Value> lowerRandomUniform(RandomUniformOp op,
                                           RandomUniformOp::Adaptor adaptor,
                                           OpBuilder &b) {
  return lowerDraw(op, adaptor.getKey(), b, /*normal=*/false);
}

static FailureOr<Value> lowerRandomNormal(RandomNormalOp op,
                                          RandomNormalOp::Adaptor adaptor,
                                          OpBuilder &b) {
  return lowerDraw(op, adaptor.getKey(), b, /*normal=*/true);
}

/// A key tensor whose key at the leading indices comes from
/// `derive(indices)`; the last dimension selects the word.
static Value deriveKeys(
    OpBuilder &b, Location loc, RankedTensorType type,
    function_ref<KeyWords(OpBuilder &, Location, ArrayRef<Value>)> derive) {
  return generic(
      b, loc, type, {}, {},
      [&](OpBuilder &nb, Location nloc, ValueRange) -> Value {
        SmallVector<Value> at = loopIndices(nb, nloc, type.getRank());
        auto [w0, w1] = derive(nb, nloc, ArrayRef<Value>(at).drop_back());
        Value second = nb.create<arith::CmpIOp>(nloc, arith::CmpIPredicate::eq,
                                                at.back(), index(nb, nloc, 1));
        return nb.create<arith::SelectOp>(nloc, second, w1, w0);
      });
}

/// Key j of the result is Threefry of the key and the counter (1, j).
static FailureOr<Value> lowerRandomSplit(RandomSplitOp op,
                                         RandomSplitOp::Adaptor adaptor,
                                         OpBuilder &b) {
  Value keys = adaptor.getKey();
  return deriveKeys(
      b, op.getLoc(), op.getType(),
      [&](OpBuilder &nb, Location loc, ArrayRef<Value> at) {
        Value j =
            nb.create<arith::IndexCastOp>(loc, nb.getI32Type(), at.back());
        return threefry(nb, loc, keyAt(nb, loc, keys, at.drop_back()),
                        {scalar(nb, loc, nb.getI32Type(), 1), j});
      });
}

/// The new key is Threefry of the key and the counter (2, data).
static FailureOr<Value> lowerRandomFoldIn(RandomFoldInOp op,
                                          RandomFoldInOp::Adaptor adaptor,
                                          OpBuilder &b) {
  Value keys = adaptor.getKey(), data = adaptor.getData();
  return deriveKeys(b, op.getLoc(), op.getType(),
                    [&](OpBuilder &nb, Location loc, ArrayRef<Value> at) {
                      Value d = nb.create<tensor::ExtractOp>(loc, data, at);
                      return threefry(nb, loc, keyAt(nb, loc, keys, at),
                                      {scalar(nb, loc, nb.getI32Type(), 2), d});
                    });
}

void lowering::populateEnsToLinalgRandomPatterns(RewritePatternSet &patterns) {
  patterns.add<OpLowering<RandomUniformOp, lowerRandomUniform>,
               OpLowering<RandomNormalOp, lowerRandomNormal>,
               OpLowering<RandomSplitOp, lowerRandomSplit>,
               OpLowering<RandomFoldInOp, lowerRandomFoldIn>>(
      patterns.getContext());
}
