//===- Planning.h - The CUDA backend's GPU decisions ------------*- C++ -*-===//
//
// Private to the CUDA backend: the heuristics that decide how each op runs
// (fills folded into their consumer, epilogues fused into contractions,
// reductions shared among a block's threads, operands staged in shared
// memory) and the planning of a loop over members into a KernelConfig,
// apart from the emission of the kernels that follows the plan.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_PLANNING_H
#define ENS_LIB_BACKEND_CUDA_PLANNING_H

#include "IndexViews.h"

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Backend/Cuda/LaunchPlan.h"
#include "ens/Backend/Cuda/PerfModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::ens::cuda {

/// Threads per block of every kernel but the serial ones and those of the
/// members-per-block strategy (a warp per member).
inline constexpr unsigned kBlockSize = 256;

/// Threads of a warp: with the members-per-block strategy, those of a
/// member.
inline constexpr unsigned kWarpSize = 32;

/// The most threads a block may have.
inline constexpr int64_t kMaxBlockThreads = 1024;

/// Steps of a reduction loop that a thread runs at a time, all their loads
/// before any of their arithmetic, where the emitters unroll it.
inline constexpr int64_t kUnrollSteps = 4;
/// ... and with its lanes along the outputs (PhaseConfig::lanesAlongOutputs)
/// this many: its blocks take 32 elements each, so there are few of them,
/// and each thread walks a long share of the steps.
inline constexpr int64_t kColumnUnrollSteps = 16;
/// The steps a member-per-block register tile loads at a time where they
/// come from global memory (MemberLoopPlanner::planUnroll): twice as many
/// in flight, half the round trips, 32 more registers for a 4x4 tile.
inline constexpr int64_t kDeepUnrollSteps = 8;

/// The same for a thread that computes whole elements of a sum (one load a
/// step) of at least this many steps: a bias gradient's column sum over a
/// batch of 64 then has 16 loads in flight per thread instead of 4, as
/// many as a 4x4 register tile's four steps have.
inline constexpr int64_t kWholeUnrollSteps = 16;

/// The most iterations of a reduction loop with a constant trip count that
/// ptxas unrolls whole (fitted to the SASS: 4 iterations of 16 steps and
/// 2 of 4 with 2 left over are unrolled, 8 of 4 are not; sm_90, CUDA 13.0).
/// A loop the emitters unrolled already is otherwise kept as it is
/// (`#pragma unroll 1`): with a 32-bit counter ptxas would unroll a short
/// body again, for registers and nothing else, and the performance model
/// (PhaseCounts.cpp) counts the loops as the emitters write them.
inline constexpr int64_t kFullUnrollTrips = 4;

/// With the tiled strategy, the fewest threads per block of a launch: two
/// warps.
inline constexpr unsigned kMinLaunchThreads = 64;

/// The points of `generic` (iterations of its parallel loops) and the steps
/// of each (iterations of its reduction loops); its loop ranges are static
/// (checkGeneric).
std::pair<int64_t, int64_t> countPointsAndSteps(linalg::GenericOp generic);

/// Whether `op` computes scalars only, which each kernel that uses them
/// recomputes.
bool isScalarOp(Operation *op);

/// The names of the ens ops that the locations of `roots` and the ops
/// nested in them record, for messages and the comments in kernels.
std::string getSourceOps(ArrayRef<Operation *> roots);

/// Checks that the CUDA backend can give each thread whole output elements
/// of `generic`: static loop ranges and outputs that depend on every
/// parallel loop.
llvm::Error checkGeneric(linalg::GenericOp generic);

/// The fills that emit nothing, since the next op that writes their buffer
/// starts its accumulators from the filled value instead.
struct FoldedFills {
  /// Finds the fills of `block` that fold: the next op of the block that is
  /// not a view or a scalar reads the filled buffer only as an output it
  /// writes whole, outside its reduction loops.
  void findIn(Block &block);

  /// The values filled into `generic`'s outputs by fills folded into it.
  SmallVector<Value> getValues(linalg::GenericOp generic) const;

  /// The outputs of ops that a fill was folded into: the value filled in.
  DenseMap<OpOperand *, Value> filledWith;
  /// The folded fills.
  DenseSet<Operation *> fills;
};

/// The op after `op` in its block that computes something: not a view, an
/// allocation or a scalar; or null.
Operation *getNextComputeOp(Operation *op);

/// The op that contraction `op` feeds as an epilogue: the next op of the
/// block that is not a view or a scalar, an elementwise linalg.generic that
/// reads the result of `op` once per element, when that result is a
/// temporary that nothing else but `foldedFills` uses; or null
/// (Epilogues.cpp).
linalg::GenericOp getEpilogue(linalg::GenericOp op,
                              const DenseSet<Operation *> &foldedFills);

/// The same in the body of a loop over members, where the epilogue may be
/// any later op of the body, not only the next: the first that reads the
/// result of `op`, if moving it up to `op` changes nothing. No op between
/// the two may write memory the epilogue reads, or touch memory it writes,
/// and the epilogue may use nothing defined between them but temporaries,
/// views and scalars (whose place in the body the kernels do not follow).
/// This lets a layer's backward pass fuse the activation's derivative into
/// the contraction that computes the gradient of its output, and an Adam
/// update into the contraction or sum that computes its gradient, although
/// autodiff puts other gradients' ops between them.
linalg::GenericOp getEpilogueInLoop(linalg::GenericOp op,
                                    const DenseSet<Operation *> &foldedFills);

/// Merges, in the body of a loop over members, each elementwise
/// linalg.generic that reads an output of an earlier elementwise one at the
/// points it writes it into that earlier one, where moving it up changes
/// nothing (as getEpilogueInLoop checks): one op then computes both, the
/// later taking the value in registers. A loss's gradient (a scaling of the
/// error that the last layer's epilogue computes) then runs in the last
/// layer's epilogue instead of a phase of its own.
void mergeElementwiseChains(Block &body);

/// The op that combines each step of reduction `generic` into its one
/// output, which no reduction loop indexes: an addition or a maximum of the
/// accumulator and the step's value (what ens reductions and contractions
/// lower to), read by nothing else; or null.
Operation *getReductionCombiner(linalg::GenericOp generic);

/// How many blocks may compute the output elements of a reduction.
enum class ReductionBlocks {
  /// One block computes every element (a loop over members, one block per
  /// member): it shares when that finishes sooner than whole elements per
  /// thread.
  One,
  /// One warp computes every element (a loop over members, a warp per
  /// member): the same, its threads combining with five shuffles and no
  /// barrier.
  Warp,
  /// Each element may have a block of its own (a grid-wide kernel): it
  /// shares only when the elements would not fill one block.
  Own,
  /// Each element of each member may have blocks of its own (the tiled
  /// strategy): it shares when a thread per element of every member would
  /// not fill the GPU.
  OwnPerMember,
};

/// The combiner of a reduction `generic` that blocks finish sooner by
/// sharing each output element's steps among their threads than by giving
/// each thread whole elements (one of few elements with many steps), as
/// `blocks` says: one output, read only by the op that combines it with
/// the value of a step, an addition or a maximum (what ens reductions
/// lower to); or null. With OwnPerMember, `members` counts the copies of
/// the op and `fillBlocks` the blocks that fill the target GPU
/// (getFillBlocks).
Operation *getBlockCombiner(linalg::GenericOp generic, ReductionBlocks blocks,
                            int64_t members = 1, int64_t fillBlocks = 0);

/// Whether the block that computes a member shares the steps of
/// `generic`'s output elements, a reduction it shares
/// (getBlockCombiner with ReductionBlocks::One), best by warps, each warp
/// taking whole elements (PhaseConfig::byWarps), rather than the whole block an
/// element after another.
bool isReducedByWarps(linalg::GenericOp generic);

/// Whether reduction `generic` (one reduction loop) reads every input that
/// its steps index contiguously along its output's last loop and not along
/// its steps, as a sum of a matrix's columns does: a block reduction with
/// its lanes along the steps would read a line per lane
/// (PhaseConfig::lanesAlongOutputs).
bool readsAcrossOutputs(linalg::GenericOp generic);

/// The register tile of points that each thread computes of contraction
/// `generic`: two parallel loops, one that an operand follows without the
/// other and one the other way round (the rows and columns of a matrix
/// product), of up to 4 points each; empty if the op has no such loops or
/// an output that changes along its reduction.
TileConfig planTile(linalg::GenericOp generic);

/// Gives a 4x4 register tile of `generic` 8 rows where the rows divide by
/// 8, its one reduction is long (32 steps or more) and the contraction
/// still has a tile for each of a member's `threads`
/// (a block of a member-per-block kernel, which has few warps to hide its
/// data path behind): each step then loads 12 operand elements for 32
/// multiply-adds instead of 8 for 16 (the seed step's kernel still fits
/// two blocks per SM, at 126 registers a thread).
void planTallTiles(linalg::GenericOp generic, TileConfig &tile,
                   unsigned threads);

/// With the member-per-block strategy, splits the one reduction of
/// contraction `generic`, in register tiles that are fewer than the
/// block's `threads`, into `phase.chunks` chunks within the block (split-K
/// within the block): the most, a power of two, that give every thread at
/// most one chunk of a tile, the chunks of equal size, each a loop of more
/// than kFullUnrollTrips iterations of `tile.unroll` steps (which
/// planUnroll has set). A 4x4 tile whose rows divide by 8 gets 8 rows
/// (planTallTiles) where its chunks then fill as many threads. Each
/// chunk's thread sums its tile over its steps and stores in shared memory
/// its partial results of the points other chunks finish; after one
/// barrier, the thread of chunk c adds up, in chunk order, the c-th share
/// of its tile's points and applies the epilogue to them. Leaves
/// `phase.chunks` at 1 where it does not split.
void planBlockSplit(linalg::GenericOp generic, PhaseConfig &phase,
                    unsigned threads);

/// The bytes of shared memory that the partial results of `phase`'s split
/// within the block take: each point's, of every chunk but the one that
/// finishes it.
int64_t getBlockSplitBytes(linalg::GenericOp generic, const PhaseConfig &phase);

/// Makes a thread's points of `phase`'s register tile consecutive along
/// each of its loops where that lets an operand that the steps read take
/// one 64- or 128-bit access for them (getAccessWidth), with every point
/// inside the loop. An operand is in global memory where
/// `isInGlobalMemory` says so (its place in `views`), else in shared
/// memory (a staged copy, row-major).
void planConsecutivePoints(linalg::GenericOp generic, PhaseConfig &phase,
                           const BufferViews &views,
                           llvm::function_ref<bool(Value)> isInGlobalMemory);

/// The two inputs whose elements a and b `generic`'s body multiplies and
/// adds to its one output's, acc + a * b (either way round) in f32, if
/// that is all it does: what a tensor core computes.
std::optional<std::pair<OpOperand *, OpOperand *>>
getMultiplyAddOperands(linalg::GenericOp generic);

/// Whether the warps of a block compute contraction `generic`, in register
/// tiles as `tile` says, from block tiles staged in shared memory: only
/// with the tiled strategy, and only an op with one reduction loop whose
/// body is acc + a * b of f32 elements of two operands (the rows' and the
/// columns'). At F32 `precision` in FFMA, a candidate that
/// settleTiledPlan keeps only where the model finds it faster than the
/// register tiles; otherwise on tensor cores, or where the op cannot, the
/// config says why not. The stages are planMmaStages' for blocks of
/// `threads` on `target`.
MmaConfig planMma(linalg::GenericOp generic, const TileConfig &tile,
                  Precision precision, Strategy strategy, const GpuSpec &target,
                  unsigned threads);

/// The multiply-add operands of block-tiled contraction `generic` in
/// register tiles `tile`: a, along its rows (tile.loops[0]), then b, along
/// its columns.
std::pair<OpOperand *, OpOperand *>
getBlockTileOperands(linalg::GenericOp generic, const TileConfig &tile);

/// The reduction loop of `generic`, which has one (the last if several).
unsigned getReductionLoop(linalg::GenericOp generic);

/// Whether a block staging `operand` of block-tiled contraction `generic`
/// copies it along the reduction steps (consecutive threads on
/// consecutive steps of one point of `loop`) rather than along `loop`:
/// where its elements in memory are nearer along the steps, so that a
/// warp's copies coalesce whatever the operand's transposition.
bool isStagedAlongSteps(linalg::GenericOp generic, OpOperand &operand,
                        unsigned loop);

/// Sets how block-tiled contraction `generic` stages `mma`'s operands:
/// on tensor cores each stage's layout (MmaConfig::aByStepsOnTensorCores,
/// bByColumnsOnTensorCores: an operand's words consecutive in its stage
/// where they are in memory), and the words each cp.async copies
/// (MmaConfig::copyWords): 4 for an operand in global memory whose words along
/// the copies' inner loop (the steps, or the rows or columns) are consecutive
/// both in memory and in the stage, 4 dividing that loop's range, where
/// getAccessWidth proves the first word of every 4 16-byte aligned at the
/// member's place in `views`; else 1.
void planBlockTileCopies(linalg::GenericOp generic, const TileConfig &tile,
                         MmaConfig &mma, const BufferViews &views);

/// Sets the stages of `mma`'s cp.async pipeline for blocks of `threads` on
/// `target`: as many (up to three) as fit for two blocks in an SM's shared
/// memory.
void planMmaStages(MmaConfig &mma, const GpuSpec &target, unsigned threads);

/// The rows of the warp tiles of FFMA block tiles, planMma's first: 32, a
/// thread's 8x4 points taking 12 operand words a step for 32 FFMA; or 16,
/// 4x4 points taking 8 words for 16 FFMA, whose block tiles of half the
/// rows give a contraction twice the blocks, where its blocks are too few
/// for the GPU's SMs. The model picks one per phase for its launch
/// (settleTiledPlan).
inline constexpr int64_t kFfmaWarpTileRows[] = {32, 16};

/// The tiles of `generic` in `tile`: the tiles of its two loops times its
/// other parallel loops' points.
int64_t countTiles(linalg::GenericOp generic, const TileConfig &tile);

/// The points of its tile whose partial results the thread of a tile's
/// last chunk (PhaseConfig::finishLast) of `generic`, split into `chunks`,
/// loads at once, every chunk's of each, before it adds them: as many as
/// keep about 128 words in flight.
int64_t getFinishBatchPoints(linalg::GenericOp generic, int64_t chunks);

/// With the tiled strategy, splits the steps of `generic`, a block
/// reduction or a contraction in register tiles with one reduction loop,
/// into `phase.chunks` chunks, each of its own blocks, when the blocks of
/// all `members` members are too few to fill the GPU (`fillBlocks`,
/// getFillBlocks of the target); a second kernel combines them (split-K).
/// settleTiledPlan keeps the split only if the performance model says it
/// pays.
void planSplit(linalg::GenericOp generic, PhaseConfig &phase, int64_t members,
               int64_t fillBlocks);

/// The steps of each chunk of a register tile's reduction of `steps` steps
/// split into `chunks` (all of them for 1): within a block (planBlockSplit,
/// whose chunks are of equal size) steps / chunks; across blocks
/// (planSplit), the chunks' share rounded up to a multiple of the `unroll`
/// steps the tile loads at a time, so that every chunk starts where an
/// operand read along the steps is as aligned as at step 0 (its unrolled
/// steps one 128-bit load); the last chunk takes what is left.
int64_t getChunkSteps(int64_t steps, int64_t chunks, int64_t unroll,
                      bool inBlock);

/// With the tiled strategy, the blocks of each of `members` members that
/// compute `generic` as `phase` plans it: a thread per point (per tile of
/// them, and per chunk of a split reduction's steps) in blocks of
/// `phase.threads`, or a block per output element (and chunk) of a block
/// reduction; at least one, at most what a grid launches.
int64_t getBlocksPerMember(linalg::GenericOp generic, const PhaseConfig &phase,
                           int64_t members);

/// The vendor GEMM step that computes `generic` for each of `members`
/// members (1 outside a loop over members), if it is a plain matrix
/// product: a multiply-accumulate of f32 over loops that are, but for those
/// of range 1, at most one batch loop (followed by all three operands; not
/// with members > 1), one of rows, one of columns and one reduction loop,
/// each operand a matrix in global memory that BLAS takes as it is or
/// transposed (one of its loops of unit stride), at a fixed place per
/// member. beta is 0 if a fill of 0 is folded into the op, else 1
/// (VendorGemm.cpp). Its `after` is left for the emitter to set.
std::optional<GemmStep> matchGemm(linalg::GenericOp generic,
                                  const BufferViews &views,
                                  const FoldedFills &fills, int64_t members);

/// A loop over members as planned: its config, and the IR each of its
/// decisions is about.
struct MemberLoopPlan {
  /// The IR of one phase of the config.
  struct Phase {
    /// A linalg.generic or an scf.for.
    Operation *op;
    /// The epilogue fused into `op`, if any.
    linalg::GenericOp epilogue;
    /// The combiner of a block reduction.
    Operation *combiner;
  };

  KernelConfig config;
  /// The allocation of each of config.temporaries.
  SmallVector<memref::AllocOp> temporaries;
  /// The IR of each of config.phases.
  SmallVector<Phase> phases;
};

/// With the tiled strategy, groups the phases of `plan` into launches
/// (PhaseConfig::launch and firstBlock), fewest first: a phase goes to the
/// first launch after every earlier phase it depends on, one that writes a
/// global buffer it reads or writes or that reads one it writes, so phases
/// that share a launch are independent and run side by side, each in its
/// own blocks. A phase split into chunks (two kernels), run by one thread
/// or by a vendor GEMM step has a launch of its own, and phases before and
/// after it stay so.
/// `getGlobalBuffer` says which plan buffer a memref is, if any.
void planTiledLaunches(
    MemberLoopPlan &plan,
    llvm::function_ref<std::optional<int64_t>(Value)> getGlobalBuffer);

/// The width, 32 or 64 bits, of the index arithmetic and loop counters of
/// the kernels of loop over members `forall` (KernelConfig::indexBits): 32
/// where no index they compute, into a buffer or over the points of an op
/// for all members, can reach 2^31 (IndexWidth.cpp).
unsigned planIndexBits(scf::ForallOp forall);

/// Plans the kernel `kernel` of the plan that computes `forall` with
/// `strategy`. `views` tells where memrefs from outside the loop live;
/// `addTemporaryBuffer` gives a plan buffer for a temporary of all members
/// that does not fit in shared memory, and returns its id (the buffer is
/// added to the program only if the plan is written). A loop without
/// members is planned with no members and nothing else. Contractions
/// use tensor cores where `precision` asks for them and planMma allows.
/// Reductions are shared and split to fill `target`.
llvm::Expected<MemberLoopPlan> planMemberLoop(
    scf::ForallOp forall, Strategy strategy, Precision precision,
    const GpuSpec &target, unsigned kernel, const FoldedFills &fills,
    const BufferViews &views,
    llvm::function_ref<llvm::Expected<int64_t>(MemRefType)> addTemporaryBuffer);

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_PLANNING_H
