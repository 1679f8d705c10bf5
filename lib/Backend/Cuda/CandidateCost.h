//===- CandidateCost.h - The model's view of candidate configs --*- C++ -*-===//
//
// Private to the CUDA backend: the kernels that a candidate config of a
// tiled loop over members makes, as the performance model weighs them
// (FLOPs, global-memory traffic, bytes in flight per thread, grid, block
// and shared memory), computed from the IR and the config alone. The
// planner compares candidate configs with these estimates, and writes none
// of them; the emitters take their bytes in flight from here, so that the
// kernel they write is the one that was weighed.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_CANDIDATECOST_H
#define ENS_LIB_BACKEND_CUDA_CANDIDATECOST_H

#include "Planning.h"

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Backend/Cuda/LaunchPlan.h"
#include "ens/Backend/Cuda/PerfModel.h"

#include "llvm/ADT/SetVector.h"

#include <optional>
#include <vector>

namespace mlir::ens::cuda {

/// The bytes of global memory that a thread computing whole points of
/// `generic` (no register tile) loads together in its reduction loop, if
/// the loop runs several steps at a time; nullopt if it runs one at a time
/// (the kernel then says nothing of its bytes in flight).
std::optional<int64_t> getPointsBytesInFlight(linalg::GenericOp generic);

/// The same for a thread computing register tiles `tile` of `generic`, of
/// the reduction split into `chunks` chunks (1: whole).
int64_t getTileBytesInFlight(linalg::GenericOp generic, const TileConfig &tile,
                             int64_t chunks);

/// The same for a thread's share of the steps of a block reduction of
/// `generic`, `unroll` steps at a time; nullopt if its steps run one at a
/// time.
std::optional<int64_t>
getBlockReductionBytesInFlight(linalg::GenericOp generic,
                               int64_t unroll = kUnrollSteps);

/// The same for a thread adding the `chunks` partial results of an output
/// element of reduction `generic`, whose combiner is `combiner`.
int64_t getSplitCombineBytesInFlight(Operation *combiner, int64_t chunks);

/// The same for a thread of tensor-core phase `phase`: its share of both
/// staged operands, for each stage of the pipeline in flight.
int64_t getMmaBytesInFlight(const PhaseConfig &phase);

/// Stores in `info` what the model counts of tiled phase `phase` (IR
/// `ir`) of `members` members, in blocks of `threads`.
void storeTiledCounts(KernelInfo &info, const BufferViews &views,
                      const PhaseConfig &phase, const MemberLoopPlan::Phase &ir,
                      int64_t members, unsigned threads);

/// Stores in `info` what the model counts of the one kernel of
/// member-per-block or members-per-block plan `plan`: its phases one after
/// another, each after a barrier.
void storeMemberCounts(KernelInfo &info, const BufferViews &views,
                       const MemberLoopPlan &plan);

/// Stores in `info` what the model counts of a grid-wide kernel of
/// `generic` in `blocks` blocks of `threads`, with `epilogue` fused into it
/// or, for a block per output element, `combiner`.
void storeGridCounts(KernelInfo &info, const BufferViews &views,
                     linalg::GenericOp generic, linalg::GenericOp epilogue,
                     Operation *combiner, unsigned threads, unsigned blocks);

/// A kernel of a candidate, as the plan would describe it.
struct CandidateKernel {
  KernelInfo info;
  KernelLaunch launch;
  /// The plan buffers it reads and writes.
  llvm::SetVector<int64_t> read, written;
  /// The bytes it reads and writes of buffers that are not yet in the plan
  /// (a split's partial results and counters), in `info` besides `read`
  /// and `written`'s.
  int64_t unplannedBytesRead = 0, unplannedBytesWritten = 0;
  /// The phases it runs side by side, if several.
  std::vector<KernelSection> sections;
};

/// Weighs candidate configs of one loop over members on a target GPU.
struct CandidateCoster {
  /// Where the memrefs of the function and of the loop live.
  const BufferViews &views;
  const FoldedFills &fills;
  const GpuSpec &target;
  /// The bytes of plan buffer `buffer`.
  llvm::function_ref<int64_t(int64_t buffer)> getBufferBytes;
  /// The largest buffer the program may allocate.
  int64_t maxBufferBytes;
  /// Whether estimates use the model's counts of each kernel (as the
  /// kernel report does) instead of its FLOPs and traffic alone.
  bool withCounts;

  /// The kernels of tiled phase `phase` (IR `ir`) of a loop over `members`
  /// members alone in its launch, in blocks of `phase.threads`: one, or
  /// two for a split; an error if a split's partial results pass the
  /// buffer limit.
  llvm::Expected<std::vector<CandidateKernel>>
  describeTiledPhase(const PhaseConfig &phase, const MemberLoopPlan::Phase &ir,
                     int64_t members) const;

  /// The kernels of the launch of tiled plan `plan` that runs `phases`
  /// (positions in its phases) side by side, as their configs say.
  llvm::Expected<std::vector<CandidateKernel>>
  describeTiledLaunch(const MemberLoopPlan &plan,
                      ArrayRef<unsigned> phases) const;

  /// The one kernel of loop over members `forall` with the member-per-block
  /// or members-per-block strategy, as `plan` configures it: its phases one
  /// after another, separated by barriers.
  CandidateKernel describeMemberKernel(scf::ForallOp forall,
                                       const MemberLoopPlan &plan) const;

  /// The grid-wide kernel of `generic`, outside loops over members and with
  /// no epilogue fused into it: a thread per point, or a block per output
  /// element of a reduction of few elements.
  CandidateKernel describeGridGeneric(linalg::GenericOp generic) const;

  /// The model's estimate of `kernels`, one launch each, in microseconds
  /// (registers unknown: 32).
  double estimateUs(ArrayRef<CandidateKernel> kernels) const;

  /// The plan buffers that `roots` (an op and the epilogue fused into it,
  /// bound in that order) read and write: their operands', and those of
  /// the loads outside them whose values they use. With `fused`, the
  /// result of the first, which the second reads in registers, is neither.
  void collectTraffic(ArrayRef<Operation *> roots, bool fused,
                      llvm::SetVector<int64_t> &read,
                      llvm::SetVector<int64_t> &written) const;
  /// The same in a kernel that has bound the memrefs `bound` already (whose
  /// loads it does not count again), adding those of `roots`.
  void collectTraffic(ArrayRef<Operation *> roots, bool fused,
                      llvm::SetVector<int64_t> &read,
                      llvm::SetVector<int64_t> &written,
                      DenseSet<Value> &bound) const;

  /// Adds to `read` the global buffer of the output of `generic`, a split
  /// reduction, whose value its chunks are added to, unless a fill was
  /// folded into it.
  void collectStartRead(linalg::GenericOp generic,
                        llvm::SetVector<int64_t> &read) const;

  /// Adds the bytes of `read` and `written` to `info`.
  void countBytes(KernelInfo &info, const llvm::SetVector<int64_t> &read,
                  const llvm::SetVector<int64_t> &written) const;
};

/// Decides the rest of tiled plan `plan` from the model's estimates of its
/// candidate configs, as `coster` weighs them, before any kernel of it is
/// written: which planned splits pay (PhaseConfig::chunks), which phases a
/// vendor GEMM step computes (PhaseKind::VendorGemm, as `gemmChoice`
/// allows), its launches, and the threads per block of each launch
/// (LoopChoices.cpp). Each pick between a vendor GEMM step and generated
/// kernels that the model makes (--cuda-gemm=auto) is appended to
/// `decisions`. Returns the estimate of the settled plan.
llvm::Expected<double> settleTiledPlan(MemberLoopPlan &plan,
                                       const CandidateCoster &coster,
                                       GemmChoice gemmChoice,
                                       std::vector<GemmDecision> &decisions);

/// The launches of settled tiled config `config`, in order: the positions
/// of the phases each runs.
SmallVector<SmallVector<unsigned>> getTiledLaunches(const KernelConfig &config);

/// Records in settled tiled plan `plan` where each phase lands in the
/// program, which the emitter then follows: the kernel of each launch
/// (from the config's kernel on; a split phase has two), the position of
/// each vendor GEMM step among the program's (from `firstGemm` on) and the
/// plan buffer of each split's partial results (from `firstBuffer` on).
void placeTiledPlan(MemberLoopPlan &plan, unsigned firstGemm,
                    int64_t firstBuffer);

/// Decides how many members share a block of members-per-block plan
/// `plan` of `forall` (1, 2, 4 ... 32, as shared memory and the members
/// allow, or as the loop's ens_cuda.kernel_config says): those whose
/// kernel the model estimates fastest. Returns its estimate.
llvm::Expected<double> settleMembersPerBlock(scf::ForallOp forall,
                                             MemberLoopPlan &plan,
                                             const CandidateCoster &coster);

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_CANDIDATECOST_H
