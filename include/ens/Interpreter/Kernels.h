//===- Kernels.h - Reference kernels on host tensors ------------*- C++ -*-===//
//
// The arithmetic of the reference interpreter, one plain function per kind
// of op. They favour obviousness over speed: each result element is computed
// from its definition, floating-point arithmetic is done in double and
// rounded to the element type once per op, and integer arithmetic wraps.
// Callers pass operands that already satisfy the op's verifier.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_INTERPRETER_KERNELS_H
#define ENS_INTERPRETER_KERNELS_H

#include "ens/Support/HostTensor.h"

#include <array>

namespace mlir::ens {
/// ens.conv's dimension numbers (ens/Dialect/Ens/IR/ShapeInference.h).
struct ConvDims;
/// ens.reduce_window's window (ens/Dialect/Ens/IR/ShapeInference.h).
struct Window;
} // namespace mlir::ens

namespace mlir::ens::ref {

enum class UnaryKind {
  Neg,
  Exp,
  Log,
  Tanh,
  Sigmoid,
  Relu,
  Sqrt,
  Rsqrt,
  Abs,
  Square
};
enum class BinaryKind { Add, Sub, Mul, Div, Max, Min, Pow };
enum class CompareKind { Lt, Le, Gt, Ge, Eq, Ne };
enum class ReduceKind { Sum, Max, Mean, LogSumExp };

HostTensor unary(UnaryKind kind, const HostTensor &x);
HostTensor binary(BinaryKind kind, const HostTensor &lhs,
                  const HostTensor &rhs);
/// An i1 tensor of `lhs <kind> rhs`.
HostTensor compare(CompareKind kind, const HostTensor &lhs,
                   const HostTensor &rhs);
HostTensor select(const HostTensor &cond, const HostTensor &onTrue,
                  const HostTensor &onFalse);
HostTensor convert(const HostTensor &x, DType dtype);

HostTensor broadcastInDim(const HostTensor &x,
                          llvm::ArrayRef<int64_t> resultShape,
                          llvm::ArrayRef<int64_t> dims);
HostTensor reshape(const HostTensor &x, llvm::ArrayRef<int64_t> shape);
HostTensor transpose(const HostTensor &x, llvm::ArrayRef<int64_t> permutation);
HostTensor slice(const HostTensor &x, llvm::ArrayRef<int64_t> start,
                 llvm::ArrayRef<int64_t> limit, llvm::ArrayRef<int64_t> stride);
HostTensor concat(llvm::ArrayRef<HostTensor> inputs, int64_t dim);
/// numpy.take with indices clamped to the valid range.
HostTensor take(const HostTensor &table, const HostTensor &indices,
                int64_t axis);
HostTensor oneHot(const HostTensor &indices, int64_t depth, DType dtype);

/// Reduces over `dims`, which are removed from the shape.
HostTensor reduce(ReduceKind kind, const HostTensor &x,
                  llvm::ArrayRef<int64_t> dims);
HostTensor softmax(const HostTensor &x, int64_t dim);
HostTensor logSoftmax(const HostTensor &x, int64_t dim);

/// The general contraction behind einsum, tensordot and matmul: each
/// dimension carries a label; labels of `outLabels` index the result, all
/// others are summed over. Equal labels name dimensions of equal size.
HostTensor contract(const HostTensor &lhs, llvm::ArrayRef<int64_t> lhsLabels,
                    const HostTensor &rhs, llvm::ArrayRef<int64_t> rhsLabels,
                    llvm::ArrayRef<int64_t> outLabels);
HostTensor tensordot(const HostTensor &lhs, const HostTensor &rhs,
                     llvm::ArrayRef<int64_t> lhsDims,
                     llvm::ArrayRef<int64_t> rhsDims);
/// numpy.matmul: rank-1 operands are promoted, batch dimensions broadcast.
HostTensor matmul(const HostTensor &lhs, const HostTensor &rhs);

/// `ens.conv`: each result element of `resultShape` summed from its window,
/// with dilation and padding resolved per tap rather than materialised.
HostTensor conv(const HostTensor &lhs, const HostTensor &rhs,
                const ConvDims &dims, llvm::ArrayRef<int64_t> resultShape);

/// `ens.reduce_window`: the max (NaN if any is NaN; `-inf` padding) or the
/// sum (Sum; zero padding) of each window, for `kind` Max or Sum.
HostTensor reduceWindow(ReduceKind kind, const HostTensor &x,
                        const Window &window,
                        llvm::ArrayRef<int64_t> resultShape);

/// Zero padding: `low`/`high` zeros at the ends and `interior` zeros
/// between the elements of each dimension.
HostTensor pad(const HostTensor &x, llvm::ArrayRef<int64_t> low,
               llvm::ArrayRef<int64_t> high, llvm::ArrayRef<int64_t> interior);
/// Adds the slices of `updates` into a zero tensor of `shape` at the
/// (clamped) `indices` along `axis`: the adjoint of take.
HostTensor scatterAdd(const HostTensor &updates, const HostTensor &indices,
                      int64_t axis, llvm::ArrayRef<int64_t> shape);

/// Threefry-2x32 with 20 rounds (Salmon et al., SC'11), as in JAX.
std::array<uint32_t, 2> threefry2x32(std::array<uint32_t, 2> key,
                                     std::array<uint32_t, 2> counter);
enum class Distribution { Uniform, Normal };
/// One block of `blockShape` draws of `dtype` per key of `keys` ([..., 2]).
HostTensor randomDraw(Distribution distribution, const HostTensor &keys,
                      llvm::ArrayRef<int64_t> blockShape, DType dtype);
/// `count` keys derived from each key of `keys`.
HostTensor randomSplit(const HostTensor &keys, int64_t count);
/// Each key of `keys` with the matching integer of `data` folded in.
HostTensor randomFoldIn(const HostTensor &keys, const HostTensor &data);

/// Member `index` of `x` along `axis`: the slice with that dim removed.
HostTensor indexAxis(const HostTensor &x, int64_t axis, int64_t index);
/// Stacks equally shaped `members` along a new dim at `axis`.
HostTensor stack(llvm::ArrayRef<HostTensor> members, int64_t axis);

} // namespace mlir::ens::ref

#endif // ENS_INTERPRETER_KERNELS_H
