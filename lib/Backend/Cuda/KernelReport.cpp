//===- KernelReport.cpp - What each kernel of a function costs ------------===//
//
// The kernel report of a compiled function: per kernel its launch, FLOPs
// and global-memory traffic (from the launch plan), and, when NVRTC
// compiled it, registers and spills (from ptxas's log) and the occupancy
// that the toolkit's header-only occupancy calculator computes on the host
// for a reference device of the architecture. Totals compare the traffic
// with its minimum: every argument read once and every result written once.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/KernelReport.h"
#include "ens/Backend/Cuda/PerfModel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {
/// What ptxas reports about one kernel.
struct Resources {
  int registers = 0;
  int64_t spillBytes = 0;
};
} // namespace

/// The resources of each kernel in the log of `ptxas -v`, whose lines for a
/// kernel follow "Compiling entry function 'NAME'".
static llvm::StringMap<Resources> parsePtxasLog(StringRef log) {
  llvm::StringMap<Resources> resources;
  Resources *current = nullptr;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    if (size_t at = line.find("Compiling entry function '");
        at != StringRef::npos) {
      StringRef name = line.drop_front(at + 26).split('\'').first;
      current = &resources[name];
      continue;
    }
    if (!current)
      continue;
    if (size_t at = line.find("Used "); at != StringRef::npos)
      line.drop_front(at + 5).split(' ').first.getAsInteger(10,
                                                            current->registers);
    for (StringRef kind : {" bytes spill stores", " bytes spill loads"}) {
      size_t at = line.find(kind);
      if (at == StringRef::npos)
        continue;
      StringRef number = line.take_front(at).rsplit(' ').second;
      int64_t bytes = 0;
      if (!number.getAsInteger(10, bytes))
        current->spillBytes += bytes;
    }
  }
  return resources;
}

/// Blocks of `launch` resident on one SM of a reference device of `arch`
/// (A100 for sm_80, H100 for sm_90), or 0 if unknown.
static int getBlocksPerSm(StringRef arch, const KernelLaunch &launch,
                          int registers) {
  const GpuSpec *gpu = arch == "sm_80"   ? lookupGpuTarget("a100")
                       : arch == "sm_90" ? lookupGpuTarget("h100-sxm")
                                         : nullptr;
  if (!gpu)
    return 0;
  return cuda::getBlocksPerSm(
      *gpu, launch.block[0] * launch.block[1] * launch.block[2], registers,
      launch.sharedBytes);
}

/// The performance model's estimates of one step of the plan on an H100
/// and an A100 (docs/cuda.md, "Performance model"), as `estimate` gives
/// them for each GPU, added to `totals`.
static nlohmann::ordered_json
estimateStep(llvm::function_ref<Estimate(const GpuSpec &)> estimate,
             nlohmann::ordered_json &totals);

/// The same for one launch. The registers are ptxas's for sm_90, for both
/// GPUs, or 0 if unknown.
static nlohmann::ordered_json estimateLaunch(const KernelInfo &kernel,
                                             const KernelLaunch &launch,
                                             ArrayRef<KernelSection> sections,
                                             int registers,
                                             nlohmann::ordered_json &totals) {
  return estimateStep(
      [&](const GpuSpec &gpu) {
        return cuda::estimateLaunch(kernel, launch, registers, gpu, sections);
      },
      totals);
}

static nlohmann::ordered_json
estimateStep(llvm::function_ref<Estimate(const GpuSpec &)> estimateOn,
             nlohmann::ordered_json &totals) {
  nlohmann::ordered_json estimates;
  for (const GpuSpec *gpu :
       {lookupGpuTarget("h100-sxm"), lookupGpuTarget("a100")}) {
    Estimate estimate = estimateOn(*gpu);
    // Each term of the model in microseconds for all launches; the
    // estimate is the largest (the bound) plus the launch cost.
    nlohmann::ordered_json terms = {
        {"compute", estimate.computeUs}, {"issue", estimate.issueUs},
        {"lsu", estimate.lsuUs},         {"shared", estimate.sharedUs},
        {"l2", estimate.l2Us},           {"dram", estimate.dramUs},
        {"latency", estimate.latencyUs}, {"launch", estimate.launchUs}};
    estimates[gpu->key.str()] = {{"us", estimate.us},
                                 {"roofline_us", estimate.rooflineUs},
                                 {"bound", estimate.bound.str()},
                                 {"terms", std::move(terms)}};
    nlohmann::ordered_json &total = totals[gpu->key.str()];
    if (total.is_null())
      total = {{"us", 0.0}, {"roofline_us", 0.0}};
    total["us"] = total["us"].get<double>() + estimate.us;
    total["roofline_us"] =
        total["roofline_us"].get<double>() + estimate.rooflineUs;
  }
  return estimates;
}

/// What the performance model counts of `kernel` (PhaseCounts.cpp): its
/// totals over a launch and, per thread, one iteration of each phase's
/// hot loop, which test/Backend/Cuda/model-vs-sass.test compares with
/// `ens-sass --json` on the CUBIN.
static nlohmann::ordered_json describeCounts(const KernelInfo &kernel) {
  nlohmann::ordered_json loops = nlohmann::ordered_json::array();
  for (const KernelInfo::HotLoop &loop : kernel.hotLoops)
    loops.push_back({{"loads", loop.loads},
                     {"stores", loop.stores},
                     {"ffma", loop.ffma},
                     {"instructions", loop.instructions},
                     {"load_rounds", loop.loadRounds},
                     {"iterations", loop.iterations}});
  return {{"warp_instructions", kernel.warpInstructions},
          {"fp32_warp_instructions", kernel.fp32WarpInstructions},
          {"memory_instructions", kernel.memoryInstructions},
          {"wavefront_bytes", kernel.wavefrontBytes},
          {"l2_bytes", kernel.l2Bytes},
          {"dependent_loads_per_thread", kernel.countedDependentLoadsPerThread},
          {"l2_dependent_loads_per_thread", kernel.l2DependentLoadsPerThread},
          {"barriers_per_block", kernel.barriersPerBlock},
          {"active_lane_share", kernel.activeLaneShare},
          {"hot_loops", std::move(loops)}};
}

/// The report as data; both formats print it.
static nlohmann::ordered_json buildReport(const CudaProgram &program,
                                          const CompiledCuda *compiled) {
  const LaunchPlan &plan = program.plan;
  llvm::StringMap<Resources> resources;
  if (compiled)
    resources = parsePtxasLog(compiled->log);
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  int64_t flops = 0, read = 0, written = 0, peakShared = 0;
  nlohmann::ordered_json estimates = nlohmann::ordered_json::object();
  for (const KernelLaunch &launch : plan.launches) {
    const KernelInfo &kernel = plan.kernels[launch.kernel];
    nlohmann::ordered_json entry = {{"name", kernel.name},
                                    {"ops", kernel.sourceOps},
                                    {"grid", launch.grid},
                                    {"block", launch.block},
                                    {"shared_bytes", launch.sharedBytes},
                                    {"flops", kernel.flops},
                                    {"bytes_read", kernel.bytesRead},
                                    {"bytes_written", kernel.bytesWritten}};
    // Of its FLOPs, those on tensor cores (--gpu-precision), if any.
    if (kernel.tensorFlops) {
      entry["tensor_flops"] = kernel.tensorFlops;
      entry["tensor_passes"] = kernel.tensorPasses;
    }
    Resources used = resources.lookup(kernel.name);
    if (compiled) {
      entry["registers"] = used.registers;
      entry["spill_bytes"] = used.spillBytes;
      entry["blocks_per_sm"] =
          getBlocksPerSm(compiled->arch, launch, used.registers);
    }
    entry["estimate"] =
        estimateLaunch(kernel, launch, program.getSections(launch.kernel),
                       used.registers, estimates);
    if (kernel.warpInstructions > 0)
      entry["model"] = describeCounts(kernel);
    kernels.push_back(std::move(entry));
    flops += kernel.flops;
    read += kernel.bytesRead;
    written += kernel.bytesWritten;
    peakShared = std::max<int64_t>(peakShared, launch.sharedBytes);
  }
  // Vendor GEMM steps, with the model's estimates of cuBLAS.
  nlohmann::ordered_json gemms = nlohmann::ordered_json::array();
  for (const GemmStep &gemm : plan.gemms) {
    int64_t gemmFlops = 2 * gemm.m * gemm.n * gemm.k * gemm.batch;
    gemms.push_back({{"gemm", ::ens::runtime::printGemmStep(gemm)},
                     {"ops", gemm.sourceOps},
                     {"flops", gemmFlops},
                     {"estimate", estimateStep(
                                      [&](const GpuSpec &gpu) {
                                        return estimateGemm(gemm, gpu);
                                      },
                                      estimates)}});
    flops += gemmFlops;
    auto [gemmRead, gemmWritten] = getGemmTraffic(gemm);
    read += gemmRead;
    written += gemmWritten;
  }
  int64_t minimum = 0;
  for (const BufferInfo &buffer : plan.buffers)
    if (buffer.kind == BufferKind::Input || buffer.kind == BufferKind::Output)
      minimum += buffer.bytes;
  nlohmann::ordered_json report = {
      {"kernels", kernels.size()},
      {"arch", compiled ? compiled->arch : std::string()},
      {"flops", flops},
      {"bytes_read", read},
      {"bytes_written", written},
      {"min_bytes", minimum},
      {"traffic_ratio",
       minimum ? static_cast<double>(read + written) / minimum : 0.0},
      {"peak_shared_bytes", peakShared},
      {"arena_bytes", plan.arenaBytes},
      {"peak_device_bytes", plan.getPeakDeviceBytes()},
      {"estimate", std::move(estimates)},
      {"launches", std::move(kernels)}};
  // Only a plan with steps has the key, so that other reports stay as
  // they were.
  if (!gemms.empty())
    report["gemms"] = std::move(gemms);
  return report;
}

std::string cuda::formatKernelReportJson(const CudaProgram &program,
                                         const CompiledCuda *compiled) {
  return buildReport(program, compiled).dump(2) + "\n";
}

std::string cuda::formatKernelReport(const CudaProgram &program,
                                     const CompiledCuda *compiled) {
  nlohmann::ordered_json report = buildReport(program, compiled);
  std::string text;
  llvm::raw_string_ostream os(text);
  auto dims = [](const nlohmann::ordered_json &value) {
    return std::to_string(value[0].get<unsigned>()) + "x" +
           std::to_string(value[1].get<unsigned>()) + "x" +
           std::to_string(value[2].get<unsigned>());
  };
  os << "kernel         grid         block        shared B          FLOPs"
        "       read B    written B";
  if (compiled)
    os << "  regs spill B blocks/SM";
  os << "  ops\n";
  for (const nlohmann::ordered_json &kernel : report["launches"]) {
    os << llvm::format(
        "%-14s %-12s %-10s %10u %14lld %12lld %12lld",
        kernel["name"].get<std::string>().c_str(), dims(kernel["grid"]).c_str(),
        dims(kernel["block"]).c_str(), kernel["shared_bytes"].get<unsigned>(),
        kernel["flops"].get<long long>(), kernel["bytes_read"].get<long long>(),
        kernel["bytes_written"].get<long long>());
    if (compiled)
      os << llvm::format(" %5d %7lld %9d", kernel["registers"].get<int>(),
                         kernel["spill_bytes"].get<long long>(),
                         kernel["blocks_per_sm"].get<int>());
    os << "  " << kernel["ops"].get<std::string>() << "\n";
  }
  if (report.contains("gemms"))
    for (const nlohmann::ordered_json &gemm : report["gemms"])
      os << "gemm " << gemm["gemm"].get<std::string>() << "  "
         << gemm["ops"].get<std::string>() << "\n";
  int64_t traffic = report["bytes_read"].get<int64_t>() +
                    report["bytes_written"].get<int64_t>();
  os << report["kernels"].get<size_t>() << " kernels, "
     << report["flops"].get<int64_t>() << " FLOPs, " << traffic
     << " bytes of global memory traffic (minimum "
     << report["min_bytes"].get<int64_t>() << ": "
     << llvm::format("%.2f", report["traffic_ratio"].get<double>())
     << "x), peak shared memory " << report["peak_shared_bytes"].get<int64_t>()
     << " bytes per block, peak device memory "
     << report["peak_device_bytes"].get<int64_t>() << " bytes (arena "
     << report["arena_bytes"].get<int64_t>() << ")";
  if (compiled)
    os << ", registers and occupancy for " << compiled->arch;
  os << "\n";
  return text;
}
