//===- VendorGemm.cpp - Contractions that a vendor GEMM computes ----------===//
//
// Recognizes a linalg.generic that is a plain (batched) matrix product,
// C += A B over loops (batch, M, N | K) with every operand a strided matrix
// in global memory, and writes it as the parameters of a strided batched
// GEMM in BLAS's column-major terms (docs/cuda.md, "Vendor GEMM steps").
// A row-major C is the column-major C^T = B^T A^T: the operands swap, and
// each one's transpose flag says which of its loops has unit stride.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// Whether the body of `generic` is out + a * b (in either order) of f32,
/// with a, b its inputs and out its output: a contraction's step.
static bool isMultiplyAccumulate(linalg::GenericOp generic) {
  Block &body = generic.getRegion().front();
  if (generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1 ||
      body.getOperations().size() != 3 ||
      !body.getArgument(0).getType().isF32())
    return false;
  auto multiply = dyn_cast<arith::MulFOp>(body.front());
  auto add = dyn_cast<arith::AddFOp>(*std::next(body.begin()));
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto isPair = [](Value x, Value y, Value first, Value second) {
    return (x == first && y == second) || (x == second && y == first);
  };
  return multiply && add && yield.getOperand(0) == add &&
         isPair(multiply.getLhs(), multiply.getRhs(), body.getArgument(0),
                body.getArgument(1)) &&
         isPair(add.getLhs(), add.getRhs(), body.getArgument(2), multiply);
}

/// The leading dimension of a `rows` x `cols` matrix whose element (i, j)
/// is at i * rowStride + j * colStride, if it is column-major as BLAS
/// takes it: unit steps down a column (unless it has one row), and columns
/// at least a column apart.
static std::optional<int64_t> getLeadingDim(int64_t rows, int64_t cols,
                                            int64_t rowStride,
                                            int64_t colStride) {
  if (rows > 1 && rowStride != 1)
    return std::nullopt;
  int64_t ld = cols > 1 ? colStride : std::max<int64_t>(rows, 1);
  if (ld < std::max<int64_t>(rows, 1))
    return std::nullopt;
  return ld;
}

namespace {
/// A matrix operand as the op sees it: the strides, in elements, of its
/// loops (0 for one it does not follow).
struct Strided {
  SmallVector<int64_t> loopStrides;
  BufferViews::Place place;

  int64_t along(std::optional<unsigned> loop) const {
    return loop ? loopStrides[*loop] : 0;
  }
};

/// The roles of the loops of a matrix product: at most one of each, and
/// none for a loop of range 1 (or a role no loop has: size 1).
struct Roles {
  std::optional<unsigned> batch, m, n, k;
};
} // namespace

/// Fits `x`, a `rows` x `cols` matrix along loops `rowLoop` and `colLoop`
/// of ranges `rows` and `cols`, into `operand` as BLAS takes it, transposed
/// if need be: whether it fits, and then whether it is transposed.
static std::optional<bool> fitOperand(const Strided &x, int64_t rows,
                                      int64_t cols,
                                      std::optional<unsigned> rowLoop,
                                      std::optional<unsigned> colLoop,
                                      GemmOperand &operand) {
  int64_t rowStride = x.along(rowLoop), colStride = x.along(colLoop);
  if (std::optional<int64_t> ld =
          getLeadingDim(rows, cols, rowStride, colStride)) {
    operand.ld = *ld;
    return false;
  }
  if (std::optional<int64_t> ld =
          getLeadingDim(cols, rows, colStride, rowStride)) {
    operand.ld = *ld;
    return true;
  }
  return std::nullopt;
}

std::optional<GemmStep> cuda::matchGemm(linalg::GenericOp generic,
                                        const BufferViews &views,
                                        const FoldedFills &fills,
                                        int64_t members) {
  if (!isMultiplyAccumulate(generic) || generic.getNumReductionLoops() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<Strided> operands;
  for (OpOperand &operand : generic->getOpOperands()) {
    auto type = cast<MemRefType>(operand.get().getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    std::optional<BufferViews::Place> place = views.getPlace(operand.get());
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    if (!place || !map.isProjectedPermutation(/*allowZeroInResults=*/false) ||
        failed(getStridesAndOffset(type, strides, offset)) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return std::nullopt;
    Strided strided{SmallVector<int64_t>(ranges.size(), 0), *place};
    for (auto [result, stride] : llvm::zip(map.getResults(), strides))
      strided.loopStrides[cast<AffineDimExpr>(result).getPosition()] += stride;
    operands.push_back(std::move(strided));
  }
  // Each loop's role from the operands that follow it: A, B and C the
  // batch; A and C the rows M; B and C the columns N; A and B the steps K.
  Roles roles;
  auto iterators = generic.getIteratorTypesArray();
  for (auto [loop, range] : llvm::enumerate(ranges)) {
    if (range == 1)
      continue;
    auto follows = [&, loop = loop](unsigned i) {
      return generic.getMatchingIndexingMap(&generic->getOpOperand(i))
          .isFunctionOfDim(loop);
    };
    bool a = follows(0), b = follows(1), c = follows(2);
    bool reduction = iterators[loop] == utils::IteratorType::reduction;
    std::optional<unsigned> *role = nullptr;
    if (a && b && c && !reduction)
      role = &roles.batch;
    else if (a && !b && c && !reduction)
      role = &roles.m;
    else if (!a && b && c && !reduction)
      role = &roles.n;
    else if (a && b && !c && reduction)
      role = &roles.k;
    if (!role || *role)
      return std::nullopt;
    *role = loop;
  }
  // The batch: the members, or a loop of the op, not both.
  if (roles.batch && members > 1)
    return std::nullopt;
  auto size = [&](std::optional<unsigned> loop) -> int64_t {
    return loop ? ranges[*loop] : 1;
  };
  GemmStep gemm;
  gemm.k = size(roles.k);
  gemm.batch = roles.batch ? size(roles.batch) : members;
  // C as BLAS sees it: M x N if M has unit stride, else N x M (C^T = B^T
  // A^T, the operands swapped).
  const Strided &c = operands[2];
  for (bool swapped : {false, true}) {
    std::optional<unsigned> rows = swapped ? roles.n : roles.m;
    std::optional<unsigned> cols = swapped ? roles.m : roles.n;
    const Strided &a = operands[swapped ? 1 : 0];
    const Strided &b = operands[swapped ? 0 : 1];
    gemm.m = size(rows);
    gemm.n = size(cols);
    std::optional<int64_t> ldc =
        getLeadingDim(gemm.m, gemm.n, c.along(rows), c.along(cols));
    std::optional<bool> transA =
        fitOperand(a, gemm.m, gemm.k, rows, roles.k, gemm.a);
    std::optional<bool> transB =
        fitOperand(b, gemm.k, gemm.n, roles.k, cols, gemm.b);
    if (!ldc || !transA || !transB)
      continue;
    gemm.c.ld = *ldc;
    gemm.transA = *transA;
    gemm.transB = *transB;
    for (auto [operand, x] :
         llvm::zip(SmallVector<GemmOperand *>{&gemm.a, &gemm.b, &gemm.c},
                   SmallVector<const Strided *>{&a, &b, &c})) {
      operand->buffer = x->place.buffer;
      operand->offset = x->place.offset;
      operand->stride =
          roles.batch ? x->along(roles.batch) : x->place.memberStride;
    }
    // A fill folded into the op starts C from 0 (beta 0: C is not read);
    // otherwise the op adds to what C holds (beta 1).
    if (Value filled =
            fills.filledWith.lookup(&generic.getDpsInitsMutable()[0])) {
      FloatAttr zero;
      if (!matchPattern(filled, m_Constant(&zero)) ||
          !zero.getValue().isPosZero())
        return std::nullopt;
      gemm.beta = 0;
    } else {
      gemm.beta = 1;
    }
    // BLAS takes sizes and leading dimensions as int.
    if (llvm::any_of(ArrayRef<int64_t>{gemm.m, gemm.n, gemm.k, gemm.batch,
                                       gemm.a.ld, gemm.b.ld, gemm.c.ld},
                     [](int64_t value) { return value > INT32_MAX; }))
      return std::nullopt;
    gemm.sourceOps = getSourceOps({generic});
    LLVM_DEBUG(llvm::dbgs()
               << "a vendor GEMM can compute " << gemm.sourceOps << ": "
               << ::ens::runtime::printGemmStep(gemm) << "\n");
    return gemm;
  }
  return std::nullopt;
}
