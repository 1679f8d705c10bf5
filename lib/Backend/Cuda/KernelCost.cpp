//===- KernelCost.cpp - FLOPs and global-memory traffic of kernels --------===//
//
// Counts what the kernel report and the launch plan's KernelInfo say a
// kernel does: its floating-point operations, and the plan buffers in
// global memory it reads and writes (each counted once per launch).
//
//===----------------------------------------------------------------------===//

#include "KernelCost.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::ens;

int64_t cuda::countFlops(Operation *op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    int64_t iterations = 1;
    for (int64_t range : generic.getStaticLoopRanges())
      iterations *= range;
    int64_t perIteration = 0;
    for (Operation &inner : generic.getBody()->without_terminator())
      perIteration += countFlops(&inner);
    return iterations * perIteration;
  }
  if (auto forall = dyn_cast<scf::ForallOp>(op)) {
    int64_t perMember = 0;
    for (Operation &inner : forall.getBody()->without_terminator())
      perMember += countFlops(&inner);
    return forall.getStaticUpperBound()[0] * perMember;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> trips = constantTripCount(
        loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    int64_t perTrip = 0;
    for (Operation &inner : loop.getBody()->without_terminator())
      perTrip += countFlops(&inner);
    return trips.value_or(1) * perTrip;
  }
  bool isFloat =
      op->getNumResults() == 1 && isa<FloatType>(op->getResult(0).getType());
  bool isArithmetic =
      isa<math::MathDialect>(op->getDialect()) ||
      isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::RemFOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
          arith::MaxNumFOp, arith::MinNumFOp>(op);
  return isFloat && isArithmetic ? 1 : 0;
}

void cuda::collectTraffic(
    Operation *root,
    llvm::function_ref<std::optional<int64_t>(Value)> getGlobalBuffer,
    llvm::SetVector<int64_t> &read, llvm::SetVector<int64_t> &written) {
  auto record = [&](llvm::SetVector<int64_t> &set, Value memref) {
    if (std::optional<int64_t> buffer = getGlobalBuffer(memref))
      set.insert(*buffer);
  };
  root->walk([&](Operation *op) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      for (OpOperand *input : generic.getDpsInputOperands())
        if (isa<MemRefType>(input->get().getType()))
          record(read, input->get());
      for (OpOperand &init : generic.getDpsInitsMutable()) {
        record(written, init.get());
        // An output the body reads (an accumulator) is read first.
        if (!generic.getMatchingBlockArgument(&init).use_empty())
          record(read, init.get());
      }
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      record(read, load.getMemRef());
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      record(written, store.getMemRef());
    }
  });
}
