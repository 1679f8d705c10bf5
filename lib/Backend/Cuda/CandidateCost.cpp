//===- CandidateCost.cpp - The model's view of candidate configs ----------===//
//
// Describes the kernels of a tiled phase or launch from its config and IR,
// as the emitters (TiledKernelEmitter.cpp) will write them: the FLOPs of
// its ops, the plan buffers they read and write, the bytes a thread keeps
// in flight in its innermost loop, its grid, block and shared memory, and
// what PhaseCounts.cpp counts of it. The performance model weighs these
// descriptions; nothing is written to be measured.
//
//===----------------------------------------------------------------------===//

#include "CandidateCost.h"

#include "KernelBody.h"
#include "KernelCost.h"
#include "PhaseCounts.h"

#include "ens/Support/Sizes.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The plan buffer that stands for a split phase's partial results, which
/// is allocated only when the phase is written.
static constexpr int64_t kPartialsBuffer = -1;

/// The inputs of `generic` that a thread reads at each point or step:
/// those its body uses whose indexing map follows a loop of more than one
/// iteration (GenericWriter::hoistInvariants reads the others once, before
/// the loops).
static SmallVector<OpOperand *> getVaryingInputs(linalg::GenericOp generic) {
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<OpOperand *> inputs;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (!generic.getMatchingBlockArgument(input).use_empty() &&
        llvm::any_of(llvm::seq(map.getNumDims()), [&](unsigned d) {
          return ranges[d] != 1 && map.isFunctionOfDim(d);
        }))
      inputs.push_back(input);
  }
  return inputs;
}

/// The bytes of one element of `input`.
static int64_t getElementBytes(linalg::GenericOp generic, OpOperand *input) {
  return getElementSize(
      *getBufferDType(generic.getMatchingBlockArgument(input).getType()));
}

/// The bytes of one element of each varying input together, `times` times.
static int64_t getStepBytes(linalg::GenericOp generic, int64_t times) {
  int64_t bytes = 0;
  for (OpOperand *input : getVaryingInputs(generic))
    bytes += times * getElementBytes(generic, input);
  return std::max<int64_t>(bytes, 4);
}

static bool hasIndexOps(linalg::GenericOp generic) {
  return !generic.getBody()->getOps<linalg::IndexOp>().empty();
}

std::optional<int64_t> cuda::getPointsBytesInFlight(linalg::GenericOp generic) {
  // As emitPoints unrolls a single reduction loop whose outputs do not
  // change along it: kWholeUnrollSteps steps of a sum, else kUnrollSteps.
  SmallVector<unsigned> reduction;
  generic.getReductionDims(reduction);
  if (reduction.size() != 1 || hasIndexOps(generic))
    return std::nullopt;
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (generic.getMatchingIndexingMap(&init).isFunctionOfDim(reduction[0]))
      return std::nullopt;
  int64_t range = generic.getStaticLoopRanges()[reduction[0]];
  int64_t unroll =
      getVaryingInputs(generic).size() <= 1 && range >= kWholeUnrollSteps
          ? kWholeUnrollSteps
          : kUnrollSteps;
  if (range < unroll)
    return std::nullopt;
  return getStepBytes(generic, unroll);
}

int64_t cuda::getTileBytesInFlight(linalg::GenericOp generic,
                                   const TileConfig &tile, int64_t chunks) {
  SmallVector<unsigned> reduction;
  generic.getReductionDims(reduction);
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  int64_t steps = 1;
  for (unsigned d : reduction)
    steps *= ranges[d];
  // (A chunk within a block is long enough to unroll either way.)
  steps = getChunkSteps(steps, chunks, tile.unroll, /*inBlock=*/false);
  bool unroll =
      reduction.size() == 1 && steps >= tile.unroll && !hasIndexOps(generic);
  // A step loads each input's element once per row, column or point of the
  // tile that reads a different one, all independent of each other.
  int64_t bytesPerStep = 0;
  for (OpOperand *input : getVaryingInputs(generic)) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    bytesPerStep += (map.isFunctionOfDim(tile.loops[0]) ? tile.sizes[0] : 1) *
                    (map.isFunctionOfDim(tile.loops[1]) ? tile.sizes[1] : 1) *
                    getElementBytes(generic, input);
  }
  return std::max<int64_t>(bytesPerStep * (unroll ? tile.unroll : 1), 4);
}

std::optional<int64_t>
cuda::getBlockReductionBytesInFlight(linalg::GenericOp generic,
                                     int64_t unroll) {
  if (generic.getNumReductionLoops() != 1 || hasIndexOps(generic))
    return std::nullopt;
  return getStepBytes(generic, unroll);
}

int64_t cuda::getSplitCombineBytesInFlight(Operation *combiner,
                                           int64_t chunks) {
  return std::min(chunks, kUnrollSteps) *
         getElementSize(*getBufferDType(combiner->getResult(0).getType()));
}

int64_t cuda::getMmaBytesInFlight(const PhaseConfig &phase) {
  auto [blockRows, blockCols] = getMmaBlockTile(phase.mma, phase.threads);
  // The copies of every stage but the one being multiplied.
  return llvm::divideCeil((blockRows + blockCols) * phase.mma.stepsStaged,
                          phase.threads) *
         4 * std::max<int64_t>(phase.mma.stages - 1, 1);
}

void CandidateCoster::collectTraffic(ArrayRef<Operation *> roots, bool fused,
                                     llvm::SetVector<int64_t> &read,
                                     llvm::SetVector<int64_t> &written) const {
  DenseSet<Value> bound;
  collectTraffic(roots, fused, read, written, bound);
}

void CandidateCoster::collectTraffic(ArrayRef<Operation *> roots, bool fused,
                                     llvm::SetVector<int64_t> &read,
                                     llvm::SetVector<int64_t> &written,
                                     DenseSet<Value> &bound) const {
  // As KernelEmitter::bindMemrefs binds each root: its memrefs, then the
  // loads outside it that it reads itself, where it has not bound their
  // memref already.
  auto getGlobalBuffer = [&](Value memref) {
    return views.getGlobalBuffer(memref);
  };
  for (Operation *root : roots) {
    cuda::collectTraffic(root, getGlobalBuffer, read, written);
    root->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()))
          bound.insert(operand);
    });
    for (memref::LoadOp load : getCapturedLoads(root)) {
      Value memref = load.getMemRef();
      if (!isReadableAt(load, root) || !bound.insert(memref).second)
        continue;
      if (std::optional<int64_t> buffer = views.getGlobalBuffer(memref))
        read.insert(*buffer);
    }
  }
  // The result of a contraction that its epilogue reads in registers.
  if (fused)
    if (std::optional<int64_t> buffer = views.getGlobalBuffer(
            cast<linalg::GenericOp>(roots[0]).getDpsInits()[0])) {
      read.remove(*buffer);
      written.remove(*buffer);
    }
}

void CandidateCoster::collectStartRead(linalg::GenericOp generic,
                                       llvm::SetVector<int64_t> &read) const {
  OpOperand &output = generic.getDpsInitsMutable()[0];
  if (!fills.filledWith.lookup(&output))
    if (std::optional<int64_t> buffer = views.getGlobalBuffer(output.get()))
      read.insert(*buffer);
}

void CandidateCoster::countBytes(
    KernelInfo &info, const llvm::SetVector<int64_t> &read,
    const llvm::SetVector<int64_t> &written) const {
  for (int64_t buffer : read)
    if (buffer != kPartialsBuffer)
      info.bytesRead += getBufferBytes(buffer);
  for (int64_t buffer : written)
    if (buffer != kPartialsBuffer)
      info.bytesWritten += getBufferBytes(buffer);
}

/// The ops of a phase's kernel: its op and the epilogue fused into it.
static SmallVector<Operation *> getRoots(const MemberLoopPlan::Phase &ir) {
  SmallVector<Operation *> roots = {ir.op};
  if (ir.epilogue)
    roots.push_back(ir.epilogue);
  return roots;
}

/// Starts a kernel of `members` members that computes `roots`, each of its
/// `blocksPerMember` blocks of `threads`.
static CandidateKernel beginKernel(ArrayRef<Operation *> roots, int64_t members,
                                   int64_t blocksPerMember, unsigned threads) {
  CandidateKernel kernel;
  for (Operation *root : roots) {
    kernel.info.flops += members * countFlops(root);
    kernel.info.fmaFlops += members * countFmaFlops(root);
  }
  kernel.launch.grid = {static_cast<unsigned>(members * blocksPerMember), 1, 1};
  kernel.launch.block = {threads, 1, 1};
  return kernel;
}

llvm::Expected<std::vector<CandidateKernel>>
CandidateCoster::describeTiledPhase(const PhaseConfig &phase,
                                    const MemberLoopPlan::Phase &ir,
                                    int64_t members) const {
  bool serial = phase.kind == PhaseKind::Serial;
  unsigned threads = serial ? 1u : phase.threads;
  CandidateKernel kernel =
      beginKernel(getRoots(ir), members, phase.blocksPerMember, threads);
  llvm::SetVector<int64_t> read, written;
  if (serial) {
    collectTraffic(ir.op, /*fused=*/false, read, written);
    storeTiledCounts(kernel.info, views, phase, ir, members, threads);
    countBytes(kernel.info, read, written);
    kernel.read = std::move(read);
    kernel.written = std::move(written);
    return std::vector<CandidateKernel>{std::move(kernel)};
  }
  auto generic = cast<linalg::GenericOp>(ir.op);
  KernelInfo &info = kernel.info;
  if (phase.chunks == 1) {
    collectTraffic(getRoots(ir), static_cast<bool>(ir.epilogue), read, written);
    if (phase.mma.blockTiled()) {
      if (phase.mma.enabled()) {
        // The contraction's multiply-adds are tensor-core FLOPs, not fmaf.
        info.tensorFlops = members * countFlops(generic);
        info.fmaFlops -= members * countFmaFlops(generic);
        info.tensorPasses = phase.mma.precision == Precision::Tf32x3 ? 3 : 1;
      }
      info.bytesInFlightPerThread = getMmaBytesInFlight(phase);
      kernel.launch.sharedBytes =
          static_cast<unsigned>(getMmaStaging(phase.mma, phase.threads).bytes);
    } else if (phase.kind == PhaseKind::BlockReduction) {
      info.bytesInFlightPerThread =
          getBlockReductionBytesInFlight(generic, phase.lanesAlongOutputs
                                                      ? kColumnUnrollSteps
                                                      : kUnrollSteps)
              .value_or(4);
    } else if (!phase.tile.empty()) {
      info.bytesInFlightPerThread =
          getTileBytesInFlight(generic, phase.tile, /*chunks=*/1);
    } else {
      info.bytesInFlightPerThread = getPointsBytesInFlight(generic).value_or(4);
    }
    storeTiledCounts(info, views, phase, ir, members, threads);
    countBytes(info, read, written);
    kernel.read = std::move(read);
    kernel.written = std::move(written);
    return std::vector<CandidateKernel>{std::move(kernel)};
  }
  // Split into chunks: the first kernel writes the partial results, a
  // buffer of its own.
  Operation *combiner = getReductionCombiner(generic);
  Type type = combiner->getResult(0).getType();
  bool contraction = phase.kind == PhaseKind::Points;
  int64_t elements = countPointsAndSteps(generic).first;
  auto partialsType = MemRefType::get({members, elements, phase.chunks}, type);
  llvm::Expected<int64_t> partialsBytes =
      getCheckedByteSize(partialsType.getShape(),
                         getElementSize(*getBufferDType(type)), "a buffer");
  if (!partialsBytes)
    return partialsBytes.takeError();
  if (llvm::Error tooLarge = checkBufferBytes(
          *partialsBytes, maxBufferBytes,
          llvm::formatv("the temporary buffer {0}", partialsType).str()))
    return std::move(tooLarge);
  collectTraffic(generic.getOperation(), /*fused=*/false, read, written);
  written.clear();
  written.insert(kPartialsBuffer);
  info.bytesInFlightPerThread =
      contraction ? getTileBytesInFlight(generic, phase.tile, phase.chunks)
                  : getBlockReductionBytesInFlight(generic).value_or(4);
  storeTiledCounts(info, views, phase, ir, members, threads);
  if (phase.finishLast) {
    // The last chunk of each tile reads what the second kernel would (the
    // partial results, the output unless filled, the epilogue's operands),
    // writes its results, and resets the tile's counter.
    collectTraffic(getRoots(ir), static_cast<bool>(ir.epilogue), read, written);
    collectStartRead(generic, read);
    countBytes(info, read, written);
    int64_t counterBytes = members * countTiles(generic, phase.tile) * 4;
    kernel.unplannedBytesRead = *partialsBytes + counterBytes;
    kernel.unplannedBytesWritten = *partialsBytes + counterBytes;
    info.bytesRead += kernel.unplannedBytesRead;
    info.bytesWritten += kernel.unplannedBytesWritten;
    kernel.read = std::move(read);
    kernel.written = std::move(written);
    return std::vector<CandidateKernel>{std::move(kernel)};
  }
  countBytes(info, read, written);
  info.bytesWritten += *partialsBytes;
  // The second adds each element's partial results to its output's value
  // and applies the epilogue: a thread per element of a contraction, a
  // block per element of a block reduction.
  int64_t blocks =
      contraction ? llvm::divideCeil(elements, kBlockSize) : elements;
  CandidateKernel combine = beginKernel({}, members, blocks, kBlockSize);
  if (ir.epilogue)
    combine.info.flops = members * countFlops(ir.epilogue);
  llvm::SetVector<int64_t> combineRead, combineWritten;
  collectTraffic(getRoots(ir), static_cast<bool>(ir.epilogue), combineRead,
                 combineWritten);
  for (OpOperand *input : generic.getDpsInputOperands())
    if (std::optional<int64_t> buffer = views.getGlobalBuffer(input->get()))
      combineRead.remove(*buffer);
  combineRead.insert(kPartialsBuffer);
  collectStartRead(generic, combineRead);
  if (contraction)
    combine.info.bytesInFlightPerThread =
        getSplitCombineBytesInFlight(combiner, phase.chunks);
  PhaseContext context{views,  Strategy::Tiled, kBlockSize,
                       blocks, kBlockSize,      members};
  countSplitCombine(ir, phase, context).store(combine.info);
  countBytes(combine.info, combineRead, combineWritten);
  combine.info.bytesRead += *partialsBytes;
  std::vector<CandidateKernel> kernels;
  kernels.push_back(std::move(kernel));
  kernels.push_back(std::move(combine));
  return kernels;
}

llvm::Expected<std::vector<CandidateKernel>>
CandidateCoster::describeTiledLaunch(const MemberLoopPlan &plan,
                                     ArrayRef<unsigned> phases) const {
  const KernelConfig &config = plan.config;
  if (phases.size() == 1)
    return describeTiledPhase(config.phases[phases[0]], plan.phases[phases[0]],
                              config.members);
  // One kernel whose blocks branch to their phase's body, as
  // KernelEmitter::emitTiledLaunch writes it.
  CandidateKernel launch;
  KernelInfo &info = launch.info;
  llvm::SetVector<int64_t> read, written;
  SideBySideWork work;
  for (unsigned i : phases) {
    const PhaseConfig &phase = config.phases[i];
    llvm::Expected<std::vector<CandidateKernel>> described =
        describeTiledPhase(phase, plan.phases[i], config.members);
    if (!described)
      return described.takeError();
    CandidateKernel &section = described->front();
    read.insert(section.read.begin(), section.read.end());
    written.insert(section.written.begin(), section.written.end());
    info.bytesRead += section.unplannedBytesRead;
    info.bytesWritten += section.unplannedBytesWritten;
    launch.launch.grid[0] = phase.firstBlock + section.launch.grid[0];
    launch.launch.block = section.launch.block;
    launch.launch.sharedBytes =
        std::max(launch.launch.sharedBytes, section.launch.sharedBytes);
    work.add(info, section.info, section.launch.grid[0]);
    launch.sections.push_back(
        {std::move(section.info), section.launch.grid[0]});
  }
  work.finish(info);
  countBytes(info, read, written);
  return std::vector<CandidateKernel>{std::move(launch)};
}

CandidateKernel
CandidateCoster::describeMemberKernel(scf::ForallOp forall,
                                      const MemberLoopPlan &plan) const {
  const KernelConfig &config = plan.config;
  CandidateKernel kernel =
      beginKernel(forall.getOperation(), /*members=*/1,
                  llvm::divideCeil(config.members, config.membersPerBlock),
                  config.threadsPerBlock);
  KernelInfo &info = kernel.info;
  kernel.launch.sharedBytes = static_cast<unsigned>(config.sharedBytes);
  // Each phase waits for its loads before the barrier after it.
  info.dependentLoadsPerThread = config.phases.size();
  DenseSet<Value> bound;
  for (auto [phase, ir] : llvm::zip(config.phases, plan.phases)) {
    if (phase.kind == PhaseKind::Serial) {
      collectTraffic(ir.op, /*fused=*/false, kernel.read, kernel.written,
                     bound);
      continue;
    }
    collectTraffic(getRoots(ir), static_cast<bool>(ir.epilogue), kernel.read,
                   kernel.written, bound);
    // The last phase that says how many bytes its threads have in flight
    // sets the kernel's.
    auto generic = cast<linalg::GenericOp>(ir.op);
    std::optional<int64_t> bytes =
        phase.kind == PhaseKind::BlockReduction
            ? getBlockReductionBytesInFlight(generic)
        : phase.tile.empty()
            ? getPointsBytesInFlight(generic)
            : getTileBytesInFlight(generic, phase.tile, /*chunks=*/1);
    if (bytes)
      info.bytesInFlightPerThread = *bytes;
  }
  storeMemberCounts(info, views, plan);
  countBytes(info, kernel.read, kernel.written);
  return kernel;
}

CandidateKernel
CandidateCoster::describeGridGeneric(linalg::GenericOp generic) const {
  int64_t points = countPointsAndSteps(generic).first;
  Operation *combiner = getBlockCombiner(generic, ReductionBlocks::Own);
  // A block per output element, or a grid-stride loop over the points in
  // at most 2^31 - 1 blocks.
  int64_t blocks =
      combiner
          ? points
          : std::min<int64_t>(llvm::divideCeil(points, kBlockSize), INT32_MAX);
  unsigned threads =
      combiner ? kBlockSize
               : static_cast<unsigned>(std::min<int64_t>(points, kBlockSize));
  CandidateKernel kernel =
      beginKernel(generic.getOperation(), /*members=*/1, blocks, threads);
  collectTraffic(generic.getOperation(), /*fused=*/false, kernel.read,
                 kernel.written);
  std::optional<int64_t> bytes = combiner
                                     ? getBlockReductionBytesInFlight(generic)
                                     : getPointsBytesInFlight(generic);
  kernel.info.bytesInFlightPerThread = bytes.value_or(4);
  storeGridCounts(kernel.info, views, generic, nullptr, combiner, threads,
                  kernel.launch.grid[0]);
  countBytes(kernel.info, kernel.read, kernel.written);
  return kernel;
}

double CandidateCoster::estimateUs(ArrayRef<CandidateKernel> kernels) const {
  double us = 0;
  for (const CandidateKernel &kernel : kernels)
    us += estimateLaunch(kernel.info, kernel.launch, /*registers=*/0, target,
                         kernel.sections, withCounts)
              .us;
  return us;
}

void cuda::storeTiledCounts(KernelInfo &info, const BufferViews &views,
                            const PhaseConfig &phase,
                            const MemberLoopPlan::Phase &ir, int64_t members,
                            unsigned threads) {
  unsigned perBlock = phase.kind == PhaseKind::Serial ? 1u : threads;
  PhaseContext context{views,    Strategy::Tiled,
                       perBlock, phase.blocksPerMember,
                       perBlock, members};
  WorkCounts counts = countPhase(ir, phase, context);
  if (phase.chunks > 1 && phase.finishLast)
    counts.append(countSplitFinish(ir, phase, context));
  counts.store(info);
}

void cuda::storeGridCounts(KernelInfo &info, const BufferViews &views,
                           linalg::GenericOp generic,
                           linalg::GenericOp epilogue, Operation *combiner,
                           unsigned threads, unsigned blocks) {
  // Outside a loop over members: one "member", whose points the grid's
  // blocks share as a tiled phase's do.
  PhaseConfig phase;
  phase.kind = combiner ? PhaseKind::BlockReduction : PhaseKind::Points;
  PhaseContext context{views,  Strategy::Tiled, threads,
                       blocks, threads,         /*members=*/1};
  countPhase({generic, epilogue, combiner}, phase, context).store(info);
}

void cuda::storeMemberCounts(KernelInfo &info, const BufferViews &views,
                             const MemberLoopPlan &plan) {
  const KernelConfig &config = plan.config;
  unsigned memberThreads = config.strategy == Strategy::MembersPerBlock
                               ? kWarpSize
                               : config.threadsPerBlock;
  PhaseContext context{views,
                       config.strategy,
                       memberThreads,
                       /*blocksPerMember=*/1,
                       memberThreads,
                       config.members};
  WorkCounts counts;
  for (auto [i, phase, ir] : llvm::enumerate(config.phases, plan.phases)) {
    counts.append(countPhase(ir, phase, context));
    counts.barriersPerBlock += i ? 1 : 0;
  }
  counts.store(info);
}
