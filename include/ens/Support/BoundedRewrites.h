//===- BoundedRewrites.h - Greedy rewriting that always ends ----*- C++ -*-===//
//
// Every greedy rewrite of the ens pipelines is bounded, so that a
// pathological program fails to compile with an error instead of compiling
// until memory runs out.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_BOUNDEDREWRITES_H
#define ENS_SUPPORT_BOUNDEDREWRITES_H

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::ens {

/// The most rewrites one greedy pattern application may make. Real programs
/// need a small fraction of this.
inline constexpr int64_t kMaxRewrites = 1 << 22;

/// The greedy driver's configuration for every rewrite of the pipelines.
inline GreedyRewriteConfig boundedRewrites() {
  GreedyRewriteConfig config;
  config.maxIterations = 10;
  config.maxNumRewrites = kMaxRewrites;
  return config;
}

/// Applies `patterns` to `op` greedily within the bounds, and reports
/// rewriting that did not settle as an error naming `what`.
inline LogicalResult applyBounded(Operation *op, RewritePatternSet &&patterns,
                                  StringRef what) {
  if (succeeded(applyPatternsAndFoldGreedily(op, std::move(patterns),
                                             boundedRewrites())))
    return success();
  return op->emitError() << what << " did not converge within " << kMaxRewrites
                         << " rewrites";
}

/// The canonicalizer within the bounds.
inline std::unique_ptr<Pass> createBoundedCanonicalizerPass() {
  return createCanonicalizerPass(boundedRewrites());
}

} // namespace mlir::ens

#endif // ENS_SUPPORT_BOUNDEDREWRITES_H
