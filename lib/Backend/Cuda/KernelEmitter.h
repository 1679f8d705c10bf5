//===- KernelEmitter.h - CUDA kernels from bufferized linalg ----*- C++ -*-===//
//
// Private to the CUDA backend: the writer of a function's kernels and launch
// plan. It follows the decisions of Planning.h; its methods are defined in
// KernelEmitter.cpp (the function's ops, buffers and grid-wide kernels),
// LoopNestEmitter.cpp (the loop nests of a linalg.generic) and
// MemberKernelEmitter.cpp (the kernel of a loop over members).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_KERNELEMITTER_H
#define ENS_LIB_BACKEND_CUDA_KERNELEMITTER_H

#include "CandidateCost.h"
#include "IndexViews.h"
#include "KernelBody.h"
#include "PhaseCounts.h"
#include "Planning.h"

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Backend/Cuda/LaunchPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace mlir::ens::cuda {

class GenericWriter;

/// A kernel being written.
struct KernelBuilder {
  /// Makes plan buffer `buffer`, of elements of `elementType`, a parameter
  /// of the kernel if it is not one yet; returns the parameter's name.
  std::string bindParam(int64_t buffer, Type elementType);
  /// The same, with the parameter's C++ type (`float *`).
  std::string bindParam(int64_t buffer, StringRef cType);

  KernelInfo info;
  KernelLaunch launch;
  /// The parameter name of each plan buffer the kernel uses.
  DenseMap<int64_t, std::string> paramOf;
  DenseMap<Value, Access> accesses;
  /// The statements of the kernel.
  std::string body;
  /// The plan buffers the kernel reads and writes.
  llvm::SetVector<int64_t> read, written;
  /// The threads that share out the work of one op: a thread's index among
  /// them and their number, as the kernel's C++ names them, and whether
  /// they are a warp (with the members-per-block strategy, a member's)
  /// rather than the block.
  std::string thread = "threadIdx.x", threads = "blockDim.x";
  bool warp = false;

  /// The barrier of those threads.
  StringRef getBarrier() const {
    return warp ? "__syncwarp()" : "__syncthreads()";
  }

  /// Whether ptxas must fit two blocks of the launch's threads on an SM
  /// (`__launch_bounds__`): tensor-core tiles would otherwise take over 160
  /// registers a thread, one block of 256 threads per SM.
  bool twoBlocksPerSm = false;
  /// The width of the kernel's `ens_index`, the type of its indices and
  /// loop counters (KernelConfig::indexBits).
  unsigned indexBits = 64;
  /// Whether the body names its block's index among the blocks that run its
  /// work `ens_block` rather than reading blockIdx.x: a kernel written so
  /// can run as a section of a launch it shares (SharedLaunches.cpp), which
  /// sets `ens_block` to the section's own index.
  bool namesBlock = false;
};

/// What a launch that runs independent sections side by side, each in
/// blocks of its own, adds up of them (addSection).
struct SideBySide {
  std::vector<KernelSection> sections;
  SideBySideWork work;
};

/// A kernel that can run as a section of a launch it shares, as it was
/// before finishKernel took it: where its source starts in the emitter's
/// source, and the sections it runs itself, if several.
struct SectionableKernel {
  KernelBuilder kernel;
  size_t source = 0;
  std::vector<KernelSection> sections;
};

/// A section of a launch of loops over members: its kernel, and where it
/// is now, its launch's position among the plan's kernels and the first of
/// its blocks there.
struct SharedSection {
  SectionableKernel kernel;
  size_t at = 0;
  int64_t firstBlock = 0;
};

/// The launches of consecutive, independent loops over members
/// (emitSharingForall): each launch's sections, the positions of the
/// loops' configs, the first launch's position among the plan's kernels,
/// and where its source starts in the emitter's source.
struct SharedLaunches {
  std::vector<std::vector<SharedSection>> launches;
  std::vector<size_t> configs;
  size_t first = 0, source = 0;
};

/// Writes the kernels and the launch plan of one bufferized function.
class KernelEmitter {
public:
  /// Plans and writes for `target`, whose figures the performance model
  /// weighs the candidates on.
  KernelEmitter(func::FuncOp function, int64_t maxBufferBytes,
                StrategyChoice strategy, GemmChoice gemmChoice,
                Precision precision, const GpuSpec &target)
      : function(function), maxBufferBytes(maxBufferBytes), strategy(strategy),
        gemmChoice(gemmChoice), precision(precision), target(target) {}

  /// Writes `program` for the function, whose first `numInputs` arguments
  /// are its inputs and the others its results.
  llvm::Error run(unsigned numInputs);

  CudaProgram program;

private:
  /// What weighs candidate configs of a loop over members: the target,
  /// `views` (where memrefs live while the loop is planned) and the bytes
  /// of each plan buffer, `getBufferBytes`.
  CandidateCoster
  getCoster(const BufferViews &views,
            llvm::function_ref<int64_t(int64_t)> getBufferBytes) const;

  /// A plan buffer of `type`, checked, not yet added to the program.
  llvm::Expected<BufferInfo> makeBuffer(MemRefType type, BufferKind kind,
                                        unsigned index,
                                        std::vector<uint8_t> init = {}) const;
  llvm::Expected<int64_t> addBuffer(MemRefType type, BufferKind kind,
                                    unsigned index,
                                    std::vector<uint8_t> init = {});
  /// Starts kernel "kN_<kind>" that computes `roots` (an op and the
  /// epilogue fused into it) `times` times, once per member if they are
  /// the body of a loop over members.
  KernelBuilder beginKernel(ArrayRef<Operation *> roots, StringRef kind,
                            int64_t times = 1);
  /// Adds the bytes of the buffers `kernel` reads and writes to its info.
  void countTraffic(KernelBuilder &kernel) const;
  /// The parameter list of `kernel`'s C++ signature: a pointer per plan
  /// buffer it binds, `const` where it only reads the buffer, and
  /// `__restrict__`, since the plan gives no two of them memory that one
  /// writes and another reaches.
  std::string getParameterList(const KernelBuilder &kernel) const;
  /// Adds `kernel` to the source and the plan, with one launch, and with
  /// `sections` if it runs several independent phases side by side.
  void finishKernel(KernelBuilder &kernel,
                    std::vector<KernelSection> sections = {});
  /// Adds `section`, which `launch` runs in the blocks after those of its
  /// sections so far (its body is the caller's to write), to `launch` and
  /// `sides`: its parameters, buffers, shared memory, work and blocks.
  void addSection(KernelBuilder &launch, KernelBuilder &section,
                  SideBySide &sides) const;
  /// Adds `launch`, which runs the sections of `sides`, to the source and
  /// the plan.
  void finishSideBySide(KernelBuilder &launch, SideBySide &sides);
  /// Binds every memref that `root` and the ops nested in it use, and
  /// records the plan buffers they read and write.
  llvm::Error bindMemrefs(KernelBuilder &kernel, Operation *root);
  /// Writes the pure scalar ops from outside `root` that it uses, and those
  /// that `extra` needs.
  llvm::Error emitCaptured(Operation *root, BodyEmitter &body, unsigned indent,
                           ArrayRef<Value> extra = {});
  /// Binds the memrefs of `generic` and of `epilogue`, which reads the
  /// result of `generic` in registers instead of memory.
  llvm::Error bindFused(KernelBuilder &kernel, linalg::GenericOp generic,
                        linalg::GenericOp epilogue);
  llvm::Error emitGeneric(linalg::GenericOp generic);
  /// Writes top-level `generic` as a grid-wide kernel (or a block per
  /// element, for a reduction of few elements).
  llvm::Error emitGeneratedGeneric(linalg::GenericOp generic);
  /// Adds vendor GEMM step `gemm` to the plan, after the launches so far.
  void emitGemm(GemmStep gemm);
  llvm::Error emitSerial(Operation *op);
  /// Writes scf.for nest `op` as C++ loops that one thread runs in order,
  /// with the scalars it uses from outside (and the member index `m` in a
  /// loop over members).
  llvm::Error emitInOrder(KernelBuilder &kernel, Operation *op,
                          unsigned indent);

  /// Names the member index and writes the scalars `generic` uses from
  /// outside (with the values of fills folded into it).
  llvm::Error beginBody(BodyEmitter &body, linalg::GenericOp generic,
                        unsigned indent);
  /// One of the two passes of a reduction split into chunks.
  struct ReductionSplit {
    int64_t chunks;
    /// The kernel's name of the buffer of shares.
    std::string partials;
    /// False: each block computes a share; true: combines the shares.
    bool combine;
    /// The chunks share one block (member-per-block): `partials` points to
    /// shared memory, and the block adds the chunks behind a barrier.
    bool inBlock = false;
    /// Where not empty, the kernel's name of the buffer of a counter per
    /// tile (PhaseConfig::finishLast): the thread of each tile's last chunk
    /// adds its chunks and finishes it, and there is no second pass.
    std::string counters;
  };
  /// Starts the points of `writer`'s op: names the scalars it and
  /// `epilogue` use from outside, and writes the work that is the same at
  /// every point of both; `after` becomes the epilogue's writer.
  llvm::Error beginPoints(KernelBuilder &kernel, GenericWriter &writer,
                          std::optional<GenericWriter> &after,
                          linalg::GenericOp epilogue, unsigned indent);
  /// Writes a loop over the parallel points of `generic` from `first` by
  /// `step`, each thread computing whole output elements (or, with `tile`,
  /// register tiles of them, and with `split` a pass of a split reduction:
  /// see emitTiles and emitSplitCombine), and `epilogue` on the
  /// accumulators of each. With `mma`, a phase on block tiles, the loop is
  /// over block tiles, `first` the block's number among the member's and
  /// `step` the member's blocks (emitBlockTiles).
  llvm::Error emitPoints(KernelBuilder &kernel, linalg::GenericOp generic,
                         StringRef first, StringRef step, unsigned indent,
                         linalg::GenericOp epilogue = nullptr,
                         const TileConfig &tile = {},
                         const ReductionSplit *split = nullptr,
                         const PhaseConfig *mma = nullptr);
  /// Writes the loop over the register tiles of `writer`'s op from
  /// `first` by `step` (emitPoints with a tile): each thread computes the
  /// points of a tile together, loading each operand element once per
  /// reduction step for all the points that read it, and applies the
  /// epilogue that `after` writes, if any, to each point's accumulators.
  /// With `split`, each thread computes chunk c of the reduction of its
  /// tile's points, from the combiner's identity, and writes the partial
  /// results to the split's buffer instead of the outputs; within a block
  /// (`split->inBlock`), each chunk's thread then adds every chunk's
  /// partial results of a share of its tile's points, behind a barrier,
  /// and finishes them.
  llvm::Error emitTiles(KernelBuilder &kernel, GenericWriter &writer,
                        std::optional<GenericWriter> &after,
                        const TileConfig &tile, StringRef first, StringRef step,
                        unsigned indent, const ReductionSplit *split = nullptr);
  /// Writes the block tiles of `writer`'s contraction that `phase` puts
  /// on block tiles (BlockTileEmitter.cpp; emitPoints with a phase): the
  /// blocks whose number among the member's is `block` compute every
  /// `perMember`-th block tile, from operands staged in shared memory, the
  /// warps of each their warp tiles on tensor cores (mma.sync) or in FFMA,
  /// and each thread applies the epilogue that `after` writes, if any, to
  /// the points it holds. Sets the kernel's barriers, shared memory and
  /// loads in flight.
  llvm::Error emitBlockTiles(KernelBuilder &kernel, GenericWriter &writer,
                             std::optional<GenericWriter> &after,
                             const PhaseConfig &phase, StringRef block,
                             StringRef perMember, unsigned indent);
  /// Writes the second pass of `writer`'s contraction split into chunks
  /// (emitPoints with a split that combines): a loop over its points from
  /// `first` by `step` that adds each point's partial results to the
  /// output's value and applies the epilogue that `after` writes, if any;
  /// it sets the bytes each thread of `kernel` has in flight.
  llvm::Error emitSplitCombine(KernelBuilder &kernel, GenericWriter &writer,
                               std::optional<GenericWriter> &after,
                               const ReductionSplit &split, StringRef first,
                               StringRef step, unsigned indent);
  /// Writes the epilogue that `after` writes at the end of the contraction
  /// that `writer` writes the point loop of, starting from its accumulator
  /// `accumulator` at the point whose loop variables are `dims`; with
  /// `loaded`, from the values loadEpilogue loaded for the point.
  llvm::Error
  emitEpilogue(GenericWriter &writer, GenericWriter &after,
               ArrayRef<std::string> dims, StringRef accumulator,
               unsigned indent,
               const DenseMap<Value, std::string> *loaded = nullptr);
  /// Loads, into variables named with `suffix`, the elements that the
  /// epilogue `after` reads from memory at the contraction point whose
  /// loop variables are `dims` (those of `writer`'s contraction), so that
  /// the loads of several points go before any of their stores; returns
  /// the names of the epilogue's block arguments.
  llvm::Expected<DenseMap<Value, std::string>>
  loadEpilogue(GenericWriter &writer, GenericWriter &after,
               ArrayRef<std::string> dims, StringRef suffix, unsigned indent);
  /// Writes the loop of a thread's share of the steps of a reduction that
  /// `writer` writes, from step `from` to `to` by `stride`, combined with
  /// `combiner` into the variable `share` (`unrollSteps` steps at a time,
  /// their loads first, where it has one reduction loop); it sets the
  /// bytes each thread of `kernel` has in flight.
  llvm::Error emitShare(KernelBuilder &kernel, GenericWriter &writer,
                        Operation *combiner, StringRef from, StringRef to,
                        StringRef stride, int64_t unrollSteps, unsigned indent);
  /// Writes, where `total` holds the combination of an output element's
  /// steps of the reduction that `writer` writes, its result: combined
  /// with the fill or `output`'s value, then stored or given to the
  /// epilogue that `after` writes.
  llvm::Error emitReductionResult(GenericWriter &writer,
                                  std::optional<GenericWriter> &after,
                                  StringRef output, unsigned indent);
  /// Writes the loop of a block reduction whose lanes take 32 consecutive
  /// output elements of the reduction `writer` writes and whose warps share
  /// their steps (PhaseConfig::lanesAlongOutputs): groups of 32 elements
  /// from `first` by `step`; each warp combines a share of the group's
  /// steps, then the first warp combines the warps' shares from shared
  /// memory and finishes each element into `output` or the epilogue that
  /// `after` writes. emitBlockReduction has written what comes before.
  llvm::Error emitColumnReduction(KernelBuilder &kernel, GenericWriter &writer,
                                  std::optional<GenericWriter> &after,
                                  Operation *combiner, StringRef output,
                                  StringRef first, StringRef step,
                                  unsigned indent);
  /// Writes a loop over the output elements of `generic` from `first` by
  /// `step`, for each of which the block's threads share the steps; with
  /// `split`, one of the passes of the reduction split into chunks. Thread
  /// 0 applies `epilogue`, if any, to each element's value (not in the
  /// first pass of a split). With `lanesAlongOutputs` (and no split), a
  /// loop over groups of 32 elements instead (emitColumnReduction).
  llvm::Error emitBlockReduction(KernelBuilder &kernel,
                                 linalg::GenericOp generic, Operation *combiner,
                                 StringRef first, StringRef step,
                                 unsigned indent,
                                 const ReductionSplit *split = nullptr,
                                 linalg::GenericOp epilogue = nullptr,
                                 bool lanesAlongOutputs = false);

  /// A loop over members planned with one strategy and settled, ready to
  /// be written.
  struct PlannedLoop {
    MemberLoopPlan plan;
    /// The plan buffers of its global temporaries, which follow the
    /// program's when it is written.
    std::vector<BufferInfo> buffers;
    /// The model's picks of vendor GEMM steps (--cuda-gemm=auto).
    std::vector<GemmDecision> gemmDecisions;
    /// The model's estimate of its kernels and steps on the target.
    double us = 0;
  };
  /// Plans loop over members `forall` with `strategy` and settles its
  /// config (settleTiledPlan, settleMembersPerBlock).
  llvm::Expected<PlannedLoop> planLoop(scf::ForallOp forall, Strategy strategy);
  /// Plans `forall` with the strategy its ens_cuda.kernel_config or the
  /// program names, or else with each and keeps the plan the model
  /// estimates fastest.
  llvm::Expected<PlannedLoop> planForall(scf::ForallOp forall);
  /// Plans the kernels of a loop over members (planForall) and writes them:
  /// one kernel with the member-per-block and members-per-block strategies
  /// (MemberKernelEmitter.cpp), a kernel per launch with the tiled one
  /// (TiledKernelEmitter.cpp).
  llvm::Error emitForall(scf::ForallOp forall);
  /// Writes `forall` as emitForall does, then, where its launches are
  /// kernels that can run as sections (KernelBuilder::namesBlock) and the
  /// launches before them are those of loops over members that it is
  /// independent of, writes each of its launches as a section of one of
  /// theirs (SharedLaunches.cpp): the groups of a heterogeneous ensemble
  /// share launches.
  llvm::Error emitSharingForall(scf::ForallOp forall);
  /// Writes `sections`, kernels written before, as one launch whose blocks
  /// each run their section's body, or a kernel alone as it was.
  void emitSharedLaunch(ArrayRef<SharedSection> sections);
  /// The one kernel of the member-per-block and members-per-block
  /// strategies.
  llvm::Error emitMemberKernel(scf::ForallOp forall,
                               const MemberLoopPlan &plan);
  /// Writes a tiled loop as its settled config says (settleTiledPlan):
  /// each launch's kernel, or its vendor GEMM step.
  llvm::Error emitTiledLoop(const MemberLoopPlan &plan);
  /// Writes the kernel of a launch of a tiled loop, which runs `phases`
  /// (positions in the plan's phases) side by side, each in its own
  /// blocks; a phase alone is written as emitTiledPhase writes it.
  llvm::Error emitTiledLaunch(const MemberLoopPlan &plan,
                              ArrayRef<unsigned> phases);
  /// Writes the kernel, or for a split the kernels, of one phase of a
  /// tiled loop over `members` members that has a launch of its own, in
  /// blocks of `threads`.
  llvm::Error emitTiledPhase(const PhaseConfig &phase,
                             const MemberLoopPlan::Phase &ir, int64_t members,
                             unsigned threads);
  /// Adds a plan buffer of `type` and `kind` (with `init`, a constant's
  /// bytes) that the planner placed at `planned` for the `what` of
  /// `phase`; an error if it is not that buffer.
  llvm::Error addPlannedBuffer(MemRefType type, BufferKind kind,
                               std::vector<uint8_t> init, int64_t planned,
                               StringRef what, const PhaseConfig &phase);
  /// Adds the plan buffer of the partial results of `phase`, split into
  /// chunks, of `generic` in a loop over `members` members; an error if it
  /// is not the buffer the plan gave it.
  llvm::Error addPartials(const PhaseConfig &phase, linalg::GenericOp generic,
                          int64_t members);
  /// Adds the buffers of `phase`, split into chunks that the last of each
  /// tile finishes (PhaseConfig::finishLast), binds them in `kernel` and
  /// returns the split to write.
  llvm::Expected<ReductionSplit> bindFinishLast(KernelBuilder &kernel,
                                                const PhaseConfig &phase,
                                                linalg::GenericOp generic,
                                                int64_t members);
  /// Writes into `kernel` the body of a phase of a tiled loop, unsplit or
  /// split into chunks that the last of each tile finishes,
  /// run by the blocks whose number among the phase's is `block`, at
  /// `indent`, and sets the kernel's launch for the phase alone.
  llvm::Error writeTiledPhase(KernelBuilder &kernel, const PhaseConfig &phase,
                              const MemberLoopPlan::Phase &ir, int64_t members,
                              unsigned threads, StringRef block,
                              unsigned indent);
  /// Writes the two kernels of `phase`, a reduction (a block reduction or
  /// a contraction in register tiles) split into chunks, of a loop over
  /// `members` members, with a buffer for the chunks' partial results;
  /// `kernel` is the first.
  llvm::Error emitSplitPhase(KernelBuilder &kernel,
                             const MemberLoopPlan::Phase &ir,
                             const PhaseConfig &phase, int64_t members);
  /// Writes phase `ir` of a member-per-block kernel whose warps each reduce
  /// whole output elements (PhaseConfig::byWarps).
  llvm::Error emitWarpReductions(KernelBuilder &kernel,
                                 const MemberLoopPlan::Phase &ir,
                                 const KernelConfig &config);
  /// Writes the copies of the operands of `generic` that `phase` stages
  /// into shared memory, and points the kernel's accesses at the copies;
  /// returns the accesses they replaced.
  SmallVector<std::pair<Value, Access>> stageOperands(KernelBuilder &kernel,
                                                      linalg::GenericOp generic,
                                                      const PhaseConfig &phase);

  func::FuncOp function;
  /// The largest buffer, and the largest plan, the program may allocate.
  int64_t maxBufferBytes;
  /// How loops over members are shared out; none: as the model picks.
  StrategyChoice strategy;
  /// Who computes the contractions that are matrix products.
  GemmChoice gemmChoice;
  /// How contractions in loops over members compute their products.
  Precision precision;
  /// The GPU planned for.
  const GpuSpec &target;
  /// Where memrefs live.
  BufferViews views;
  FoldedFills fills;
  /// Epilogues written with the contraction before them.
  DenseSet<Operation *> fusedEpilogues;
  /// The source of the kernels written so far.
  std::string kernels;
  /// The index width of the kernels beginKernel starts: that of the loop
  /// over members being written (KernelConfig::indexBits), 64 bits outside
  /// one.
  unsigned loopIndexBits = 64;

  /// Each kernel written so that it can run as a section of a launch it
  /// shares (KernelBuilder::namesBlock), by its position among the plan's
  /// kernels: the last one finishKernel wrote there.
  DenseMap<size_t, SectionableKernel> sectionable;
  /// The launches of the last loops over members written, while they are
  /// the last launches and each runs kernels that can be sections.
  std::optional<SharedLaunches> shared;
};

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_KERNELEMITTER_H
