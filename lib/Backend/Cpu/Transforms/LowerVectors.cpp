//===- LowerVectors.cpp - Vector ops to what LLVM handles well ------------===//
//
// Lowers vector ops to 1-D vector ops and FMAs (ens-cpu-lower-vectors).
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPULOWERVECTORS
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
/// Lowers vector ops in three stages, each a bounded rewrite of its own:
/// contractions (to outer products) and reductions, then transfers (to 1-D),
/// then the rest. No canonicalization is mixed in: together with these
/// patterns it can rewrite without end.
struct LowerVectorsPass : ens::impl::EnsCpuLowerVectorsBase<LowerVectorsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    func::FuncOp function = getOperation();
    vector::VectorTransformsOptions lowering;
    lowering.setVectorTransformsOptions(
        vector::VectorContractLowering::OuterProduct);
    lowering.setVectorMultiReductionLowering(
        vector::VectorMultiReductionLowering::InnerParallel);
    lowering.setVectorTransposeLowering(
        vector::VectorTransposeLowering::Shuffle1D);

    RewritePatternSet contractions(context);
    vector::populateVectorContractLoweringPatterns(contractions, lowering);
    vector::populateVectorTransferPermutationMapLoweringPatterns(contractions);
    vector::populateVectorMultiReductionLoweringPatterns(
        contractions, lowering.vectorMultiReductionLowering);
    if (failed(applyBounded(function, std::move(contractions),
                            "lowering vector contractions")))
      return signalPassFailure();

    RewritePatternSet transfers(context);
    populateVectorToSCFConversionPatterns(
        transfers,
        VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(1));
    vector::populateVectorTransferLoweringPatterns(transfers,
                                                   /*maxTransferRank=*/1);
    if (failed(applyBounded(function, std::move(transfers),
                            "lowering vector transfers")))
      return signalPassFailure();

    RewritePatternSet rest(context);
    vector::populateVectorOuterProductLoweringPatterns(rest);
    vector::populateVectorBroadcastLoweringPatterns(rest);
    vector::populateVectorShapeCastLoweringPatterns(rest);
    vector::populateVectorTransposeLoweringPatterns(rest, lowering);
    vector::populateVectorMaskOpLoweringPatterns(rest);
    if (failed(applyBounded(function, std::move(rest), "lowering vector ops")))
      signalPassFailure();
  }
};
} // namespace
