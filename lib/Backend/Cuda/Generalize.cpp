//===- Generalize.cpp - Named linalg ops as linalg.generic ----------------===//
//
// The ens-cuda-generalize pass: the kernel emitter reads only
// linalg.generic, so every named linalg op and memref.copy is rewritten as
// one.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCUDAGENERALIZE
#include "ens/Backend/Cuda/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
struct EnsCudaGeneralizePass
    : public mlir::ens::impl::EnsCudaGeneralizeBase<EnsCudaGeneralizePass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    IRRewriter rewriter(function.getContext());
    SmallVector<memref::CopyOp> copies;
    function.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
    SmallVector<linalg::LinalgOp> named;
    function.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op))) {
        op->emitError("cannot generalize");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
