//===- Passes.h - CPU backend passes and pipeline ---------------*- C++ -*-===//
//
// The passes and the pipeline that take fused linalg on tensors to the LLVM
// dialect for the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CPU_PASSES_H
#define ENS_BACKEND_CPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

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

/// How ens-cpu-pipeline specializes code for the machine that runs it.
struct EnsCpuPipelineOptions
    : public PassPipelineOptions<EnsCpuPipelineOptions> {
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads that run the loops over tiles. With 1, every "
                     "loop is sequential; with more, the outermost loop over "
                     "the tiles of each linalg op becomes an OpenMP "
                     "worksharing loop on this many threads"),
      llvm::cl::init(1)};
  PassOptions::Option<unsigned> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("The width of the machine's widest vector registers in "
                     "bytes: 64 with AVX-512, 32 with AVX, 16 otherwise"),
      llvm::cl::init(16)};
  PassOptions::Option<int64_t> l2Bytes{
      *this, "l2-bytes",
      llvm::cl::desc("The size of a core's L2 cache in bytes: loop results "
                     "smaller than this are read from it after their loop "
                     "(ens-cpu-reduce-in-loops)"),
      llvm::cl::init(1 << 20)};
};

/// Adds ens-cpu-pipeline: the passes from linalg on tensors, as
/// convert-ens-to-linalg leaves it, to the LLVM dialect. They fuse, tile
/// and vectorize, bufferize with every result of a function written into a
/// buffer its caller provides, lower vectors and loops (to OpenMP with more
/// than one thread) and convert everything to LLVM. The code allocates
/// buffers through _mlir_memref_to_llvm_alloc and _free, which whoever runs
/// it must provide.
void buildEnsCpuPipeline(OpPassManager &pm,
                         const EnsCpuPipelineOptions &options = {});

/// Registers the ens-cpu-pipeline pipeline with the pass registry.
void registerEnsCpuPipeline();

/// Registers the dialects that ens-cpu-pipeline produces, and the external
/// models (bufferization, tiling, subsets, inlining) its passes need on the
/// ops of linalg on tensors.
void registerEnsCpuPipelineDialects(DialectRegistry &registry);

} // namespace mlir::ens

#endif // ENS_BACKEND_CPU_PASSES_H
