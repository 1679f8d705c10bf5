//===- KernelCost.cpp - FLOPs and global-memory traffic of kernels --------===//
//
// Counts what the kernel report and the launch plan's KernelInfo say a
// kernel does: its floating-point operations, and the plan buffers in
// global memory it reads and writes (each counted once per launch),
// including the loads outside it whose values it reads itself.
//
//===----------------------------------------------------------------------===//

#include "KernelCost.h"

#include "KernelBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::ens;

/// The sum over the executions of the ops in `op` of `count` of each op
/// without regions: an op nested in loops counts once per iteration (a loop
/// over members has its members as iterations).
static int64_t
countPerIteration(Operation *op,
                  llvm::function_ref<int64_t(Operation *)> count) {
  auto sum = [&](Block &block) {
    int64_t total = 0;
    for (Operation &inner : block.without_terminator())
      total += countPerIteration(&inner, count);
    return total;
  };
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    int64_t iterations = 1;
    for (int64_t range : generic.getStaticLoopRanges())
      iterations *= range;
    return iterations * sum(*generic.getBody());
  }
  if (auto forall = dyn_cast<scf::ForallOp>(op))
    return forall.getStaticUpperBound()[0] * sum(*forall.getBody());
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> trips = constantTripCount(
        loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    return trips.value_or(1) * sum(*loop.getBody());
  }
  return count(op);
}

int64_t cuda::countFlops(Operation *op) {
  return countPerIteration(op, [](Operation *inner) -> int64_t {
    bool isFloat = inner->getNumResults() == 1 &&
                   isa<FloatType>(inner->getResult(0).getType());
    bool isArithmetic =
        isa<math::MathDialect>(inner->getDialect()) ||
        isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            arith::RemFOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
            arith::MaxNumFOp, arith::MinNumFOp>(inner);
    return isFloat && isArithmetic ? 1 : 0;
  });
}

int64_t cuda::countFmaFlops(Operation *op) {
  return countPerIteration(op, [](Operation *inner) -> int64_t {
    auto add = dyn_cast<arith::AddFOp>(inner);
    return add && getFusedMultiply(add) ? 2 : 0;
  });
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

SmallVector<memref::LoadOp> cuda::getCapturedLoads(Operation *root) {
  llvm::SetVector<Value> captured;
  for (Region &region : root->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  captured.insert(root->operand_begin(), root->operand_end());
  SmallVector<Value> work(captured.begin(), captured.end());
  SmallVector<memref::LoadOp> loads;
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || isa<MemRefType>(value.getType()) || !seen.insert(def).second)
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(def))
      loads.push_back(load);
    else if (!isPure(def) || def->getNumRegions())
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return loads;
}

bool cuda::isReadableAt(memref::LoadOp load, Operation *user) {
  Operation *at = load->getBlock()->findAncestorOpInBlock(*user);
  if (!at || !load->isBeforeInBlock(at))
    return false;
  for (Operation *op = load->getNextNode(); op != at; op = op->getNextNode())
    if (!isMemoryEffectFree(op) && !isa<memref::LoadOp, memref::AllocOp>(op))
      return false;
  return true;
}
