//===- Pipeline.h - The CPU backend's pass pipeline -------------*- C++ -*-===//
//
// The passes that take an ens module to the LLVM dialect for the CPU, and
// what they need to know about the machine that will run the code.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_PIPELINE_H
#define ENS_LIB_BACKEND_CPU_PIPELINE_H

#include "mlir/Pass/PassManager.h"

namespace mlir::ens::cpu {

/// How the pipeline specializes code for the machine that runs it.
struct PipelineOptions {
  /// Threads that run the loops over tiles. With 1, every loop is
  /// sequential; with more, the outermost loop over the tiles of each
  /// linalg op becomes an OpenMP worksharing loop on this many threads.
  unsigned threads = 1;
  /// The width of the machine's widest vector registers in bytes: 64 with
  /// AVX-512, 32 with AVX, 16 otherwise.
  unsigned vectorBytes = 16;
};

/// Adds the passes from an ens module to the LLVM dialect to `pm`. The code
/// allocates buffers through _mlir_memref_to_llvm_alloc and _free, which
/// the JIT must provide (BufferCache.h).
void buildPipeline(PassManager &pm, const PipelineOptions &options);

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_PIPELINE_H
