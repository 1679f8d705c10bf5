//===- Pipeline.cpp - The CPU backend's pass pipeline ---------------------===//
//
// From ens to the LLVM dialect:
//
//  1. ens function transforms, convert-ens-to-linalg, inlining.
//  2. Elementwise fusion of linalg.generic ops where no element is
//     computed twice (ens-fuse-elementwise).
//  3. Fusion over the model axis (ens-fuse-members): runs of the batched
//     ops of an ensemble become one scf.forall over the members, whose
//     body computes one member's slice of every op in turn. A member's
//     intermediate values stay in cache, and the loop is the one parallel
//     region of the step.
//  4. Tiling and vectorization of every linalg op on tensors
//     (ens-cpu-tile-and-vectorize).
//  5. One-shot bufferization, results as out-parameters written in place
//     (ens-forward-results), deallocation
//     (after scf.forall becomes scf.parallel, which deallocation handles).
//  6. Hoisting of the accumulators out of reduction loops
//     (ens-cpu-hoist-transfers), and lowering of vector ops to what LLVM
//     handles well (ens-cpu-lower-vectors).
//  7. scf.parallel -> OpenMP worksharing loops with a dynamic schedule (more
//     than one thread) or sequential loops, and the conversion to LLVM.
//
// Every greedy rewrite is bounded, so a pathological program fails to
// compile with an error instead of compiling forever; tiles are at most a
// few vectors, so no rewrite unrolls without bound.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"

#include "ens/Backend/Cpu/Passes.h"
#include "ens/Bufferization/Passes.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Fusion/Passes.h"
#include "ens/Support/BoundedRewrites.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cpu;

/// Copies between buffers: as memref.copy, which becomes memcpy, where both
/// are contiguous, and otherwise as linalg.copy, which becomes loops
/// (memref.copy of a strided view would call into MLIR's runtime library).
static LogicalResult copyWithLinalg(OpBuilder &b, Location loc, Value from,
                                    Value to) {
  if (memref::isStaticShapeAndContiguousRowMajor(
          cast<MemRefType>(from.getType())) &&
      memref::isStaticShapeAndContiguousRowMajor(
          cast<MemRefType>(to.getType())))
    b.create<memref::CopyOp>(loc, from, to);
  else
    b.create<linalg::CopyOp>(loc, from, to);
  return success();
}

void cpu::buildPipeline(PassManager &pm, const PipelineOptions &options) {
  buildEnsFrontPipeline(pm);

  // Fusion, tiling and vectorization on tensors.
  buildLinalgFusionPipeline(pm, kMinParallelWork);
  EnsCpuTileAndVectorizeOptions tiling;
  tiling.threads = options.threads;
  tiling.vectorBytes = options.vectorBytes;
  pm.addNestedPass<func::FuncOp>(createEnsCpuTileAndVectorize(tiling));
  pm.addPass(createBoundedCanonicalizerPass());

  // Buffers, with each result written straight into the caller's memory,
  // and each op of a loop over members into its slice of the result.
  // Static: the options' default filterFn is an llvm::function_ref to a
  // lambda inside the options object, and the pass keeps a copy of that
  // reference, so the object must outlive every run of the pipeline.
  static const bufferization::BufferResultsToOutParamsOpts outParams = [] {
    bufferization::BufferResultsToOutParamsOpts options;
    options.memCpyFn = copyWithLinalg;
    options.hoistStaticAllocs = false;
    return options;
  }();
  buildBufferizationPipeline(pm, outParams);
  // Deallocation frees buffers in the body of scf.parallel, not scf.forall.
  pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);

  // Vector code.
  pm.addNestedPass<func::FuncOp>(createEnsCpuHoistTransfers());
  pm.addNestedPass<func::FuncOp>(createEnsCpuLowerVectors());
  pm.addPass(createBoundedCanonicalizerPass());
  pm.addPass(createConvertLinalgToLoopsPass());

  // Loops over tiles run on threads or one after another.
  if (options.threads > 1) {
    ConvertSCFToOpenMPPassOptions openMP;
    openMP.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(openMP));
    pm.addPass(createEnsCpuScheduleDynamically());
    pm.addPass(createBoundedCanonicalizerPass());
  }

  // The LLVM dialect. Math goes to LLVM's intrinsics where it has them
  // (they keep vectors whole), and the rest to libm calls on each element
  // before vectors are lowered.
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(createEnsCpuApproximateTanh());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  if (options.threads > 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
