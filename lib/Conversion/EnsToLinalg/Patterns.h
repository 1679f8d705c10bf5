//===- Patterns.h - ens-to-linalg patterns by op family ---------*- C++ -*-===//
//
// Private to lib/Conversion/EnsToLinalg: each op family has its own file and
// populate function; the pass (EnsToLinalgPass.cpp) collects them all.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_CONVERSION_ENSTOLINALG_PATTERNS_H
#define ENS_LIB_CONVERSION_ENSTOLINALG_PATTERNS_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ens::lowering {

/// Replaces an `OpTy` by the one value that `Lower` builds from it and its
/// converted operands; a failure from `Lower` leaves the op illegal.
template <typename OpTy,
          FailureOr<Value> (*Lower)(OpTy, typename OpTy::Adaptor, OpBuilder &)>
struct OpLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> result = Lower(op, adaptor, rewriter);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// Every op with the Elementwise trait: one parallel linalg.generic whose
/// body is the op's scalar mapping (MapEnsToScalarOp.h).
void populateEnsToLinalgPointwisePatterns(RewritePatternSet &patterns);

/// ens.constant and the ops that move elements without computing:
/// broadcast_in_dim, reshape, transpose, slice, pad and concat.
void populateEnsToLinalgShapePatterns(RewritePatternSet &patterns);

/// The ops that address elements by index: take, scatter_add and one_hot.
void populateEnsToLinalgGatherPatterns(RewritePatternSet &patterns);

/// reduce_sum, reduce_max, reduce_mean, logsumexp, softmax and log_softmax.
void populateEnsToLinalgReductionPatterns(RewritePatternSet &patterns);

/// einsum, tensordot and matmul.
void populateEnsToLinalgContractionPatterns(RewritePatternSet &patterns);

/// conv and reduce_window, each one linalg.generic over its windows.
void populateEnsToLinalgConvolutionPatterns(RewritePatternSet &patterns);

/// random_uniform, random_normal, random_split and random_fold_in.
void populateEnsToLinalgRandomPatterns(RewritePatternSet &patterns);

} // namespace mlir::ens::lowering

#endif // ENS_LIB_CONVERSION_ENSTOLINALG_PATTERNS_H
