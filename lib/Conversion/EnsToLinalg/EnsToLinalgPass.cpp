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
  lowering::populateEnsToLinalgConvolutionPatterns(patterns);
  lowering::populateEnsToLinalgRandomPatterns(patterns);
}

namespace {

struct ConvertEnsToLinalgPass
    : ens::impl::ConvertEnsToLinalgBase<ConvertEnsToLinalgPass> {
  void runOnOperation() override {
    // The patterns build static tensors; a `?` must be specialized first.
    WalkResult dynamic = getOperation()->walk([](Operation *op) {
      if (!isa<EnsDialect>(op->getDialect()))
        return WalkResult::advance();
      SmallVector<Type> types(op->getOperandTypes());
      llvm::append_range(types, op->getResultTypes());
      for (Type type : types)
        if (auto shaped = dyn_cast<ShapedType>(type);
            shaped && !shaped.hasStaticShape()) {
          op->emitOpError() << "has the type " << type
                            << ", with a `?` size, which no target lowers; "
                               "specialize the program first "
                               "(ens-specialize)";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (dynamic.wasInterrupted())
      return signalPassFailure();
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
