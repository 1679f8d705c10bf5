//===- Passes.h - CUDA backend pipeline -------------------------*- C++ -*-===//
//
// The passes that take linalg on tensors to the linalg on buffers from
// which the CUDA backend emits its kernels, and the CUDA backend's own
// passes on those buffers (Passes.td): generalization, the merging of
// elementwise chains, and the planning pass that records the GPU decisions
// of each loop over members for a named target.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_PASSES_H
#define ENS_BACKEND_CUDA_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Backend/Cuda/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Backend/Cuda/Passes.h.inc"

/// Adds ens-cuda-pipeline: the passes from linalg on tensors, as
/// convert-ens-to-linalg leaves it, to the linalg on buffers that the CUDA
/// code generator reads. They fuse every run of batched ops into one loop
/// over the members (one kernel), bufferize with every result of a
/// function written into a buffer its caller provides, and fold the copies
/// that bufferization leaves between equal views.
void buildEnsCudaPipeline(OpPassManager &pm);

/// Registers the ens-cuda-pipeline pipeline with the pass registry.
void registerEnsCudaPipeline();

} // namespace mlir::ens

#endif // ENS_BACKEND_CUDA_PASSES_H
