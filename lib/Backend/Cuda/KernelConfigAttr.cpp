//===- KernelConfigAttr.cpp - Kernel configs on the IR --------------------===//
//
// Writes a KernelConfig as a dictionary of builtin attributes, which the IR
// prints and parses as it is, and reads back the decisions that emission
// honours from one.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/KernelConfigAttr.h"

#include "KernelBody.h"
#include "Planning.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

static StringRef getPhaseKindName(PhaseKind kind) {
  switch (kind) {
  case PhaseKind::Points:
    return "points";
  case PhaseKind::BlockReduction:
    return "block-reduction";
  case PhaseKind::Serial:
    return "serial";
  case PhaseKind::VendorGemm:
    return "vendor-gemm";
  }
  llvm_unreachable("unknown phase kind");
}

static StringRef getSpaceName(MemorySpace space) {
  switch (space) {
  case MemorySpace::Shared:
    return "shared";
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Registers:
    return "registers";
  }
  llvm_unreachable("unknown memory space");
}

/// A phase's decisions; the fields that hold their default (no tile, one
/// chunk, nothing staged, FP32) are left out.
static DictionaryAttr getPhaseAttr(Builder &b, const PhaseConfig &phase,
                                   Strategy strategy) {
  SmallVector<NamedAttribute> fields;
  auto add = [&](StringRef name, Attribute value) {
    fields.push_back(b.getNamedAttr(name, value));
  };
  add("kind", b.getStringAttr(getPhaseKindName(phase.kind)));
  add("ops", b.getStringAttr(phase.sourceOps));
  if (!phase.combiner.empty())
    add("combiner", b.getStringAttr(phase.combiner));
  if (phase.byWarps)
    add("by_warps", b.getUnitAttr());
  if (phase.lanesAlongOutputs)
    add("lanes_along_outputs", b.getUnitAttr());
  if (phase.fusedEpilogue)
    add("fused_epilogue", b.getUnitAttr());
  if (!phase.tile.empty()) {
    add("tile_loops", b.getDenseI64ArrayAttr(SmallVector<int64_t>(
                          phase.tile.loops.begin(), phase.tile.loops.end())));
    add("tile_sizes", b.getDenseI64ArrayAttr(phase.tile.sizes));
    if (phase.tile.unroll != TileConfig().unroll)
      add("tile_unroll", b.getI64IntegerAttr(phase.tile.unroll));
    if (llvm::is_contained(phase.tile.consecutive, true))
      add("tile_consecutive",
          b.getDenseBoolArrayAttr(SmallVector<bool>(
              phase.tile.consecutive.begin(), phase.tile.consecutive.end())));
  }
  if (phase.mma.blockTiled()) {
    add("precision", b.getStringAttr(stringifyPrecision(phase.mma.precision)));
    add("warp_tile",
        b.getDenseI64ArrayAttr({phase.mma.warpRows, phase.mma.warpCols}));
    add("steps_staged", b.getI64IntegerAttr(phase.mma.stepsStaged));
    add("stages", b.getI64IntegerAttr(phase.mma.stages));
    add("copy_words", b.getDenseI64ArrayAttr(phase.mma.copyWords));
    if (phase.mma.aByStepsOnTensorCores)
      add("a_by_steps", b.getUnitAttr());
    if (phase.mma.bByColumnsOnTensorCores)
      add("b_by_columns", b.getUnitAttr());
  }
  if (!phase.mma.fallback.empty())
    add("mma_fallback", b.getStringAttr(phase.mma.fallback));
  if (!phase.staged.empty()) {
    SmallVector<int64_t> staged;
    for (const StagedOperand &operand : phase.staged)
      staged.append({operand.operand, operand.bytes, operand.offset});
    add("staged", b.getDenseI64ArrayAttr(staged));
  }
  if (strategy == Strategy::Tiled) {
    add("threads", b.getI64IntegerAttr(phase.threads));
    add("blocks_per_member", b.getI64IntegerAttr(phase.blocksPerMember));
    add("launch", b.getI64IntegerAttr(phase.launch));
    add("first_block", b.getI64IntegerAttr(phase.firstBlock));
    if (phase.chunks > 1)
      add("chunks", b.getI64IntegerAttr(phase.chunks));
    if (phase.chunks > 1 && phase.finishLast)
      add("finish_last", b.getUnitAttr());
  } else if (phase.chunks > 1) {
    add("chunks", b.getI64IntegerAttr(phase.chunks));
    add("partials_offset", b.getI64IntegerAttr(phase.partials));
  }
  return b.getDictionaryAttr(fields);
}

DictionaryAttr cuda::getKernelConfigAttr(MLIRContext *context,
                                         const KernelConfig &config) {
  Builder b(context);
  SmallVector<NamedAttribute> fields;
  auto add = [&](StringRef name, Attribute value) {
    fields.push_back(b.getNamedAttr(name, value));
  };
  add("strategy", b.getStringAttr(stringifyStrategy(config.strategy)));
  add("members", b.getI64IntegerAttr(config.members));
  add("threads_per_block", b.getI64IntegerAttr(config.threadsPerBlock));
  add("index_bits", b.getI64IntegerAttr(config.indexBits));
  add("shared_bytes", b.getI64IntegerAttr(config.sharedBytes));
  if (config.strategy == Strategy::MembersPerBlock) {
    add("members_per_block", b.getI64IntegerAttr(config.membersPerBlock));
    add("threads_per_member", b.getI64IntegerAttr(config.threadsPerMember));
    add("shared_bytes_per_member",
        b.getI64IntegerAttr(config.sharedBytesPerMember));
  }
  SmallVector<Attribute> temporaries;
  for (const TemporaryConfig &temporary : config.temporaries) {
    SmallVector<NamedAttribute> entries = {
        b.getNamedAttr("type", b.getStringAttr(temporary.type)),
        b.getNamedAttr("space", b.getStringAttr(getSpaceName(temporary.space))),
        b.getNamedAttr("bytes", b.getI64IntegerAttr(temporary.bytes)),
        b.getNamedAttr("location", b.getI64IntegerAttr(temporary.location))};
    if (temporary.swizzled)
      entries.push_back(b.getNamedAttr("swizzled", b.getUnitAttr()));
    temporaries.push_back(b.getDictionaryAttr(entries));
  }
  add("temporaries", b.getArrayAttr(temporaries));
  SmallVector<Attribute> phases;
  for (const PhaseConfig &phase : config.phases)
    phases.push_back(getPhaseAttr(b, phase, config.strategy));
  add("phases", b.getArrayAttr(phases));
  return b.getDictionaryAttr(fields);
}

llvm::Expected<ConfiguredLoop> cuda::readConfiguredLoop(Operation *loop) {
  ConfiguredLoop configured;
  Attribute attr = loop->getDiscardableAttr(kKernelConfigAttrName);
  if (!attr)
    return configured;
  auto config = dyn_cast<DictionaryAttr>(attr);
  if (!config)
    return error(kKernelConfigAttrName.str() + " must be a dictionary");
  if (Attribute field = config.get("strategy")) {
    auto name = dyn_cast<StringAttr>(field);
    std::optional<StrategyChoice> strategy =
        name ? parseStrategyChoice(name.getValue()) : std::nullopt;
    if (!strategy || !*strategy)
      return error(kKernelConfigAttrName.str() +
                   ": strategy must be one of \"member-per-block\", "
                   "\"tiled\", \"members-per-block\"");
    configured.strategy = **strategy;
  }
  if (Attribute field = config.get("members_per_block")) {
    auto count = dyn_cast<IntegerAttr>(field);
    if (!count || count.getInt() < 1 ||
        count.getInt() * kWarpSize > kMaxBlockThreads)
      return error(kKernelConfigAttrName.str() +
                   ": members_per_block must be an integer from 1 to " +
                   std::to_string(kMaxBlockThreads / kWarpSize));
    configured.membersPerBlock = count.getInt();
  }
  return configured;
}

llvm::Expected<const GpuSpec *> cuda::readTarget(ModuleOp module,
                                                 const GpuSpec &fallback) {
  Attribute attr = module->getDiscardableAttr(kTargetAttrName);
  if (!attr)
    return &fallback;
  auto name = dyn_cast<StringAttr>(attr);
  const GpuSpec *gpu = name ? lookupGpuTarget(name.getValue()) : nullptr;
  if (!gpu)
    return error(kTargetAttrName.str() +
                 " must name a GPU (known: " + getGpuTargetNames() + ")");
  return gpu;
}
