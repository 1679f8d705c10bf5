//===- Pointwise.cpp - Lowering elementwise ens ops to linalg -------------===//
//
// Every ens op with the Elementwise trait becomes one linalg.generic with
// identity maps and parallel loops; its body is the op's scalar mapping.
//
//===----------------------------------------------------------------------===//

#include "MapEnsToScalarOp.h"
#include "Patterns.h"
#include "Utils.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::lowering;

namespace {

/// Matches any op so that one pattern serves the whole family: a new
/// elementwise op needs only its case in mapEnsOpToScalarOp.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(MLIRContext *context)
      : ConversionPattern(MatchAnyOpTypeTag(), 1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<EnsDialect>(op->getDialect()) ||
        !op->hasTrait<mlir::OpTrait::Elementwise>())
      return failure();
    rewriter.replaceOp(
        op,
        elementwise(rewriter, op->getLoc(), tensorType(op->getResult(0)),
                    operands, [&](OpBuilder &b, Location loc, ValueRange args) {
                      return mapEnsOpToScalarOp(op, b, loc, args);
                    }));
    return success();
  }
};

} // namespace

void lowering::populateEnsToLinalgPointwisePatterns(
    RewritePatternSet &patterns) {
  patterns.add<ElementwiseLowering>(patterns.getContext());
}
