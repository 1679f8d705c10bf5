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
//  4. Tiling and vectorization of every linalg op on tensors. Large ops
//     outside such loops have their first parallel loop tiled into an
//     scf.forall. Then every op is cut into register tiles by scf.for loops
//     (reductions innermost), and each register tile becomes vector code;
//     contractions become vector.contract over an 8 x (vector width) tile of
//     the result.
//  5. One-shot bufferization, results as out-parameters written in place
//     (ens-forward-results), deallocation
//     (after scf.forall becomes scf.parallel, which deallocation handles).
//  6. Hoisting of the accumulators out of reduction loops, and lowering of
//     vector ops to what LLVM handles well: contractions to outer products
//     (FMAs), transfers to loads and stores of 1-D vectors.
//  7. scf.parallel -> OpenMP worksharing loops with a dynamic schedule (more
//     than one thread) or sequential loops, and the conversion to LLVM.
//
// Every greedy rewrite is bounded, so a pathological program fails to
// compile with an error instead of compiling forever; tiles are at most a
// few vectors, so no rewrite unrolls without bound.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"

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
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cpu;

namespace {

//===----------------------------------------------------------------------===//
// Tiling and vectorization
//===----------------------------------------------------------------------===//

/// Rows of the result in one register tile of a contraction: with one vector
/// per row, 8 accumulators stay in registers while the reduction runs.
constexpr int64_t kRegisterRows = 8;

/// The fewest iterations (the product of the loop extents) that an op must
/// have to be spread over threads; below this, starting the threads costs
/// more than they save.
constexpr int64_t kMinParallelWork = 16384;

/// The largest divisor of `extent` that is at most `bound`, so that tiles
/// divide their loops evenly and keep static shapes.
int64_t largestDivisor(int64_t extent, int64_t bound) {
  for (int64_t divisor = std::min(extent, bound); divisor > 1; --divisor)
    if (extent % divisor == 0)
      return divisor;
  return 1;
}

/// How one linalg op is cut into tiles.
struct TilePlan {
  /// The extent of each loop in one register tile. Equal to the loop's
  /// extent for loops that are not tiled.
  SmallVector<int64_t> tile;
  /// Whether the register tiles become vector code.
  bool vectorize = false;
  /// The loop whose tiles run on different threads, if any, and how many
  /// of its iterations each such tile covers.
  std::optional<unsigned> parallelLoop;
  int64_t chunk = 0;
};

/// The loop that indexes the innermost (contiguous) dimension of `operand`,
/// if it is indexed by a loop alone.
std::optional<unsigned> innermostLoop(linalg::LinalgOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return dim.getPosition();
  return std::nullopt;
}

/// The loop to vectorize along: for a contraction, the innermost dimension
/// of the result (each step of the reduction is then an outer product);
/// otherwise the innermost dimension of the largest operand, so that most
/// memory is read and written as whole vectors. Results win ties.
std::optional<unsigned> pickVectorLoop(linalg::LinalgOp op, bool contraction) {
  if (contraction)
    return innermostLoop(op, *op.getDpsInitOperand(0));
  OpOperand *largest = nullptr;
  int64_t most = 0;
  for (OpOperand &operand : llvm::reverse(op->getOpOperands())) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (type && type.getRank() > 0 && type.getNumElements() > most) {
      most = type.getNumElements();
      largest = &operand;
    }
  }
  if (!largest)
    return std::nullopt;
  return innermostLoop(op, *largest);
}

/// The widest element type among the operands of `op` in bits, or nothing
/// if some operand cannot be vectorized: i1 is stored a byte per element,
/// but a vector of i1 would be stored a bit per element.
std::optional<unsigned> widestElementBits(linalg::LinalgOp op) {
  unsigned widest = 0;
  for (Value operand : op->getOperands()) {
    Type type = getElementTypeOrSelf(operand.getType());
    if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() < 8)
      return std::nullopt;
    widest = std::max(widest, type.getIntOrFloatBitWidth());
  }
  return widest;
}

/// Chooses the tiles of `op`, whose loops have the static `extents`.
TilePlan planTiles(linalg::LinalgOp op, ArrayRef<int64_t> extents,
                   const PipelineOptions &options) {
  unsigned numLoops = extents.size();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  TilePlan plan;
  plan.tile.assign(extents.begin(), extents.end());

  bool contraction = linalg::isaContractionOpInterface(op);
  std::optional<unsigned> bits = widestElementBits(op);
  std::optional<unsigned> vectorLoop;
  // A reduction to a scalar would vectorize to a vector.contract with a
  // 0-d accumulator, which the vector dialect rejects; it stays scalar.
  bool scalarResult =
      cast<ShapedType>(op.getDpsInitOperand(0)->get().getType()).getRank() ==
      0;
  if (bits && !scalarResult &&
      succeeded(linalg::vectorizeOpPrecondition(op)))
    vectorLoop = pickVectorLoop(op, contraction);
  if (vectorLoop) {
    plan.vectorize = true;
    plan.tile.assign(numLoops, 1);
    int64_t lanes = std::max<int64_t>(1, options.vectorBytes * 8 / *bits);
    plan.tile[*vectorLoop] = largestDivisor(extents[*vectorLoop], lanes);
    AffineMap result = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (contraction && result.getNumResults() >= 2) {
      auto row =
          dyn_cast<AffineDimExpr>(result.getResult(result.getNumResults() - 2));
      if (row && row.getPosition() != *vectorLoop)
        plan.tile[row.getPosition()] =
            largestDivisor(extents[row.getPosition()], kRegisterRows);
    }
  }

  int64_t work = 1;
  for (int64_t extent : extents)
    work *= extent;
  if (options.threads <= 1 || work < kMinParallelWork)
    return plan;
  // The first parallel loop of more than one iteration runs on threads, one
  // register tile per iteration; the vector loop only if there is no other,
  // cut into about one chunk per thread.
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (iterators[loop] != utils::IteratorType::parallel || loop == vectorLoop)
      continue;
    if (extents[loop] == 1)
      continue;
    plan.parallelLoop = loop;
    break;
  }
  if (!plan.parallelLoop && vectorLoop &&
      iterators[*vectorLoop] == utils::IteratorType::parallel)
    plan.parallelLoop = vectorLoop;
  if (!plan.parallelLoop)
    return plan;
  unsigned loop = *plan.parallelLoop;
  int64_t extent = extents[loop];
  if (plan.tile[loop] < extent && loop != vectorLoop) {
    plan.chunk = plan.tile[loop];
    return plan;
  }
  // Whole vectors per chunk, as close to one chunk per thread as divides
  // the loop.
  int64_t step = loop == vectorLoop ? plan.tile[loop] : 1;
  int64_t chunk =
      llvm::alignTo(llvm::divideCeil(extent, options.threads), step);
  while (extent % chunk != 0)
    chunk += step;
  if (chunk == extent)
    plan.parallelLoop.reset();
  else
    plan.chunk = chunk;
  return plan;
}

/// Tiles `op` by `sizes` (0: not tiled) with loops of `loopType`, with the
/// reduction loops innermost. Returns the tiled op.
FailureOr<linalg::LinalgOp> tileOp(RewriterBase &rewriter, linalg::LinalgOp op,
                                   ArrayRef<int64_t> sizes,
                                   scf::SCFTilingOptions::LoopType loopType) {
  SmallVector<int64_t> interchange;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [loop, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      interchange.push_back(loop);
  for (auto [loop, iterator] : llvm::enumerate(iterators))
    if (iterator != utils::IteratorType::parallel)
      interchange.push_back(loop);

  scf::SCFTilingOptions options;
  options.setLoopType(loopType);
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(*op), options);
  if (failed(tiled))
    return op->emitError("cannot tile this op for the CPU");
  rewriter.replaceOp(op, tiled->replacements);
  return cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

/// Tiles `op` for threads and registers and vectorizes its register tiles,
/// as planned by planTiles. Ops with dynamic shapes or no loops are left
/// alone; they become loops later.
LogicalResult tileAndVectorize(RewriterBase &rewriter, linalg::LinalgOp op,
                               const PipelineOptions &options) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (extents.empty() || ShapedType::isDynamicShape(extents) ||
      llvm::is_contained(extents, 0))
    return success();
  TilePlan plan = planTiles(op, extents, options);

  if (plan.parallelLoop) {
    SmallVector<int64_t> sizes(extents.size(), 0);
    sizes[*plan.parallelLoop] = plan.chunk;
    FailureOr<linalg::LinalgOp> tiled =
        tileOp(rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
    if (failed(tiled))
      return failure();
    op = *tiled;
    extents[*plan.parallelLoop] = plan.chunk;
  }
  if (!plan.vectorize)
    return success();

  SmallVector<int64_t> sizes;
  for (auto [extent, tile] : llvm::zip_equal(extents, plan.tile))
    sizes.push_back(tile < extent ? tile : 0);
  if (llvm::any_of(sizes, [](int64_t size) { return size != 0; })) {
    FailureOr<linalg::LinalgOp> tiled =
        tileOp(rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(tiled))
      return failure();
    op = *tiled;
  }
  rewriter.setInsertionPoint(op);
  if (failed(linalg::vectorize(rewriter, op)))
    return op->emitError("cannot vectorize this op for the CPU");
  return success();
}

/// Tiles every linalg op on tensors over threads and registers, and turns
/// the register tiles into vector code.
struct TileAndVectorizePass
    : PassWrapper<TileAndVectorizePass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileAndVectorizePass)

  explicit TileAndVectorizePass(const PipelineOptions &options)
      : options(options) {}

  StringRef getArgument() const override { return "ens-cpu-tile-vectorize"; }
  StringRef getDescription() const override {
    return "Tile linalg ops over threads and registers and vectorize them";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, arith::ArithDialect, scf::SCFDialect,
                    tensor::TensorDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    IRRewriter rewriter(&getContext());
    // Ops in a loop over the members are tiled for registers only; the loop
    // is what runs on several threads.
    SmallVector<linalg::LinalgOp> ops;
    function.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    PipelineOptions inLoop = options;
    inLoop.threads = 1;
    for (linalg::LinalgOp op : ops) {
      bool nested = op->getParentOfType<scf::ForallOp>() != nullptr;
      if (failed(tileAndVectorize(rewriter, op, nested ? inLoop : options)))
        return signalPassFailure();
    }

    // What vectorize_children_and_apply_patterns applies after vectorizing:
    // multiplications reduced along a dimension become vector.contract, and
    // reads through slices read the whole tensor at an offset.
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorBroadcastPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    // Slices of empty tensors become empty tensors in the loops, where
    // bufferization can put them into the loops' results.
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyBounded(function, std::move(patterns),
                            "vectorization cleanup")))
      signalPassFailure();
  }

  PipelineOptions options;
};

//===----------------------------------------------------------------------===//
// Vector lowering
//===----------------------------------------------------------------------===//

/// Keeps the accumulators of reduction loops in registers: a read and a
/// write of the same vector in every iteration move out of the loop.
struct HoistVectorTransfersPass
    : PassWrapper<HoistVectorTransfersPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(HoistVectorTransfersPass)

  StringRef getArgument() const override { return "ens-cpu-hoist-transfers"; }
  StringRef getDescription() const override {
    return "Hoist loop-invariant vector transfers out of scf.for loops";
  }

  void runOnOperation() override {
    linalg::hoistRedundantVectorTransfers(getOperation());
  }
};

/// Lowers vector ops, in stages, to the 1-D vector ops that LLVM turns into
/// good code: contractions to outer products and those to FMAs, n-D
/// transfers to 1-D loads and stores, reductions along outer dimensions to
/// elementwise arithmetic. No canonicalization is mixed in: together with
/// these patterns it can rewrite without end.
struct LowerVectorsPass
    : PassWrapper<LowerVectorsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerVectorsPass)

  StringRef getArgument() const override { return "ens-cpu-lower-vectors"; }
  StringRef getDescription() const override {
    return "Lower vector ops to 1-D vector ops and FMAs";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    func::FuncOp function = getOperation();
    vector::VectorTransformsOptions lowering;
    lowering.setVectorTransformsOptions(
        vector::VectorContractLowering::OuterProduct);
    lowering.setVectorMultiReductionLowering(
        vector::VectorMultiReductionLowering::InnerParallel);
    lowering.setVectorTransposeLowering(
        vector::VectorTransposeLowering::Shuffle1D);

    RewritePatternSet contractions(context);
    vector::populateVectorContractLoweringPatterns(contractions, lowering);
    vector::populateVectorTransferPermutationMapLoweringPatterns(contractions);
    vector::populateVectorMultiReductionLoweringPatterns(
        contractions, lowering.vectorMultiReductionLowering);
    if (failed(applyBounded(function, std::move(contractions),
                            "lowering vector contractions")))
      return signalPassFailure();

    RewritePatternSet transfers(context);
    populateVectorToSCFConversionPatterns(
        transfers,
        VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(1));
    vector::populateVectorTransferLoweringPatterns(transfers,
                                                   /*maxTransferRank=*/1);
    if (failed(applyBounded(function, std::move(transfers),
                            "lowering vector transfers")))
      return signalPassFailure();

    RewritePatternSet rest(context);
    vector::populateVectorOuterProductLoweringPatterns(rest);
    vector::populateVectorBroadcastLoweringPatterns(rest);
    vector::populateVectorShapeCastLoweringPatterns(rest);
    vector::populateVectorTransposeLoweringPatterns(rest, lowering);
    vector::populateVectorMaskOpLoweringPatterns(rest);
    if (failed(applyBounded(function, std::move(rest), "lowering vector ops")))
      signalPassFailure();
  }
};

/// Replaces f32 tanh with a polynomial approximation, which vectorizes; the
/// libm call it replaces would be made once per element.
struct ApproximateTanhPass
    : PassWrapper<ApproximateTanhPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproximateTanhPass)

  StringRef getArgument() const override { return "ens-cpu-approximate-tanh"; }
  StringRef getDescription() const override {
    return "Replace f32 tanh with a vectorizable polynomial approximation";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateTanhPattern(patterns);
    if (failed(applyBounded(getOperation(), std::move(patterns),
                            "approximating tanh")))
      signalPassFailure();
  }
};

/// Hands out the iterations of OpenMP worksharing loops one at a time, to
/// whichever thread is free: a thread that the system preempts, or that
/// gets the slower members, then holds up no one.
struct ScheduleDynamicallyPass
    : PassWrapper<ScheduleDynamicallyPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ScheduleDynamicallyPass)

  StringRef getArgument() const override {
    return "ens-cpu-schedule-dynamically";
  }
  StringRef getDescription() const override {
    return "Give OpenMP worksharing loops a dynamic schedule";
  }

  void runOnOperation() override {
    getOperation().walk([](omp::WsloopOp loop) {
      loop.setScheduleVal(omp::ClauseScheduleKind::Dynamic);
    });
  }
};

/// Copies between buffers: as memref.copy, which becomes memcpy, where both
/// are contiguous, and otherwise as linalg.copy, which becomes loops
/// (memref.copy of a strided view would call into MLIR's runtime library).
LogicalResult copyWithLinalg(OpBuilder &b, Location loc, Value from, Value to) {
  if (memref::isStaticShapeAndContiguousRowMajor(
          cast<MemRefType>(from.getType())) &&
      memref::isStaticShapeAndContiguousRowMajor(
          cast<MemRefType>(to.getType())))
    b.create<memref::CopyOp>(loc, from, to);
  else
    b.create<linalg::CopyOp>(loc, from, to);
  return success();
}

} // namespace

void cpu::buildPipeline(PassManager &pm, const PipelineOptions &options) {
  buildEnsFrontPipeline(pm);

  // Fusion, tiling and vectorization on tensors.
  buildLinalgFusionPipeline(pm, kMinParallelWork);
  pm.addNestedPass<func::FuncOp>(
      std::make_unique<TileAndVectorizePass>(options));
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
  pm.addNestedPass<func::FuncOp>(std::make_unique<HoistVectorTransfersPass>());
  pm.addNestedPass<func::FuncOp>(std::make_unique<LowerVectorsPass>());
  pm.addPass(createBoundedCanonicalizerPass());
  pm.addPass(createConvertLinalgToLoopsPass());

  // Loops over tiles run on threads or one after another.
  if (options.threads > 1) {
    ConvertSCFToOpenMPPassOptions openMP;
    openMP.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(openMP));
    pm.addPass(std::make_unique<ScheduleDynamicallyPass>());
    pm.addPass(createBoundedCanonicalizerPass());
  }

  // The LLVM dialect. Math goes to LLVM's intrinsics where it has them
  // (they keep vectors whole), and the rest to libm calls on each element
  // before vectors are lowered.
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(std::make_unique<ApproximateTanhPass>());
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
