//===- MergeElementwise.cpp - Elementwise chains as one op ----------------===//
//
// The ens-cuda-merge-elementwise pass: in each loop over members, a chain
// of elementwise ops becomes one, so that a phase computes it in registers
// (mergeElementwiseChains, Epilogues.cpp, says when a merge is safe).
//
//===----------------------------------------------------------------------===//

#include "Planning.h"

#include "ens/Backend/Cuda/Passes.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCUDAMERGEELEMENTWISE
#include "ens/Backend/Cuda/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
struct EnsCudaMergeElementwisePass
    : public mlir::ens::impl::EnsCudaMergeElementwiseBase<
          EnsCudaMergeElementwisePass> {
  void runOnOperation() override {
    getOperation().walk([](scf::ForallOp forall) {
      cuda::mergeElementwiseChains(*forall.getBody());
    });
  }
};
} // namespace
