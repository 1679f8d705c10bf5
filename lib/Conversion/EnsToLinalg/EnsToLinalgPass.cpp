//===- EnsToLinalgPass.cpp - Lowering ens to linalg on tensors ------------===//
//
// Each ens op becomes the tensor-level structured form a backend tiles,
// fuses and bufferizes. The patterns live in one file per op family; the
// scalar semantics are the reference interpreter's (docs/semantics.md).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "ens/Conversion/EnsToLinalg/EnsToLinalg.h"

#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/IR/EnsDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ens {
#define GEN_PASS_DEF_CONVERTENSTOLINALG
#include "ens/Conversion/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

void mlir::ens::populateEnsToLinalgConversionPatterns(
    RewritePatternSet &patterns) {
  lowering::populateEnsToLinalgPointwisePatterns(patterns);
  lowering::populateEnsToLinalgShapePatterns(patterns);
  lowering::populateEnsToLinalgGatherPatterns(patterns);
  lowering::populateEnsToLinalgReductionPatterns(patterns);
  lowering::populateEnsToLinalgContractionPatterns(patterns);
  lowering::populateEnsToLinalgRandomPatterns(patterns);
}

namespace {

struct ConvertEnsToLinalgPass
    : ens::impl::ConvertEnsToLinalgBase<ConvertEnsToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addIllegalDialect<EnsDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect, func::FuncDialect>();
    RewritePatternSet patterns(context);
    populateEnsToLinalgConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
