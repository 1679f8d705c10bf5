//===- KernelConfig.cpp - The GPU decisions behind a kernel ---------------===//
//
// Names of strategies and the text form of kernel configs that
// `ens-run --cuda-plan` prints. The form is stable: tests check it, and
// docs/cuda.md ("The launch plan") describes it line by line.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Backend/Cuda/LaunchPlan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// Every strategy, in the order of their names in messages.
static constexpr Strategy kStrategies[] = {
    Strategy::MemberPerBlock, Strategy::Tiled, Strategy::MembersPerBlock};

StringRef cuda::stringifyStrategy(Strategy strategy) {
  switch (strategy) {
  case Strategy::MemberPerBlock:
    return "member-per-block";
  case Strategy::Tiled:
    return "tiled";
  case Strategy::MembersPerBlock:
    return "members-per-block";
  }
  llvm_unreachable("unknown strategy");
}

ArrayRef<Strategy> cuda::getAllStrategies() { return kStrategies; }

std::optional<StrategyChoice> cuda::parseStrategyChoice(StringRef name) {
  if (name.empty() || name == "auto")
    return std::optional<StrategyChoice>(std::in_place);
  for (Strategy strategy : kStrategies)
    if (stringifyStrategy(strategy) == name)
      return StrategyChoice(strategy);
  return std::nullopt;
}

std::string cuda::getStrategyNames() {
  std::string names = "auto";
  for (Strategy strategy : kStrategies)
    names += ", " + stringifyStrategy(strategy).str();
  return names;
}

std::optional<GemmChoice> cuda::parseGemmChoice(StringRef name) {
  if (name.empty() || name == "auto")
    return GemmChoice::Auto;
  if (name == "generated")
    return GemmChoice::Generated;
  if (name == "cublas")
    return GemmChoice::Cublas;
  return std::nullopt;
}

std::string cuda::getGemmChoiceNames() { return "auto, generated, cublas"; }

StringRef cuda::stringifyGemmChoice(GemmChoice gemm) {
  switch (gemm) {
  case GemmChoice::Auto:
    return "auto";
  case GemmChoice::Generated:
    return "generated";
  case GemmChoice::Cublas:
    return "cublas";
  }
  llvm_unreachable("unknown GEMM choice");
}

StringRef cuda::stringifyPrecision(Precision precision) {
  switch (precision) {
  case Precision::F32:
    return "f32";
  case Precision::Tf32:
    return "tf32";
  case Precision::Tf32x3:
    return "3xtf32";
  }
  llvm_unreachable("unknown precision");
}

/// Every precision, in the order of their names in messages.
static constexpr Precision kPrecisions[] = {Precision::F32, Precision::Tf32,
                                            Precision::Tf32x3};

std::optional<Precision> cuda::parsePrecision(StringRef name) {
  if (name.empty())
    return Precision::F32;
  for (Precision precision : kPrecisions)
    if (stringifyPrecision(precision) == name)
      return precision;
  return std::nullopt;
}

std::string cuda::getPrecisionNames() {
  std::string names;
  for (Precision precision : kPrecisions)
    names += (names.empty() ? "" : ", ") + stringifyPrecision(precision).str();
  return names;
}

llvm::Expected<CodegenOptions> cuda::parseCodegenOptions(StringRef strategy,
                                                         StringRef gemm,
                                                         StringRef precision,
                                                         bool nameFlags) {
  auto unknown = [&](StringRef what, StringRef name, StringRef flag,
                     const std::string &known) {
    return llvm::createStringError(
        "unknown " + what + " '" + name + "'" +
        (nameFlags ? " for --" + flag.str() : std::string()) +
        " (known: " + known + ")");
  };
  CodegenOptions options;
  std::optional<StrategyChoice> strategyChoice = parseStrategyChoice(strategy);
  if (!strategyChoice)
    return unknown("CUDA strategy", strategy, "cuda-strategy",
                   getStrategyNames());
  options.strategy = *strategyChoice;
  std::optional<GemmChoice> gemmChoice = parseGemmChoice(gemm);
  if (!gemmChoice)
    return unknown("CUDA GEMM choice", gemm, "cuda-gemm", getGemmChoiceNames());
  options.gemm = *gemmChoice;
  std::optional<Precision> precisionChoice = parsePrecision(precision);
  if (!precisionChoice)
    return unknown("GPU precision", precision, "gpu-precision",
                   getPrecisionNames());
  options.precision = *precisionChoice;
  return options;
}

std::pair<int64_t, int64_t> cuda::getMmaBlockTile(const MmaConfig &mma,
                                                  unsigned threads) {
  int64_t warps = threads / 32;
  int64_t warpRows = warps >= 4 ? 2 : 1;
  return {warpRows * mma.warpRows, warps / warpRows * mma.warpCols};
}

/// Padding of the staged rows, in floats, so that the fragment loads of a
/// warp hit 32 different banks: a's (g, t) at g * (steps + 4) + t, or by
/// steps at t * (rows + 8) + g, and b's (t, g) at t * (columns + 8) + g,
/// or by columns at g * (steps + 4) + t, with steps, rows and columns
/// multiples of 32. In FFMA, rows of 4 more floats
/// keep each thread's 4 points 16-byte aligned (LDS.128) and spread a
/// copy's lanes that walk the steps over 8 banks.
static constexpr int64_t kPadA = 4, kPadB = 8, kPadFfma = 4;

MmaStaging cuda::getMmaStaging(const MmaConfig &mma, unsigned threads) {
  auto [rows, cols] = getMmaBlockTile(mma, threads);
  MmaStaging staging;
  staging.aByRows = mma.stagesAByRows();
  staging.bByCols = mma.stagesBByColumns();
  int64_t pad = mma.enabled() ? kPadB : kPadFfma;
  if (staging.aByRows) {
    staging.strideA = mma.stepsStaged + kPadA;
    staging.offsetB = rows * staging.strideA;
  } else {
    staging.strideA = rows + pad;
    staging.offsetB = mma.stepsStaged * staging.strideA;
  }
  staging.strideB = staging.bByCols ? mma.stepsStaged + kPadA : cols + pad;
  staging.stageFloats =
      staging.offsetB +
      (staging.bByCols ? cols : mma.stepsStaged) * staging.strideB;
  staging.bytes =
      mma.stages * staging.stageFloats * static_cast<int64_t>(sizeof(float));
  return staging;
}

static StringRef getPhaseKindName(PhaseKind kind) {
  switch (kind) {
  case PhaseKind::Points:
    return "points";
  case PhaseKind::BlockReduction:
    return "block reduction";
  case PhaseKind::Serial:
    return "serial";
  case PhaseKind::VendorGemm:
    return "vendor gemm";
  }
  llvm_unreachable("unknown phase kind");
}

std::string cuda::printKernelConfigs(const CudaProgram &program) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const KernelConfig &config : program.configs) {
    bool tiled = config.strategy == Strategy::Tiled;
    // A tiled loop has a kernel per phase, which its phases name.
    if (tiled)
      os << "loop";
    else
      os << "kernel " << program.plan.kernels[config.kernel].name;
    // A kernel that runs several loops gives each a range of blocks.
    if (!tiled && !program.getSections(config.kernel).empty())
      os << " from block " << config.firstBlock;
    os << ": " << stringifyStrategy(config.strategy) << ", " << config.members
       << " members, " << config.threadsPerBlock << " threads, "
       << config.sharedBytes << " bytes of shared memory, " << config.indexBits
       << "-bit indices\n";
    if (config.strategy == Strategy::MembersPerBlock)
      os << "  per block: " << config.membersPerBlock
         << " members; per member: " << config.threadsPerMember << " threads, "
         << config.sharedBytesPerMember << " bytes of shared memory\n";
    if (!config.estimatesUs.empty()) {
      os << "  chosen by the " << program.targetName << " estimates:";
      for (auto [i, strategy, us] :
           llvm::enumerate(kStrategies, config.estimatesUs)) {
        os << (i ? ", " : " ") << stringifyStrategy(strategy);
        if (std::isinf(us))
          os << " cannot compile the loop";
        else
          os << " " << llvm::format("%.1f", us) << " us";
      }
      os << "\n";
    }
    for (auto [i, temporary] : llvm::enumerate(config.temporaries)) {
      os << "  temporary " << i << ": " << temporary.type << ", ";
      switch (temporary.space) {
      case MemorySpace::Shared:
        os << temporary.bytes << " bytes, shared at " << temporary.location;
        if (temporary.swizzled)
          os << ", rows swizzled";
        break;
      case MemorySpace::Global:
        os << temporary.bytes << " bytes, global buffer " << temporary.location;
        break;
      case MemorySpace::Registers:
        os << "registers";
        break;
      }
      os << "\n";
    }
    for (auto [i, phase] : llvm::enumerate(config.phases)) {
      os << "  phase " << i << ": ";
      if (phase.kind == PhaseKind::VendorGemm) {
        os << "gemm step " << phase.kernel << "; " << phase.sourceOps << "\n";
        continue;
      }
      if (tiled) {
        os << "kernel " << program.plan.kernels[phase.kernel].name;
        // A kernel that runs several phases gives each a range of blocks.
        if (!program.getSections(phase.kernel).empty())
          os << " from block " << phase.firstBlock;
        os << ", " << phase.blocksPerMember << " blocks";
        if (phase.threads != config.threadsPerBlock)
          os << " of " << phase.threads << " threads";
        os << " per member, ";
      }
      os << (phase.byWarps ? "warp reduction" : getPhaseKindName(phase.kind));
      if (phase.kind == PhaseKind::BlockReduction)
        os << " (" << phase.combiner << ")";
      if (phase.lanesAlongOutputs)
        os << ", lanes along the outputs";
      const MmaConfig &mma = phase.mma;
      if (mma.blockTiled()) {
        auto [rows, cols] = getMmaBlockTile(mma, phase.threads);
        os << " in " << rows << "x" << cols << " block tiles of d"
           << phase.tile.loops[0] << ", d" << phase.tile.loops[1] << ", "
           << mma.warpRows << "x" << mma.warpCols << " per warp ";
        if (mma.enabled())
          os << "on " << stringifyPrecision(mma.precision)
             << " tensor cores (mma.sync m16n8k8, "
             << (mma.aByStepsOnTensorCores ? "a staged by steps, " : "")
             << (mma.bByColumnsOnTensorCores ? "b staged by columns, " : "");
        else
          os << "in FFMA (" << mma.warpRows / kFfmaThreadRows << "x"
             << mma.warpCols / kFfmaThreadCols << " points per thread, ";
        os << mma.stepsStaged << " steps at a time in " << mma.stages
           << " cp.async stages";
        if (mma.copyWords != std::array<int64_t, 2>{1, 1})
          os << " of " << mma.copyWords[0] * 4 << "- and "
             << mma.copyWords[1] * 4 << "-byte copies";
        os << " through " << getMmaStaging(mma, phase.threads).bytes
           << " bytes of shared memory)";
      } else if (!phase.tile.empty()) {
        os << " in " << phase.tile.sizes[0] << "x" << phase.tile.sizes[1]
           << " tiles of d" << phase.tile.loops[0] << ", d"
           << phase.tile.loops[1];
        SmallVector<std::string> consecutive;
        for (auto [k, loop] : llvm::enumerate(phase.tile.loops))
          if (phase.tile.isConsecutive(k))
            consecutive.push_back("d" + std::to_string(loop));
        if (!consecutive.empty())
          os << ", consecutive along " << llvm::join(consecutive, ", ");
        if (phase.tile.unroll != TileConfig().unroll)
          os << ", " << phase.tile.unroll << " steps at a time";
      }
      if (!mma.fallback.empty())
        os << " (FFMA: " << mma.fallback << ")";
      if (phase.chunks > 1 && tiled) {
        os << " in " << phase.chunks << " chunks through global buffer "
           << phase.partials;
        if (phase.finishLast)
          os << ", each tile finished by its last chunk (counters in global "
                "buffer "
             << phase.counters << ")";
      } else if (phase.chunks > 1)
        os << " in " << phase.chunks
           << " chunks of its steps within the block, partial tiles shared "
              "at "
           << phase.partials;
      if (phase.fusedEpilogue)
        os << " with fused epilogue";
      os << "; " << phase.sourceOps << "\n";
      for (const StagedOperand &staged : phase.staged)
        os << "    stage operand " << staged.operand << ": " << staged.bytes
           << " bytes, shared at " << staged.offset << "\n";
    }
  }
  // Every vendor GEMM step of the plan, with all its parameters: those of
  // loops over members and those of top-level contractions.
  for (auto [i, gemm] : llvm::enumerate(program.plan.gemms)) {
    os << "gemm step " << i << " after " << gemm.after
       << " launches: " << ::ens::runtime::printGemmStep(gemm) << "; "
       << gemm.sourceOps << "\n";
  }
  for (const GemmDecision &decision : program.gemmDecisions)
    os << "gemm choice: " << (decision.vendor ? "cublas" : "generated")
       << " by the " << program.targetName << " estimates: generated "
       << llvm::format("%.1f", decision.generatedUs) << " us, cublas "
       << llvm::format("%.1f", decision.gemmUs) << " us; " << decision.sourceOps
       << "\n";
  return text;
}
