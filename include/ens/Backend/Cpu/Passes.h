//===- Passes.h - CPU backend passes and pipeline ---------------*- C++ -*-===//
//
// The CPU backend's own passes, which its pipeline (Pipeline.cpp) runs
// between upstream ones on the way from linalg on tensors to the LLVM
// dialect.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CPU_PASSES_H
#define ENS_BACKEND_CPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Backend/Cpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Backend/Cpu/Passes.h.inc"

namespace cpu {
/// The fewest loop iterations (the product of the loop extents) that an op,
/// or a group of member ops fused into one loop, must have to be spread
/// over threads; below this, starting the threads costs more than they
/// save.
inline constexpr int64_t kMinParallelWork = 16384;
} // namespace cpu

/// Registers the dialects that the CPU backend's pipeline produces, and the
/// external models (bufferization, tiling, subsets, inlining) its passes
/// need on the ops of linalg on tensors.
void registerEnsCpuPipelineDialects(DialectRegistry &registry);

} // namespace mlir::ens

#endif // ENS_BACKEND_CPU_PASSES_H
