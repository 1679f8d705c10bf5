//===- PhaseCounts.h - What the model counts of a kernel's phases -*- C++
//-*-===//
//
// Private to the CUDA backend: the instructions, memory accesses and their
// wavefronts and sectors, dependent round trips, barriers and working lanes
// of each phase of a kernel, counted from the plan (the phase's config and
// its IR) in the shape the emitters write it, for the performance model
// (docs/cuda.md, "Performance model"). The functions take the plan as input
// and nothing of the emitter, so that they can move with planning.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_PHASECOUNTS_H
#define ENS_LIB_BACKEND_CUDA_PHASECOUNTS_H

#include "IndexViews.h"
#include "Planning.h"

#include "ens/Backend/Cuda/LaunchPlan.h"

namespace mlir::ens::cuda {

/// Counts over one launch (every member), as KernelInfo carries them.
struct WorkCounts {
  double warpInstructions = 0, fp32WarpInstructions = 0;
  double memoryInstructions = 0, wavefrontBytes = 0, l2Bytes = 0;
  /// Round trips to global memory a thread waits for one after another,
  /// and of them those taken to hit in L2 (a line another warp or an
  /// earlier step fetched).
  int64_t dependentLoads = 0, l2DependentLoads = 0;
  int64_t barriersPerBlock = 0;
  /// Lanes that work and lanes of the warps that issue.
  double activeLanes = 0, issuedLanes = 0;
  std::vector<KernelInfo::HotLoop> hotLoops;
  /// False where a phase is not counted (a vendor GEMM step): the kernel's
  /// counts are then left out and the model falls back to its FLOPs.
  bool counted = true;

  /// Adds the counts of a phase that runs after this one in the same
  /// threads (its round trips follow these).
  void append(const WorkCounts &next);
  /// Writes the counts into `info`, or leaves it as it is if not counted.
  void store(KernelInfo &info) const;
};

/// Adds the counts of `section`, which runs side by side with the other
/// sections of a launch in blocks of its own, to those of the whole
/// launch `whole`: its throughput counts add up, its round trips do not.
/// Returns false, adding nothing, if `section` is not counted.
bool addSideBySide(KernelInfo &whole, const KernelInfo &section);

/// Clears the counts of `info`: the model then describes it by its FLOPs
/// and traffic (a launch with a section that is not counted).
void dropCounts(KernelInfo &info);

/// The work of a launch whose blocks run independent sections side by
/// side, summed as sections are added: what the planner's description of
/// a candidate launch and the emitted launch both count.
struct SideBySideWork {
  int64_t blocks = 0, bytesInFlight = 0;
  /// Whether the model counts every section (addSideBySide).
  bool counted = true;

  /// Adds the FLOPs and counts of `section`, run by `sectionBlocks` blocks
  /// of its own, to `whole`; its bytes in flight per thread become the
  /// average over all the blocks.
  void add(KernelInfo &whole, const KernelInfo &section, int64_t sectionBlocks);
  /// Drops the counts of `whole` if a section was not counted.
  void finish(KernelInfo &whole) const;
};

/// Who runs a phase: the strategy, the threads that share one member's
/// work (a block's, a warp's with members-per-block, or with the tiled
/// strategy the block's times the member's blocks), the members, and where
/// the loop's memrefs live.
struct PhaseContext {
  const BufferViews &views;
  Strategy strategy;
  /// Threads of one block, and blocks per member (1 but for tiled).
  unsigned blockThreads = 0;
  int64_t blocksPerMember = 1;
  /// Threads that share the points of one member: blockThreads, or 32 with
  /// members-per-block.
  unsigned memberThreads = 0;
  int64_t members = 1;
};

/// Whether a phase stages `memref` into shared memory with asynchronous
/// copies (cp.async, 4 bytes each) behind one wait: its elements are 4
/// bytes and it lives in global memory. Otherwise each thread loads an
/// element and stores it before its next load.
bool isStagedAsynchronously(const BufferViews &views, Value memref);

/// The elements of `operand` of `op` that ptxas accesses at once (4 or 2,
/// for a 128-bit or 64-bit access; else 1) where a thread accesses it at
/// consecutive values of `loop`, starting from a multiple of each of
/// `starts`: unit stride along `loop`, and along its other loops (so the
/// lanes and a tile's points), at the member's place in `views` if it is
/// in global memory, and in the buffer, a multiple of that many elements.
/// `rowMajor`: its strides are row-major (a copy staged in shared memory)
/// rather than its type's. Shared buffers are 16-byte aligned, and so is
/// every buffer in global memory for the kernels (ENS_ALIGNED16).
int64_t getAccessWidth(linalg::GenericOp op, OpOperand &operand, unsigned loop,
                       ArrayRef<int64_t> starts, bool global, bool rowMajor,
                       const BufferViews &views);

/// Counts phase `phase` (IR `ir`) of a loop over members as its kernel
/// computes it: the operands staged in shared memory first, then its
/// points, register tiles or block reduction, and its fused epilogue.
WorkCounts countPhase(const MemberLoopPlan::Phase &ir, const PhaseConfig &phase,
                      const PhaseContext &context);

/// Counts the second kernel of a split phase: each output element's
/// `phase.chunks` partial results added and its epilogue applied; a warp's
/// lanes load partial results `laneStride` elements apart.
WorkCounts countSplitCombine(const MemberLoopPlan::Phase &ir,
                             const PhaseConfig &phase,
                             const PhaseContext &context,
                             int64_t laneStride = 1);

/// Counts what a split contraction's threads do after storing their
/// partial results when the last chunk of each tile finishes it
/// (PhaseConfig::finishLast): each increments its tile's counter, and the
/// last one's thread adds the tile's chunks, a batch of points at a time,
/// and applies the epilogue; `context` is the first pass's.
WorkCounts countSplitFinish(const MemberLoopPlan::Phase &ir,
                            const PhaseConfig &phase,
                            const PhaseContext &context);

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_PHASECOUNTS_H
