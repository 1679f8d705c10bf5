//===- ForwardResults.cpp - Results straight into the caller's buffers ----===//
//
// Replaces an allocation that a function copies into a result buffer at its
// end with that result buffer.
//
//===----------------------------------------------------------------------===//

#include "ens/Bufferization/Passes.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSFORWARDRESULTS
#include "ens/Bufferization/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
struct ForwardResultsPass
    : ens::impl::EnsForwardResultsBase<ForwardResultsPass> {
  void runOnOperation() override {
    if (getOperation().isExternal())
      return;
    Block &body = getOperation().getBody().front();
    SmallVector<memref::CopyOp> copies;
    for (Operation &op : llvm::reverse(body)) {
      if (isa<func::ReturnOp>(op))
        continue;
      auto copy = dyn_cast<memref::CopyOp>(op);
      if (!copy)
        break;
      copies.push_back(copy);
    }
    for (memref::CopyOp copy : llvm::reverse(copies)) {
      // The copy may read the allocation through reshapes (a result
      // computed in another shape, such as a pooling adjoint's windows):
      // the allocation is then the result buffer seen through the inverse
      // reshapes, which keep an identity layout.
      Value source = copy.getSource();
      SmallVector<Operation *> reshapes;
      while (isa_and_present<memref::CollapseShapeOp, memref::ExpandShapeOp>(
          source.getDefiningOp())) {
        reshapes.push_back(source.getDefiningOp());
        source = reshapes.back()->getOperand(0);
      }
      auto alloc = source.getDefiningOp<memref::AllocOp>();
      auto result = dyn_cast<BlockArgument>(copy.getTarget());
      if (!alloc || alloc->getBlock() != &body || !result ||
          !result.hasOneUse() ||
          copy.getSource().getType() != result.getType() ||
          (!reshapes.empty() && !alloc.getType().getLayout().isIdentity()) ||
          llvm::any_of(alloc->getUsers(), [](Operation *user) {
            return isa<memref::DeallocOp>(user);
          }))
        continue;
      OpBuilder builder(alloc);
      Value view = result;
      for (Operation *reshape : reshapes) {
        if (auto collapse = dyn_cast<memref::CollapseShapeOp>(reshape))
          view = builder.create<memref::ExpandShapeOp>(
              collapse.getLoc(), collapse.getSrcType(), view,
              collapse.getReassociationIndices());
        else
          view = builder.create<memref::CollapseShapeOp>(
              reshape->getLoc(), view,
              cast<memref::ExpandShapeOp>(reshape).getReassociationIndices());
      }
      alloc.getResult().replaceAllUsesWith(view);
      copy.erase();
      alloc.erase();
      for (Operation *reshape : reshapes)
        if (reshape->use_empty())
          reshape->erase();
    }
  }
};
} // namespace
