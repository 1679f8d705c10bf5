//===- Passes.td - CUDA backend passes ---------------------*- tablegen -*-===//
//
// The CUDA backend's own passes, which run on the linalg on buffers that
// ens-cuda-pipeline leaves: the rewrites that shape each loop over members
// into phases, and the planning pass that records the GPU decisions for a
// named target before the kernels are emitted.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_PASSES_TD
#define ENS_BACKEND_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def EnsCudaGeneralize : Pass<"ens-cuda-generalize", "::mlir::func::FuncOp"> {
  let summary = "Rewrite named linalg ops and memref.copy as linalg.generic";
  let description = [{
    The kernel emitter reads only `linalg.generic`: every named linalg op
    is generalized, and every `memref.copy` becomes a `linalg.copy` first.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def EnsCudaMergeElementwise
    : Pass<"ens-cuda-merge-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Merge chains of elementwise ops in loops over members";
  let description = [{
    In the body of each loop over members (`scf.forall`), merges each
    elementwise `linalg.generic` that reads an output of an earlier
    elementwise one at the points it writes it into that earlier one, where
    moving it up changes nothing: one op then computes both, the later
    taking the value in registers. A loss's gradient (a scaling of the
    error that the last layer's epilogue computes) then runs in the last
    layer's epilogue instead of a phase of its own.
  }];
}

def EnsCudaPlan : Pass<"ens-cuda-plan", "::mlir::ModuleOp"> {
  let summary = "Record the GPU decisions of each loop over members";
  let description = [{
    Decides, for a named target GPU, how each loop over members
    (`scf.forall`) of each function runs, and records the decisions on the
    loop as an `ens_cuda.kernel_config` dictionary: the strategy, the
    members per block and threads per member (members-per-block), threads
    per block and shared memory, and per phase how the block computes it
    (points, block reduction, serial, vendor GEMM), its register tile, its
    tensor-core precision, its staged operands, its split-K chunks, its
    threads per launch and blocks per member, and its launch. The module
    gets `ens_cuda.target`, the target's name.

    Decisions already written on a loop are kept: `strategy` and
    `members_per_block` of an `ens_cuda.kernel_config` are honoured, so
    that the later steps can be tested on a hand-written config.

    Input: the linalg on buffers that `ens-cuda-pipeline`,
    `ens-cuda-generalize` and `ens-cuda-merge-elementwise` leave.
    docs/cuda.md ("The planning pass") lists the attribute's fields.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"h100-sxm\"",
           "The GPU to plan for: h100-sxm, h200, a100, a100-80gb, a6000">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"auto\"",
           "The strategy of every loop without one written: auto (the "
           "performance model picks per loop), member-per-block, tiled or "
           "members-per-block">,
    Option<"precision", "precision", "std::string", /*default=*/"\"f32\"",
           "How contractions multiply: f32, tf32 or 3xtf32">,
    Option<"gemm", "gemm", "std::string", /*default=*/"\"auto\"",
           "Who computes matrix products: auto, generated or cublas">,
  ];
}

#endif // ENS_BACKEND_CUDA_PASSES_TD
