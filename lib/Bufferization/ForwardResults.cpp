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
      auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
      auto result = dyn_cast<BlockArgument>(copy.getTarget());
      if (!alloc || alloc->getBlock() != &body || !result ||
          !result.hasOneUse() || alloc.getType() != result.getType() ||
          llvm::any_of(alloc->getUsers(), [](Operation *user) {
            return isa<memref::DeallocOp>(user);
          }))
        continue;
      alloc.getResult().replaceAllUsesWith(result);
      copy.erase();
      alloc.erase();
    }
  }
};
} // namespace
