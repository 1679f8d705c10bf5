//===- HoistTransfers.cpp - Accumulators out of reduction loops -----------===//
//
// Keeps the accumulators of reduction loops in registers
// (ens-cpu-hoist-transfers).
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUHOISTTRANSFERS
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
/// A read and a write of the same vector in every iteration of a loop move
/// out of the loop, which then carries the vector.
struct HoistTransfersPass
    : ens::impl::EnsCpuHoistTransfersBase<HoistTransfersPass> {
  void runOnOperation() override {
    linalg::hoistRedundantVectorTransfers(getOperation());
  }
};
} // namespace
