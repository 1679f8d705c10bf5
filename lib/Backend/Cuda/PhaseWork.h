//===- PhaseWork.h - Accesses and work of a kernel's phases -----*- C++ -*-===//
//
// Private to PhaseCounts.cpp, PhaseWork.cpp and BlockTileCounts.cpp: what
// one warp access costs
// (from the addresses its lanes compute), a thread's work per step or point,
// and its totals over a launch, for the performance model's counts.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_PHASEWORK_H
#define ENS_LIB_BACKEND_CUDA_PHASEWORK_H

#include "PhaseCounts.h"

namespace mlir::ens::cuda::phase {

/// Instructions of a loop iteration besides its loads, stores and float
/// ops: the 64-bit counter's add, compare and branch and the address
/// increments. An assumption fitted to the SASS of the seed step's
/// contraction loops (8 to 20 a four-step iteration, sm_90, CUDA 13.0).
inline constexpr double kIterationOverhead = 12;
/// Instructions a thread spends on each point before its loops: the
/// point's loop variables from the flat index (64-bit divisions by
/// constants, a few instructions each) and the loop's own step.
inline constexpr double kPointOverhead = 10;
inline constexpr double kPerLoopVariable = 6;
/// Instructions of ens_block_reduce per warp: two rounds of five shuffles
/// and combines, the scratch store and load, two barriers.
inline constexpr double kBlockReduceInstructions = 26;
/// Instructions of ens_warp_reduce: five shuffles and combines.
inline constexpr double kWarpReduceInstructions = 10;

/// Where a memref's elements are.
enum class Space { Global, Shared, Registers };

/// What one warp access costs: 128-byte L1 wavefronts and, for global
/// memory, 32-byte L2 sectors.
struct AccessCost {
  Space space = Space::Global;
  double wavefronts = 1, sectors = 4;
};

/// The cost per warp, per point (or step) of a thread, of a phase's
/// accesses, and its instructions.
struct Work {
  double loads = 0, stores = 0, fp = 0, ffma = 0;
  /// Tensor-core instructions (HMMA), and instructions of no float pipe's
  /// arithmetic (integer address and conversion work) that the loop's
  /// shape makes part of each step.
  double tensor = 0, other = 0;
  double wavefronts = 0, sectors = 0;
  /// Whether it loads, or stores, global memory.
  bool global = false, globalStores = false;

  void add(const AccessCost &cost, double times, bool isStore) {
    (isStore ? stores : loads) += times;
    wavefronts += times * cost.wavefronts;
    if (cost.space == Space::Global) {
      sectors += times * cost.sectors;
      global |= !isStore;
      globalStores |= isStore;
    }
  }
  void add(const Work &work, double times = 1) {
    loads += times * work.loads;
    stores += times * work.stores;
    fp += times * work.fp;
    ffma += times * work.ffma;
    tensor += times * work.tensor;
    other += times * work.other;
    wavefronts += times * work.wavefronts;
    sectors += times * work.sectors;
    global |= work.global;
    globalStores |= work.globalStores;
  }
  double instructions() const { return loads + stores + fp + tensor + other; }
};

/// Where `memref` lives: the space of the buffer or temporary it views.
Space getSpace(Value memref, const BufferViews &views);

/// The strides in elements of `memref` (row-major if its layout has none).
SmallVector<int64_t> getStrides(MemRefType type);

/// The cost of a warp access whose lane l reads element offset
/// `offsets[l]` (in elements of `bytes` each) in `space`: distinct 128-byte
/// lines and 32-byte sectors of global memory, or the most distinct words
/// any one of the 32 banks of shared memory holds (a word that several
/// lanes read is broadcast).
AccessCost getCost(ArrayRef<int64_t> offsets, int64_t bytes, Space space);

/// The cost of a warp access whose lanes each take `width` consecutive
/// elements at once (a 64- or 128-bit access; 1: a plain one), where
/// `first` is the cost of their first elements: L1 and shared memory
/// return 128 bytes a cycle, a 32-bit register of each lane, so it takes
/// at least `width` wavefronts (an LDS.128 at best 4, one per quarter of
/// the warp).
inline AccessCost widen(AccessCost first, int64_t width) {
  first.wavefronts = std::max(first.wavefronts, double(width));
  return first;
}

/// The loop variables of lane `lane` when consecutive lanes take
/// consecutive flat indices of `loops` (the last varying fastest, as
/// GenericWriter::declareLoops writes them), the others 0.
SmallVector<int64_t> getLaneDims(ArrayRef<int64_t> ranges,
                                 ArrayRef<unsigned> loops, int64_t lane);

/// How a memref's elements are laid out: by its type's strides, row-major
/// (a copy staged in shared memory), or in swizzled rows (a temporary in
/// shared memory, TemporaryConfig::swizzled).
enum class Layout { Typed, RowMajor, Swizzled };

/// The layout of `memref` where it is not staged: Swizzled or Typed.
Layout getLayout(Value memref, const BufferViews &views);

/// The cost of `operand`'s warp access when lane l is at `laneDims[l]`.
AccessCost getOperandCost(linalg::GenericOp generic, OpOperand &operand,
                          ArrayRef<SmallVector<int64_t>> laneDims, Space space,
                          Layout layout);

/// The lanes of a warp that work on a phase of `items` work items among
/// `threads`: warps that issue per member, and the lanes that work.
std::pair<double, double> getWarps(int64_t items, int64_t threads);

/// The unrolled iterations and single steps of a reduction of `steps`
/// steps per thread run `unroll` at a time.
std::pair<int64_t, int64_t> splitSteps(int64_t steps, int64_t unroll);

/// The trips of the hot loop of such a reduction: its unrolled
/// iterations, or where there are none, its single steps.
inline int64_t getHotLoopTrips(int64_t iterations, int64_t rest) {
  return iterations ? iterations : rest;
}

/// Float instructions per point of `op`'s body: an FMA (a multiply the
/// kernel writes fused with its add) is one instruction for two FLOPs.
std::pair<double, double> getFloatInstructions(Operation *op, int64_t points);

/// Totals a phase's per-warp work over the members: `warps` issuing warps
/// per member each doing `work`, and `instructions` per warp besides.
WorkCounts total(const Work &work, double warps, double activeLanes,
                 double overhead, const PhaseContext &context);

/// Counts a register-tile phase's split within the block after its steps
/// (emitTiles): the thread of chunk c of each of `tiles` tiles of
/// `tilePoints` points stores in shared memory its partial results of the
/// points that other chunks finish, the barrier, and it loads the others'
/// of its own share of the points and finishes each with `point` (the
/// work of a tile's points).
WorkCounts countBlockPartials(const Work &point, int64_t tiles,
                              int64_t tilePoints, int64_t chunks,
                              const PhaseContext &context);

/// Counts a serial phase: thread 0 runs the nest alone, each load waiting
/// for the one before.
WorkCounts countSerial(Operation *op, const PhaseContext &context);

/// Counts contraction `generic` in block tiles as `phase` configures them,
/// in FFMA or on tensor cores (mma.sync), each thread's point costing
/// `point` (its output and epilogue, for a warp whose lanes hold their
/// first points), whose epilogue loads `epilogueWords` words
/// (countEpilogueWords).
WorkCounts countBlockTiles(linalg::GenericOp generic, const PhaseConfig &phase,
                           const PhaseContext &context, const Work &point,
                           int64_t epilogueWords);

} // namespace mlir::ens::cuda::phase

#endif // ENS_LIB_BACKEND_CUDA_PHASEWORK_H
