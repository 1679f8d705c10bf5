//===- ApproximateTanh.cpp - tanh as a polynomial -------------------------===//
//
// Replaces f32 tanh with a polynomial approximation
// (ens-cpu-approximate-tanh). Upstream applies the pattern only in a test
// pass.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUAPPROXIMATETANH
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
/// The approximation vectorizes; the libm call it replaces would be made
/// once per element.
struct ApproximateTanhPass
    : ens::impl::EnsCpuApproximateTanhBase<ApproximateTanhPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateTanhPattern(patterns);
    if (failed(applyBounded(getOperation(), std::move(patterns),
                            "approximating tanh")))
      signalPassFailure();
  }
};
} // namespace
