//===- KernelCost.h - FLOPs and memory traffic of kernels -------*- C++ -*-===//
//
// Private to the CUDA backend: what a kernel computes and moves, for the
// launch plan's KernelInfo and the kernel report.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_KERNELCOST_H
#define ENS_LIB_BACKEND_CUDA_KERNELCOST_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"

#include <cstdint>
#include <optional>

namespace mlir::ens::cuda {

/// The floating-point operations of one execution of `op`: one per float
/// arith or math op, times the iterations of the loops around it (a loop
/// over members has its members as iterations).
int64_t countFlops(Operation *op);

/// The share of countFlops(op) that fused multiply-adds do: two for each
/// multiply that the kernel writes fused with its add, as one fmaf.
int64_t countFmaFlops(Operation *op);

/// Adds the plan buffers that `root` and the ops nested in it read to
/// `read`, and those they write to `written`. `getGlobalBuffer` gives the
/// plan buffer in global memory of a memref, if it has one.
void collectTraffic(
    Operation *root,
    llvm::function_ref<std::optional<int64_t>(Value)> getGlobalBuffer,
    llvm::SetVector<int64_t> &read, llvm::SetVector<int64_t> &written);

/// The memref.loads outside `root` whose values it uses, directly or
/// through pure scalar ops. Canonicalization leaves them at the top level
/// where it folds a loop of one iteration (an ens.scatter_add of a single
/// update), and the kernel that uses the value reads the element itself.
SmallVector<memref::LoadOp> getCapturedLoads(Operation *root);

/// Whether no op from `load` up to the op of its block that holds `user`
/// may write memory, so that `user`'s kernel reads what `load` would.
bool isReadableAt(memref::LoadOp load, Operation *user);

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_KERNELCOST_H
