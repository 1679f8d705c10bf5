//===- EnsToLinalg.h - Lowering ens to linalg on tensors --------*- C++ -*-===//
//
// The patterns of the convert-ens-to-linalg pass, for drivers that run them
// with their own conversion target.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_CONVERSION_ENSTOLINALG_ENSTOLINALG_H
#define ENS_CONVERSION_ENSTOLINALG_ENSTOLINALG_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::ens {

/// Adds the patterns lowering every ens op, except the function transforms
/// (ens.vmap, ens.value_and_grad), to linalg, tensor, arith, math and scf on
/// tensors.
void populateEnsToLinalgConversionPatterns(RewritePatternSet &patterns);

} // namespace mlir::ens

#endif // ENS_CONVERSION_ENSTOLINALG_ENSTOLINALG_H
