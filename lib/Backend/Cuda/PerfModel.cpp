//===- PerfModel.cpp - Static time estimates for CUDA kernels -------------===//
//
// The model charges each launch the slowest of its throughput terms on the
// busiest SM (arithmetic, instruction issue, load/store units, the
// L1/shared-memory data path, and its share of L2 and DRAM bandwidth), or
// the DRAM latency its resident warps cannot hide, plus a fixed launch cost.
// Work is counted on the busiest SM, which runs ceil(blocks / SMs) blocks, so a
// partial last wave costs as much as a full one. docs/cuda.md describes the
// model and cites every constant below.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/PerfModel.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

#ifdef ENS_HAVE_NVRTC
#include <cuda_occupancy.h>
#endif

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

// Sources (full references in docs/cuda.md, "Performance model"):
//   [A100-WP]  NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020).
//   [A100-DS]  NVIDIA A100 Tensor Core GPU datasheet (40GB and 80GB SXM4).
//   [H100-DS]  NVIDIA H100 Tensor Core GPU datasheet (H100 SXM).
//   [H100-WP]  NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022).
//   [H200-DS]  NVIDIA H200 Tensor Core GPU datasheet (H200 SXM).
//   [A6000-DS] NVIDIA RTX A6000 datasheet.
//   [GA102-WP] NVIDIA Ampere GA102 GPU Architecture whitepaper (2020).
//   [CUDA-PG]  CUDA C++ Programming Guide, compute capability tables.
// Figures marked "assumption" have no vendor source; docs/cuda.md says why
// each value was chosen.

/// Fills the occupancy limits that the CUDA Programming Guide lists for
/// compute capability 8.0 and 9.0.
static GpuSpec makeDatacenterSpec() {
  GpuSpec spec;
  spec.issuePerClockPerSm = 4;         // 4 schedulers per SM [A100-WP].
  spec.sharedBytesPerClockPerSm = 128; // 32 banks x 4 B [CUDA-PG].
  spec.loadStoreUnitsPerSm = 32;       // 8 per SM partition [A100-WP].
  spec.maxThreadsPerSm = 2048;         // [CUDA-PG]
  spec.maxBlocksPerSm = 32;            // [CUDA-PG]
  spec.regsPerSm = 65536;              // [CUDA-PG]
  spec.reservedSharedPerBlock = 1024;  // [CUDA-PG]
  spec.launchUs = 3.0;                 // Assumption (see docs/cuda.md).
  return spec;
}

static GpuSpec makeA100(StringRef target, StringRef key, StringRef name,
                        double dramGBs) {
  GpuSpec spec = makeDatacenterSpec();
  spec.target = target;
  spec.key = key;
  spec.name = name;
  spec.computeMajor = 8;
  spec.smCount = 108;       // [A100-WP]
  spec.clockGHz = 1.410;    // Boost clock [A100-WP].
  spec.fp32LanesPerSm = 64; // 19.5 TFLOP/s FP32 [A100-DS].
  spec.tf32Tflops = 156;    // Dense TF32 [A100-DS].
  // "A100 L2 cache read bandwidth is 5120 Bytes/clk" [A100-WP].
  spec.l2GBs = 5120 * 1.410;
  spec.dramGBs = dramGBs;
  spec.dramLatencyNs = 500;              // Assumption (see docs/cuda.md).
  spec.l2LatencyNs = 200;                // Assumption (see docs/cuda.md).
  spec.sharedPerSm = 164 * 1024;         // [CUDA-PG]
  spec.sharedPerBlockOptin = 163 * 1024; // [CUDA-PG]
  return spec;
}

/// The Hopper GPUs (GH100 with 132 SMs), which differ in their memory.
static GpuSpec makeHopper(StringRef target, StringRef key, StringRef name,
                          double dramGBs) {
  GpuSpec spec = makeDatacenterSpec();
  spec.target = target;
  spec.key = key;
  spec.name = name;
  spec.computeMajor = 9;
  spec.smCount = 132;        // [H100-WP]
  spec.fp32LanesPerSm = 128; // [H100-WP]; 8 LD/ST units per partition.
  // 67 TFLOP/s FP32 [H100-DS] = 2 x 128 lanes x 132 SMs x 1.98 GHz.
  spec.clockGHz = 1.98;
  spec.tf32Tflops = 494.7; // Dense TF32 (989 with sparsity) [H100-DS].
  // Assumption: A100's 5120 bytes per clock at H100's clock.
  spec.l2GBs = 5120 * 1.98;
  spec.dramGBs = dramGBs;
  spec.dramLatencyNs = 500;              // Assumption.
  spec.l2LatencyNs = 200;                // Assumption.
  spec.sharedPerSm = 228 * 1024;         // [CUDA-PG]
  spec.sharedPerBlockOptin = 227 * 1024; // [CUDA-PG]
  return spec;
}

static GpuSpec makeRtxA6000() {
  GpuSpec spec = makeDatacenterSpec();
  spec.target = "a6000";
  spec.key = "a6000";
  spec.name = "RTX A6000";
  spec.computeMajor = 8;
  spec.computeMinor = 6;
  spec.smCount = 84;             // [GA102-WP], [A6000-DS]: 10752 CUDA cores.
  spec.fp32LanesPerSm = 128;     // [GA102-WP]
  spec.loadStoreUnitsPerSm = 16; // 4 per SM partition [GA102-WP].
  // 38.7 TFLOP/s FP32 [A6000-DS] = 2 x 128 lanes x 84 SMs x 1.80 GHz.
  spec.clockGHz = 1.80;
  spec.tf32Tflops = 77.4; // Dense TF32, half of dense FP16 [GA102-WP].
  // Assumption: half of A100's L2 bytes per clock (GA102 has 6 MB of L2
  // against GA100's 40 MB).
  spec.l2GBs = 2560 * 1.80;
  spec.dramGBs = 768;                   // GDDR6 [A6000-DS].
  spec.dramLatencyNs = 500;             // Assumption.
  spec.l2LatencyNs = 200;               // Assumption.
  spec.maxThreadsPerSm = 1536;          // [CUDA-PG], 8.6.
  spec.maxBlocksPerSm = 16;             // [CUDA-PG], 8.6.
  spec.sharedPerSm = 100 * 1024;        // [CUDA-PG], 8.6.
  spec.sharedPerBlockOptin = 99 * 1024; // [CUDA-PG], 8.6.
  return spec;
}

ArrayRef<GpuSpec> cuda::getGpuTargets() {
  static const GpuSpec targets[] = {
      // 3350 GB/s HBM3 [H100-DS].
      makeHopper("h100-sxm", "h100", "H100-SXM5-80GB", 3350),
      // 4800 GB/s HBM3e [H200-DS]; the same GH100 compute as the H100 SXM.
      makeHopper("h200", "h200", "H200-SXM-141GB", 4800),
      // 1555 GB/s HBM2 [A100-DS].
      makeA100("a100", "a100", "A100-SXM4-40GB", 1555),
      // 2039 GB/s HBM2e [A100-DS].
      makeA100("a100-80gb", "a100-80gb", "A100-SXM4-80GB", 2039),
      makeRtxA6000(),
  };
  return targets;
}

const GpuSpec *cuda::lookupGpuTarget(StringRef target) {
  for (const GpuSpec &gpu : getGpuTargets())
    if (gpu.target == target)
      return &gpu;
  return nullptr;
}

std::string cuda::getGpuTargetNames() {
  std::string names;
  for (const GpuSpec &gpu : getGpuTargets())
    names += (names.empty() ? "" : ", ") + gpu.target.str();
  return names;
}

const GpuSpec &cuda::getDefaultGpuTarget() { return getGpuTargets().front(); }

int cuda::getBlocksPerSm(const GpuSpec &gpu, int threadsPerBlock,
                         int registersPerThread, int64_t sharedBytesPerBlock) {
  if (threadsPerBlock <= 0 || threadsPerBlock > 1024 ||
      sharedBytesPerBlock > gpu.sharedPerBlockOptin)
    return 0;
#ifdef ENS_HAVE_NVRTC
  cudaOccDeviceProp device;
  device.computeMajor = gpu.computeMajor;
  device.computeMinor = gpu.computeMinor;
  device.numSms = gpu.smCount;
  device.maxThreadsPerBlock = 1024;
  device.maxThreadsPerMultiprocessor = gpu.maxThreadsPerSm;
  device.regsPerBlock = gpu.regsPerSm;
  device.regsPerMultiprocessor = gpu.regsPerSm;
  device.warpSize = 32;
  device.sharedMemPerBlock = 48 * 1024;
  device.sharedMemPerMultiprocessor = gpu.sharedPerSm;
  device.sharedMemPerBlockOptin = gpu.sharedPerBlockOptin;
  device.reservedSharedMemPerBlock = gpu.reservedSharedPerBlock;
  cudaOccFuncAttributes attributes;
  attributes.maxThreadsPerBlock = 1024;
  attributes.numRegs = registersPerThread;
  attributes.maxDynamicSharedSizeBytes = sharedBytesPerBlock;
  attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  cudaOccDeviceState state;
  cudaOccResult result;
  if (cudaOccMaxActiveBlocksPerMultiprocessor(
          &result, &device, &attributes, &state, threadsPerBlock,
          sharedBytesPerBlock) != CUDA_OCC_SUCCESS)
    return 0;
  return result.activeBlocksPerMultiprocessor;
#else
  int64_t warps = (threadsPerBlock + 31) / 32;
  int64_t limit =
      std::min<int64_t>(gpu.maxBlocksPerSm, gpu.maxThreadsPerSm / (warps * 32));
  if (registersPerThread > 0)
    limit = std::min<int64_t>(limit, gpu.regsPerSm /
                                         (warps * 32 * registersPerThread));
  int64_t shared = sharedBytesPerBlock + gpu.reservedSharedPerBlock;
  limit = std::min<int64_t>(limit, gpu.sharedPerSm / shared);
  return static_cast<int>(limit);
#endif
}

Estimate cuda::estimateKernel(const KernelDescription &kernel,
                              const GpuSpec &gpu) {
  Estimate estimate;
  double clock = gpu.clockGHz * 1e9;
  double sms = gpu.smCount;
  double blocks = std::max<int64_t>(kernel.gridBlocks, 1);
  estimate.blocksPerSm =
      getBlocksPerSm(gpu, kernel.threadsPerBlock, kernel.registersPerThread,
                     kernel.sharedBytesPerBlock);
  // A launch that cannot be resident is estimated as if one block were.
  double resident = std::max(estimate.blocksPerSm, 1);
  // The busiest SM runs `perSm` blocks, `resident` at a time: the work of a
  // partial last wave is charged as a full one.
  double perSm = std::ceil(blocks / sms);
  estimate.waves = std::ceil(perSm / resident);
  double share = perSm / blocks; // Of each total, the busiest SM's part.

  // Arithmetic: an FMA does two FLOPs per lane and issue, FADD/FMUL one;
  // the tensor cores' FLOPs take their own pipe, at the TF32 peak.
  // A warp issues from one scheduler of its SM: with fewer warps resident
  // than schedulers, the others idle, and arithmetic and issue take longer
  // by as much (a block of one warp alone on its SM uses a quarter of it).
  double warps = std::min(resident, perSm) *
                 std::ceil(std::max(kernel.threadsPerBlock, 1) / 32.0);
  double idle = std::max(1.0, gpu.issuePerClockPerSm / warps);
  double tensorFlops = kernel.tensorFlops * kernel.tensorPasses;
  // Counted instructions are those of the warps that issue them, whatever
  // share of their lanes works; FLOPs alone are spread over all lanes.
  double fp32Instructions =
      kernel.fp32WarpInstructions > 0
          ? kernel.fp32WarpInstructions
          : (kernel.flops - kernel.tensorFlops) *
                (kernel.fmaShare / 2 + (1 - kernel.fmaShare)) / 32;
  double seconds =
      fp32Instructions * share * (32.0 / gpu.fp32LanesPerSm) / clock +
      tensorFlops * share / (gpu.tf32Tflops * 1e12 / sms);
  estimate.computeUs = seconds * idle * 1e6;
  double instructions =
      kernel.warpInstructions > 0 ? kernel.warpInstructions : fp32Instructions;
  estimate.issueUs =
      instructions * share * idle / (gpu.issuePerClockPerSm * clock) * 1e6;
  estimate.lsuUs = kernel.memoryInstructions * share *
                   (32.0 / gpu.loadStoreUnitsPerSm) / clock * 1e6;
  estimate.sharedUs =
      kernel.sharedBytes * share / (gpu.sharedBytesPerClockPerSm * clock) * 1e6;
  // L2 and DRAM bandwidth are shared evenly by the SMs.
  double l2Bytes = std::max(kernel.l2Bytes, kernel.dramBytes);
  estimate.l2Us = l2Bytes * share / (gpu.l2GBs * 1e9 / sms) * 1e6;
  estimate.dramUs = kernel.dramBytes * share / (gpu.dramGBs * 1e9 / sms) * 1e6;
  // Little's law: the resident threads keep so many bytes in flight per DRAM
  // latency; and each wave waits for its chain of dependent loads.
  double latency = gpu.dramLatencyNs * 1e-9;
  double inFlight = std::min(resident, perSm) * kernel.threadsPerBlock *
                    kernel.bytesInFlightPerThread;
  double hidden =
      inFlight > 0 ? kernel.dramBytes * share * latency / inFlight : 0;
  double l2Loads = std::min(kernel.l2DependentLoadsPerThread,
                            kernel.dependentLoadsPerThread);
  double chain =
      estimate.waves * ((kernel.dependentLoadsPerThread - l2Loads) * latency +
                        l2Loads * gpu.l2LatencyNs * 1e-9);
  estimate.latencyUs = std::max(hidden, chain) * 1e6;

  // The slowest term binds; every term scales with the launches.
  struct Term {
    double *us;
    StringRef name;
  } terms[] = {{&estimate.computeUs, "compute"}, {&estimate.issueUs, "issue"},
               {&estimate.lsuUs, "lsu"},         {&estimate.sharedUs, "shared"},
               {&estimate.l2Us, "l2"},           {&estimate.dramUs, "dram"},
               {&estimate.latencyUs, "latency"}};
  const Term *binding = &terms[0];
  for (const Term &term : terms)
    if (*term.us > *binding->us)
      binding = &term;
  estimate.bound = *binding->us > 0 ? binding->name : "launch";
  double launches = std::max<int64_t>(kernel.launches, 0);
  for (Term &term : terms)
    *term.us *= launches;
  estimate.launchUs = gpu.launchUs * launches;
  estimate.us = *binding->us + estimate.launchUs;

  double peakSeconds = (kernel.flops - kernel.tensorFlops) / gpu.getPeakFp32() +
                       tensorFlops / (gpu.tf32Tflops * 1e12);
  estimate.rooflineUs =
      launches * 1e6 *
      std::max(peakSeconds, kernel.dramBytes / (gpu.dramGBs * 1e9));
  return estimate;
}

/// Estimates a launch whose blocks share its work evenly.
static Estimate estimateEvenLaunch(const KernelInfo &kernel,
                                   const KernelLaunch &launch, int registers,
                                   const GpuSpec &gpu, bool useCounts) {
  KernelDescription description;
  description.flops = kernel.flops;
  // The FMAs are among the FLOPs that do not run on tensor cores.
  int64_t fp32Flops = kernel.flops - kernel.tensorFlops;
  description.fmaShare = fp32Flops ? double(kernel.fmaFlops) / fp32Flops : 0;
  description.tensorFlops = kernel.tensorFlops;
  description.tensorPasses = kernel.tensorPasses;
  description.dramBytes = kernel.bytesRead + kernel.bytesWritten;
  description.dependentLoadsPerThread = kernel.dependentLoadsPerThread;
  // What the plan's phases count (PhaseCounts.cpp), where counted.
  if (useCounts && kernel.warpInstructions > 0) {
    description.dependentLoadsPerThread = kernel.countedDependentLoadsPerThread;
    description.l2DependentLoadsPerThread = kernel.l2DependentLoadsPerThread;
    description.warpInstructions = kernel.warpInstructions;
    description.fp32WarpInstructions = kernel.fp32WarpInstructions;
    description.memoryInstructions = kernel.memoryInstructions;
    description.sharedBytes = kernel.wavefrontBytes;
    description.l2Bytes = kernel.l2Bytes;
  }
  description.bytesInFlightPerThread = kernel.bytesInFlightPerThread;
  description.gridBlocks =
      int64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  description.threadsPerBlock =
      launch.block[0] * launch.block[1] * launch.block[2];
  description.registersPerThread = registers > 0 ? registers : 32;
  description.sharedBytesPerBlock = launch.sharedBytes;
  return estimateKernel(description, gpu);
}

Estimate cuda::estimateLaunch(const KernelInfo &kernel,
                              const KernelLaunch &launch, int registers,
                              const GpuSpec &gpu,
                              ArrayRef<KernelSection> sections,
                              bool useCounts) {
  Estimate whole =
      estimateEvenLaunch(kernel, launch, registers, gpu, useCounts);
  if (sections.empty())
    return whole;
  // Throughput adds up over the sections: the whole's throughput terms are
  // those of its work spread evenly over the SMs, a block each, with no
  // partial wave since its blocks differ. Its latency term does not add up
  // (Little's law over a mix of threads with different loads in flight):
  // each section's time alone, without the launch, stands in for it.
  // Together the sections take at least the slowest one's, and at least the
  // sum of the block slots times time that each holds: a section of fewer
  // blocks than the GPU holds at once leaves the other slots to the others,
  // which are taken to fill them perfectly.
  KernelLaunch spread = launch;
  spread.grid = {static_cast<unsigned>(gpu.smCount), 1, 1};
  Estimate throughput =
      estimateEvenLaunch(kernel, spread, registers, gpu, useCounts);
  Estimate result = whole;
  double us = 0;
  StringRef bound = "launch";
  auto raise = [&](double term, StringRef name) {
    if (term > us) {
      us = term;
      bound = name;
    }
  };
  raise(throughput.computeUs, "compute");
  raise(throughput.issueUs, "issue");
  raise(throughput.lsuUs, "lsu");
  raise(throughput.sharedUs, "shared");
  raise(throughput.l2Us, "l2");
  raise(throughput.dramUs, "dram");
  double slots = 0, latency = 0;
  StringRef slowestBound;
  double slowest = 0;
  for (const KernelSection &section : sections) {
    KernelLaunch alone = launch;
    alone.grid = {static_cast<unsigned>(section.blocks), 1, 1};
    Estimate part =
        estimateEvenLaunch(section.info, alone, registers, gpu, useCounts);
    double time = part.us - part.launchUs;
    latency = std::max(latency, part.latencyUs);
    double capacity = double(gpu.smCount) * std::max(part.blocksPerSm, 1);
    slots += std::min(1.0, section.blocks / capacity) * time;
    if (time > slowest) {
      slowest = time;
      slowestBound = part.bound;
    }
  }
  raise(std::max(slowest, slots), slowestBound);
  result.us = us + whole.launchUs;
  result.bound = bound;
  // The terms as charged: the throughput of all the work spread evenly,
  // and the latency of the section that waits longest (the sections'
  // packing, which may bind instead, is not a term of its own: `bound`
  // then names the slowest section's).
  result.computeUs = throughput.computeUs;
  result.issueUs = throughput.issueUs;
  result.lsuUs = throughput.lsuUs;
  result.sharedUs = throughput.sharedUs;
  result.l2Us = throughput.l2Us;
  result.dramUs = throughput.dramUs;
  result.latencyUs = latency;
  return result;
}

/// The output tile a vendor GEMM's block computes (assumption: cuBLAS picks
/// among tiles from 32x32 to 256x128 by shape; 64x64 stands for those of
/// the small batched products of ensembles).
static constexpr int64_t kGemmTile = 64;
/// The share of an SM's FP32 peak that a vendor GEMM's block reaches:
/// cuBLAS's SGEMM at 23.2 of 38.7 TFLOP/s on an RTX A6000 (the
/// measurements of "Validation: SGEMM on an RTX A6000" in docs/cuda.md).
static constexpr double kGemmEfficiency = 0.6;
/// What a cuBLAS call costs on the host beyond its kernel's launch
/// (assumption: its heuristic and argument checks, the order of a launch).
static constexpr double kGemmCallUs = 2.0;
/// The fewest reduction steps of a slice of a split-K GEMM (assumption:
/// cuBLAS splits K where the tiles are fewer than the SMs, as ens's own
/// split contractions do).
static constexpr int64_t kGemmMinSliceSteps = 256;

std::pair<int64_t, int64_t> cuda::getGemmTraffic(const GemmStep &gemm) {
  auto bytes = [&](const GemmOperand &x, int64_t elements) {
    return 4 * elements * (x.stride ? gemm.batch : 1);
  };
  int64_t c = bytes(gemm.c, gemm.m * gemm.n);
  return {bytes(gemm.a, gemm.m * gemm.k) + bytes(gemm.b, gemm.k * gemm.n) +
              (gemm.beta == 0 ? 0 : c),
          c};
}

Estimate cuda::estimateGemm(const GemmStep &gemm, const GpuSpec &gpu) {
  Estimate estimate;
  double batch = gemm.batch;
  double tiles = batch * llvm::divideCeil(gemm.m, kGemmTile) *
                 llvm::divideCeil(gemm.n, kGemmTile);
  // Tiles fewer than the SMs split their steps into slices, each a block.
  double slices = 1;
  if (tiles > 0 && tiles < gpu.smCount)
    slices = std::clamp(std::floor(gpu.smCount / tiles), 1.0,
                        std::max(1.0, double(gemm.k / kGemmMinSliceSteps)));
  estimate.waves = std::ceil(tiles * slices / gpu.smCount);
  // A matrix smaller than a tile is charged for its own points (cuBLAS
  // has kernels for skinny products).
  double tileFlops = 2.0 * std::min(gemm.m, kGemmTile) *
                     std::min(gemm.n, kGemmTile) * std::ceil(gemm.k / slices);
  double smFlops = kGemmEfficiency * gpu.getPeakFp32() / gpu.smCount;
  estimate.computeUs = estimate.waves * tileFlops / smFlops * 1e6;
  auto [read, written] = getGemmTraffic(gemm);
  double dramBytes = double(read) + double(written);
  estimate.dramUs = dramBytes / (gpu.dramGBs * 1e9) * 1e6;
  estimate.launchUs = gpu.launchUs + kGemmCallUs;
  bool compute = estimate.computeUs >= estimate.dramUs;
  estimate.bound = compute ? "compute" : "dram";
  estimate.us =
      estimate.launchUs + std::max(estimate.computeUs, estimate.dramUs);
  double flops = 2.0 * batch * gemm.m * gemm.n * gemm.k;
  estimate.rooflineUs = 1e6 * std::max(flops / gpu.getPeakFp32(),
                                       dramBytes / (gpu.dramGBs * 1e9));
  return estimate;
}
