//===- Passes.cpp - The CPU backend's pass pipeline -----------------------===//
//
// ens-cpu-pipeline, from linalg on tensors to the LLVM dialect:
//
//  1. Elementwise fusion of linalg.generic ops where no element is
//     computed twice (ens-fuse-elementwise).
//  2. Fusion over the model axis (ens-fuse-members): runs of the batched
//     ops of an ensemble become one scf.forall over the members, whose
//     body computes one member's slice of every op in turn. A member's
//     intermediate values stay in cache, and the loop is the one parallel
//     region of the step.
//  3. Reductions over the slices a loop writes computed inside that loop,
//     one partial result per iteration (ens-cpu-reduce-in-loops).
//  4. Tiling and vectorization of every linalg op on tensors
//     (ens-cpu-tile-and-vectorize).
//  5. Producers of padded images computing into the padding's interior
//     (ens-write-into-slices), one-shot bufferization, results as
//     out-parameters written in place (ens-forward-results), deallocation
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

#include "ens/Backend/Cpu/Passes.h"

#include "ens/Bufferization/Passes.h"
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
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ens;

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

void mlir::ens::buildEnsCpuPipeline(OpPassManager &pm,
                                    const EnsCpuPipelineOptions &options) {
  // Fusion, tiling and vectorization on tensors.
  // Independent groups of members are loops of their own: a loop's body
  // then holds one group's temporaries, which stay in cache from member to
  // member, as they do in a program of that group alone. The ops of one
  // member stay whole, so that each splits its rows over the threads.
  buildLinalgFusionPipeline(pm, cpu::kMinParallelWork,
                            /*joinIndependent=*/false,
                            /*oneMemberLoops=*/false);
  // Reductions over a loop's slices (bias gradients over a batch) read
  // each slice in that loop, while it is in cache.
  EnsCpuReduceInLoopsOptions inLoops;
  inLoops.minResultBytes = options.l2Bytes;
  pm.addNestedPass<func::FuncOp>(createEnsCpuReduceInLoops(inLoops));
  EnsCpuSplitReductionsOptions splitting;
  splitting.vectorBytes = options.vectorBytes;
  pm.addNestedPass<func::FuncOp>(createEnsCpuSplitReductions(splitting));
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
  // Producers write into the interior of a convolution's padded input, so
  // that bufferization does not copy the image there. Not on the CUDA
  // backend, whose code generation is not checked with such strided
  // destinations.
  pm.addNestedPass<func::FuncOp>(createEnsWriteIntoSlices());
  buildBufferizationPipeline(pm, outParams);
  // Deallocation frees buffers in the body of scf.parallel or scf.for, not
  // scf.forall, so the foralls go first. On one thread every loop runs in
  // order: loops over members become scf.for, and a temporary that each
  // iteration allocates is allocated once, before the loop (a vmap over
  // thousands of examples otherwise allocates and frees thousands of times a
  // call). With threads, the iterations of a parallel loop need buffers of
  // their own.
  if (options.threads == 1) {
    pm.addNestedPass<func::FuncOp>(createForallToForLoopPass());
    pm.addNestedPass<func::FuncOp>(
        bufferization::createBufferLoopHoistingPass());
  } else {
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  }
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

void mlir::ens::registerEnsCpuPipeline() {
  PassPipelineRegistration<EnsCpuPipelineOptions>(
      "ens-cpu-pipeline",
      "The CPU backend's passes from linalg on tensors to the LLVM dialect",
      buildEnsCpuPipeline);
}

void mlir::ens::registerEnsCpuPipelineDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, linalg::LinalgDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  omp::OpenMPDialect, scf::SCFDialect, tensor::TensorDialect,
                  vector::VectorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerSubsetOpInterfaceExternalModels(registry);
  func::registerInlinerExtension(registry);
}
