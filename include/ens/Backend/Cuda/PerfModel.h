//===- PerfModel.h - Static time estimates for CUDA kernels -----*- C++ -*-===//
//
// An analytical performance model: from what a kernel does (FLOPs, bytes at
// each level of the memory hierarchy, instructions) and how it is launched
// (grid, block, registers, shared memory), the time it takes on a described
// GPU. It is the documented model behind the kernel report's estimates and
// the speed claims made without a GPU; docs/cuda.md ("Performance model")
// gives its equations, its constants and their sources, and how far it is
// from published measurements.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_PERFMODEL_H
#define ENS_BACKEND_CUDA_PERFMODEL_H

#include "ens/Backend/Cuda/LaunchPlan.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::ens::cuda {

/// The figures of one GPU that the model uses. Every constant of the known
/// GPUs is cited in PerfModel.cpp and docs/cuda.md.
struct GpuSpec {
  /// The name a target gives it ("h100-sxm", as `--ens-cuda-plan`'s
  /// `target=` and a module's `ens_cuda.target` take it), the key the
  /// kernel report uses ("h100") and the full name.
  StringRef target, key, name;
  int computeMajor = 0, computeMinor = 0;
  int smCount = 0;
  /// The boost clock, which the rates per clock below are multiplied by.
  double clockGHz = 0;
  /// FP32 lanes per SM: a warp FFMA takes 32 / lanes clocks of its SM.
  int fp32LanesPerSm = 0;
  /// Dense TF32 tensor-core peak in TFLOP/s.
  double tf32Tflops = 0;
  /// Warp instructions issued per clock per SM (one per scheduler).
  int issuePerClockPerSm = 4;
  /// Bytes per clock per SM through the L1/shared-memory data path: one
  /// 128-byte wavefront.
  int sharedBytesPerClockPerSm = 128;
  /// Load/store units per SM: a warp's memory instruction takes 32 / units
  /// clocks of its SM to issue to the L1/shared-memory pipeline.
  int loadStoreUnitsPerSm = 32;
  /// L2 and DRAM bandwidth in GB/s.
  double l2GBs = 0, dramGBs = 0;
  /// Latency of a load that misses in L2, and of one that hits in it, in
  /// nanoseconds.
  double dramLatencyNs = 0, l2LatencyNs = 0;
  /// What a launch costs beyond the kernel's own time, in microseconds.
  double launchUs = 0;
  /// Occupancy limits.
  int maxThreadsPerSm = 2048, maxBlocksPerSm = 32, regsPerSm = 65536;
  int64_t sharedPerSm = 0, sharedPerBlockOptin = 0;
  int64_t reservedSharedPerBlock = 1024;

  /// Peak FP32 in FLOP/s (an FMA is two FLOPs).
  double getPeakFp32() const {
    return 2.0 * fp32LanesPerSm * smCount * clockGHz * 1e9;
  }
};

/// The GPUs that planning and the model know, one table of their figures:
/// H100-SXM5 ("h100-sxm", sm_90, the default), H200-SXM ("h200", sm_90),
/// A100-SXM4-40GB and -80GB ("a100", "a100-80gb", sm_80), and the RTX A6000
/// ("a6000", sm_86) on which the published SGEMM measurements the model is
/// validated against were taken.
ArrayRef<GpuSpec> getGpuTargets();

/// The GPU of getGpuTargets() that `target` names, or null.
const GpuSpec *lookupGpuTarget(StringRef target);

/// The names lookupGpuTarget takes, separated by ", ", for messages.
std::string getGpuTargetNames();

/// The target that planning assumes when none is named: the H100 SXM.
const GpuSpec &getDefaultGpuTarget();

/// With the tiled strategy, the blocks that fill `gpu`: two per SM.
/// Reductions whose output elements of all members would be fewer blocks,
/// or threads, are shared or split among more blocks.
inline int64_t getFillBlocks(const GpuSpec &gpu) { return 2 * gpu.smCount; }

/// A kernel as the model sees it: totals over one launch of the whole grid.
/// Byte counts not known are 0 and then cost nothing.
struct KernelDescription {
  /// Floating-point operations, an FMA counted as two.
  double flops = 0;
  /// Share of `flops` (of those not on tensor cores) done by FMA instructions:
  /// an FMA does two FLOPs in one issue, an FADD or FMUL one. 1 when unknown
  /// (the roofline's assumption).
  double fmaShare = 1;
  /// Of `flops`, those that run on TF32 tensor cores instead of the FP32
  /// pipes (a contraction's multiply-adds).
  double tensorFlops = 0;
  /// Tensor-core products per product of `tensorFlops`: 1, or 3 with
  /// 3xTF32.
  double tensorPasses = 1;
  /// Bytes moved from DRAM: each byte the kernel needs once (unique).
  double dramBytes = 0;
  /// Bytes the SMs fetch from L2; never fewer than `dramBytes`, which pass
  /// through L2.
  double l2Bytes = 0;
  /// Bytes through the L1/shared-memory data path, counted in 128-byte
  /// wavefronts: a warp access touching n distinct 128-byte lines (global)
  /// or needing n bank-conflict-free passes (shared) costs n * 128 bytes.
  double sharedBytes = 0;
  /// Warp instructions issued in all, if known (0: only the FP32 ones).
  double warpInstructions = 0;
  /// Of `warpInstructions`, the FP32 ones (FFMA, FADD, FMUL, ...) of the
  /// warps that issue them, if known (0: FLOPs / 32, all lanes working).
  double fp32WarpInstructions = 0;
  /// Warp load and store instructions to global and shared memory, if known.
  double memoryInstructions = 0;
  /// Longest chain of dependent global loads per thread: each costs a DRAM
  /// latency that only other warps can hide; of them, those that hit in L2
  /// and cost its latency instead.
  double dependentLoadsPerThread = 0, l2DependentLoadsPerThread = 0;
  /// Bytes each thread keeps in flight per dependent load (its independent
  /// loads issued together).
  double bytesInFlightPerThread = 4;
  /// The launch.
  int64_t gridBlocks = 1;
  int threadsPerBlock = 1;
  int registersPerThread = 32;
  int64_t sharedBytesPerBlock = 0;
  /// How many times the kernel is launched.
  int64_t launches = 1;
};

/// The model's answer for one kernel on one GPU, times in microseconds for
/// all launches together.
struct Estimate {
  /// The estimate and the roofline bound, max(FLOPs / peak, DRAM bytes /
  /// DRAM bandwidth), which it never undercuts.
  double us = 0, rooflineUs = 0;
  /// The terms: arithmetic, instruction issue, load/store units, L1/shared,
  /// L2 and DRAM throughput, DRAM latency not hidden, launch cost.
  double computeUs = 0, issueUs = 0, lsuUs = 0, sharedUs = 0, l2Us = 0,
         dramUs = 0, latencyUs = 0, launchUs = 0;
  /// Resident blocks per SM (0 if the launch cannot run at all) and waves of
  /// the grid over the SMs, the last possibly partial.
  int blocksPerSm = 0;
  double waves = 0;
  /// The term that binds: "compute", "issue", "lsu", "shared", "l2",
  /// "dram", "latency" or "launch".
  StringRef bound;
};

/// Resident blocks per SM of a launch on `gpu`, from the CUDA toolkit's
/// occupancy calculator (cuda_occupancy.h) when the build has the toolkit,
/// else from the same thread, register and shared-memory limits without
/// allocation granularity.
int getBlocksPerSm(const GpuSpec &gpu, int threadsPerBlock,
                   int registersPerThread, int64_t sharedBytesPerBlock);

/// Estimates the time of `kernel` on `gpu`.
Estimate estimateKernel(const KernelDescription &kernel, const GpuSpec &gpu);

/// Estimates one launch of a launch plan's kernel on `gpu`, described from
/// what the plan knows: the FLOPs of the kernel's fmaf are FMAs; its global
/// traffic is its DRAM traffic; each thread waits for at least one DRAM
/// round trip, with the bytes in flight that its innermost loop loads
/// together. `registers` per thread are ptxas's, or 0 if unknown (32).
///
/// A kernel that runs independent `sections` side by side in its blocks is
/// charged one launch and the longest of: each throughput term of all its
/// work together; its slowest section alone; and the sum over its sections
/// of each one's time alone times the share of the GPU's block slots it
/// fills (docs/cuda.md, "Performance model").
///
/// With `useCounts` (the kernel report), a kernel that PhaseCounts.cpp
/// counted is described by its counts: warp instructions, load/store
/// instructions, wavefronts, L2 bytes, its chain of round trips and its
/// working lanes. Without (the planner's decisions, unless the hidden
/// `--cuda-plan-with-counts` asks for the counts), by its FLOPs and
/// traffic alone, as before the counts.
Estimate estimateLaunch(const KernelInfo &kernel, const KernelLaunch &launch,
                        int registers, const GpuSpec &gpu,
                        ArrayRef<KernelSection> sections = {},
                        bool useCounts = true);

/// The bytes of global memory vendor GEMM step `gemm` reads and writes:
/// each operand's matrices once per batch (once for all where its stride is
/// 0), C read too unless beta is 0.
std::pair<int64_t, int64_t> getGemmTraffic(const GemmStep &gemm);

/// Estimates vendor GEMM step `gemm` (cuBLAS's strided batched SGEMM) on
/// `gpu`: a launch and a host call, plus the longer of its DRAM traffic
/// (each operand once, a shared one once for all batches) and its output
/// tiles of 64x64 (or smaller for a smaller C) in waves over the SMs (split
/// along K into slices of at least 256 steps where the tiles are fewer than the
/// SMs), each SM at 60% of its FP32 peak (docs/cuda.md, "Vendor GEMM steps",
/// gives the sources).
Estimate estimateGemm(const GemmStep &gemm, const GpuSpec &gpu);

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_PERFMODEL_H
