//===- InlinePass.cpp - Inlining within a bound ---------------------------===//
//
// A function's size once inlined is its own ops plus, for each call, the
// inlined size of the callee less its return, which inlining drops (a call
// to a single-block function is replaced by the rest of its body):
// computed once per function (memoized), in
// time linear in the module, and saturated just past the bound so that no
// count overflows however deep the call tree.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ens-inline"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSINLINE
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
/// Inlined sizes of the functions of one module, saturated at cap.
class InlinedSizes {
public:
  InlinedSizes(ModuleOp module, uint64_t cap) : symbols(module), cap(cap) {}

  uint64_t get(func::FuncOp function) {
    auto [it, inserted] = sizes.try_emplace(function, kInProgress);
    if (!inserted)
      // A call back into a function being counted is recursion.
      return it->second == kInProgress ? 1 : it->second;
    uint64_t size = 0;
    function.getBody().walk([&](Operation *op) {
      uint64_t add = 1;
      if (auto call = dyn_cast<func::CallOp>(op))
        if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
          if (!callee.isExternal())
            // The callee's body, less its return, replaces the call.
            add = std::max<uint64_t>(get(callee), 2) - 1;
      size = std::min(cap, size + add);
    });
    sizes[function] = size;
    return size;
  }

private:
  static constexpr uint64_t kInProgress = ~uint64_t(0);
  SymbolTable symbols;
  uint64_t cap;
  llvm::DenseMap<Operation *, uint64_t> sizes;
};
} // namespace

LogicalResult mlir::ens::checkInlinedSizes(ModuleOp module, uint64_t maxOps) {
  // Saturating one past the bound tells "too many" from "exactly maxOps".
  InlinedSizes sizes(module, maxOps + 1);
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal())
      continue;
    uint64_t size = sizes.get(function);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] @" << function.getSymName()
                            << ": " << size << " ops once inlined\n");
    if (size > maxOps)
      return function.emitOpError()
             << "has more than " << maxOps
             << " ops once its calls are inlined, too many to compile";
  }
  return success();
}

namespace {
struct EnsInlinePass : public mlir::ens::impl::EnsInlineBase<EnsInlinePass> {
  using EnsInlineBase::EnsInlineBase;

  void runOnOperation() override {
    if (failed(checkInlinedSizes(getOperation(), maxOps)))
      return signalPassFailure();
    OpPassManager inliner(ModuleOp::getOperationName());
    inliner.addPass(createInlinerPass());
    if (failed(runPipeline(inliner, getOperation())))
      signalPassFailure();
  }
};
} // namespace
