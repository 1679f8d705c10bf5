//===- Contraction.cpp - Contraction reference kernels --------------------===//
//
// einsum, tensordot and matmul all reduce to one labelled contraction,
// which visits every combination of label values and accumulates the
// products into the output element they index.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Kernels.h"

#include "Utils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace mlir::ens;
using namespace mlir::ens::ref::detail;
using llvm::ArrayRef;
using llvm::SmallVector;

HostTensor ref::contract(const HostTensor &lhs, ArrayRef<int64_t> lhsLabels,
                         const HostTensor &rhs, ArrayRef<int64_t> rhsLabels,
                         ArrayRef<int64_t> outLabels) {
  // Iterate over the output labels then the summed labels, so that the
  // output element is the iteration index divided by the summed count.
  SmallVector<int64_t, 8> labels(outLabels), sizes;
  auto sizeOf = [&](int64_t label) {
    for (auto [l, s] : llvm::zip_equal(lhsLabels, lhs.shape))
      if (l == label)
        return s;
    for (auto [l, s] : llvm::zip_equal(rhsLabels, rhs.shape))
      if (l == label)
        return s;
    llvm_unreachable("output label of no operand");
  };
  for (ArrayRef<int64_t> operandLabels : {lhsLabels, rhsLabels})
    for (int64_t label : operandLabels)
      if (!llvm::is_contained(labels, label))
        labels.push_back(label);
  for (int64_t label : labels)
    sizes.push_back(sizeOf(label));

  auto positions = [&](ArrayRef<int64_t> operandLabels) {
    SmallVector<int64_t, 4> result;
    for (int64_t label : operandLabels)
      result.push_back(llvm::find(labels, label) - labels.begin());
    return result;
  };
  SmallVector<int64_t, 4> lhsPositions = positions(lhsLabels);
  SmallVector<int64_t, 4> rhsPositions = positions(rhsLabels);
  SmallVector<int64_t, 4> lhsStrides = getRowMajorStrides(lhs.shape);
  SmallVector<int64_t, 4> rhsStrides = getRowMajorStrides(rhs.shape);

  SmallVector<int64_t, 4> outShape(
      ArrayRef<int64_t>(sizes).take_front(outLabels.size()));
  int64_t summedCount =
      getNumElements(ArrayRef<int64_t>(sizes).drop_front(outLabels.size()));
  std::vector<Accumulator> sums(getNumElements(outShape),
                                Accumulator(lhs.dtype));
  forEachIndex(sizes, [&](ArrayRef<int64_t> index, int64_t linear) {
    int64_t l = 0, r = 0;
    for (auto [p, s] : llvm::zip_equal(lhsPositions, lhsStrides))
      l += index[p] * s;
    for (auto [p, s] : llvm::zip_equal(rhsPositions, rhsStrides))
      r += index[p] * s;
    sums[linear / std::max<int64_t>(summedCount, 1)].addProduct(lhs.values[l],
                                                                rhs.values[r]);
  });

  HostTensor result(lhs.dtype, outShape);
  for (auto [r, sum] : llvm::zip_equal(result.values, sums))
    r = sum.get();
  result.roundToDType();
  return result;
}

HostTensor ref::tensordot(const HostTensor &lhs, const HostTensor &rhs,
                          ArrayRef<int64_t> lhsDims,
                          ArrayRef<int64_t> rhsDims) {
  // lhs dimension d has label d; rhs dimension d has label lhsRank + d
  // unless it is contracted, in which case it shares its lhs partner's.
  int64_t lhsRank = lhs.getRank();
  SmallVector<int64_t, 4> lhsLabels, rhsLabels, outLabels;
  for (int64_t d = 0; d < lhsRank; ++d) {
    lhsLabels.push_back(d);
    if (!llvm::is_contained(lhsDims, d))
      outLabels.push_back(d);
  }
  for (int64_t d = 0; d < rhs.getRank(); ++d) {
    const int64_t *it = llvm::find(rhsDims, d);
    if (it != rhsDims.end()) {
      rhsLabels.push_back(lhsDims[it - rhsDims.begin()]);
      continue;
    }
    rhsLabels.push_back(lhsRank + d);
    outLabels.push_back(lhsRank + d);
  }
  return contract(lhs, lhsLabels, rhs, rhsLabels, outLabels);
}

HostTensor ref::matmul(const HostTensor &lhs, const HostTensor &rhs) {
  bool lhsVector = lhs.getRank() == 1, rhsVector = rhs.getRank() == 1;
  SmallVector<int64_t, 4> l(lhs.shape), r(rhs.shape);
  if (lhsVector)
    l.insert(l.begin(), 1);
  if (rhsVector)
    r.push_back(1);
  int64_t lBatch = l.size() - 2, rBatch = r.size() - 2;
  int64_t batch = std::max(lBatch, rBatch);
  SmallVector<int64_t, 4> batchShape;
  for (int64_t i = 0; i < batch; ++i) {
    int64_t a = i >= batch - lBatch ? l[i - (batch - lBatch)] : 1;
    int64_t b = i >= batch - rBatch ? r[i - (batch - rBatch)] : 1;
    batchShape.push_back(std::max(a, b));
  }
  // Broadcast both operands to the full batch shape, right-aligned.
  auto expand = [&](const HostTensor &x, ArrayRef<int64_t> promoted) {
    int64_t rank = promoted.size();
    SmallVector<int64_t, 4> shape(batchShape);
    shape.append(promoted.end() - 2, promoted.end());
    SmallVector<int64_t, 4> dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(batch + 2 - rank + d);
    return broadcastInDim(reshape(x, promoted), shape, dims);
  };
  HostTensor lhsFull = expand(lhs, l), rhsFull = expand(rhs, r);

  auto batchLabels = llvm::to_vector<4>(llvm::seq<int64_t>(0, batch));
  int64_t m = batch, k = batch + 1, n = batch + 2;
  SmallVector<int64_t, 4> lhsLabels(batchLabels), rhsLabels(batchLabels),
      outLabels(batchLabels);
  lhsLabels.append({m, k});
  rhsLabels.append({k, n});
  outLabels.append({m, n});
  HostTensor product =
      contract(lhsFull, lhsLabels, rhsFull, rhsLabels, outLabels);

  SmallVector<int64_t, 4> shape(batchShape);
  if (!lhsVector)
    shape.push_back(l[l.size() - 2]);
  if (!rhsVector)
    shape.push_back(r.back());
  return reshape(product, shape);
}
