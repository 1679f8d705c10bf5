//===- IndexWidth.cpp - The width of a loop's index arithmetic ------------===//
//
// Decides whether the kernels of a loop over members may compute their
// indices and loop counters in 32 bits. 64-bit counters take a pair of
// instructions for each add and compare (ISETP .EX in the SASS), which in a
// contraction's inner loop is a large share of the issue slots; the plan
// allows 32 bits where it proves that no index can overflow them.
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The largest index a 32-bit kernel may compute. A counter passes its
/// bound by less than one step (a block's or a member's threads, far below
/// 2^30) before the loop ends, so every value stays below 2^31.
static constexpr uint64_t kMaxIndex32 = uint64_t(1) << 30;

/// The memref that `memref` is a view of (itself if it is none).
static Value getViewRoot(Value memref) {
  while (Operation *view = memref.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::CastOp>(view))
      break;
    memref = view->getOperand(0);
  }
  return memref;
}

unsigned cuda::planIndexBits(scf::ForallOp forall) {
  uint64_t members = forall.getStaticUpperBound()[0];
  // The elements of each buffer the kernels index: a buffer from outside
  // the loop once, one allocated in the loop body once per member (the
  // slices of a global temporary). The points of each op, for all members,
  // bound its point counters and the partial results of a split reduction
  // (at most a chunk per step of each output element). A dynamic size
  // reads as the largest value, which needs 64 bits.
  uint64_t largest = members;
  forall.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Value root = getViewRoot(operand);
      auto type = dyn_cast<MemRefType>(root.getType());
      if (!type)
        continue;
      Operation *alloc = root.getDefiningOp();
      uint64_t copies = alloc && forall->isProperAncestor(alloc) ? members : 1;
      uint64_t elements =
          type.hasStaticShape() ? type.getNumElements() : UINT64_MAX;
      largest = std::max(largest, llvm::SaturatingMultiply(copies, elements));
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      uint64_t points = members;
      for (int64_t range : generic.getStaticLoopRanges())
        points = ShapedType::isDynamic(range)
                     ? UINT64_MAX
                     : llvm::SaturatingMultiply(points, uint64_t(range));
      largest = std::max(largest, points);
    }
  });
  unsigned bits = largest <= kMaxIndex32 ? 32 : 64;
  LLVM_DEBUG(llvm::dbgs() << "the largest index of "
                          << getSourceOps(forall.getOperation()) << " is "
                          << largest << ": " << bits << "-bit indices\n");
  return bits;
}
