//===- PhaseWork.cpp - Accesses and work of a kernel's phases -------------===//
//
// What a warp access costs through the L1 data path and from L2, given the
// element each of its 32 lanes reads, and which accesses ptxas makes 64 or
// 128 bits wide; the warps that issue a phase's work
// and the lanes that do it; the counts of a serial phase; and how the
// counts of phases and sections add up.
//
//===----------------------------------------------------------------------===//

#include "PhaseWork.h"

#include "KernelCost.h"
#include "SharedMemory.h"

#include "ens/Support/HostTensor.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;
using namespace mlir::ens::cuda::phase;

void WorkCounts::append(const WorkCounts &next) {
  warpInstructions += next.warpInstructions;
  fp32WarpInstructions += next.fp32WarpInstructions;
  memoryInstructions += next.memoryInstructions;
  wavefrontBytes += next.wavefrontBytes;
  l2Bytes += next.l2Bytes;
  dependentLoads += next.dependentLoads;
  l2DependentLoads += next.l2DependentLoads;
  barriersPerBlock += next.barriersPerBlock;
  activeLanes += next.activeLanes;
  issuedLanes += next.issuedLanes;
  hotLoops.insert(hotLoops.end(), next.hotLoops.begin(), next.hotLoops.end());
  counted &= next.counted;
}

void WorkCounts::store(KernelInfo &info) const {
  if (!counted)
    return;
  info.warpInstructions = warpInstructions;
  info.fp32WarpInstructions = fp32WarpInstructions;
  info.memoryInstructions = memoryInstructions;
  info.wavefrontBytes = wavefrontBytes;
  info.l2Bytes = l2Bytes;
  info.countedDependentLoadsPerThread = std::max<int64_t>(dependentLoads, 1);
  info.l2DependentLoadsPerThread = l2DependentLoads;
  info.barriersPerBlock = barriersPerBlock;
  info.activeLaneShare = issuedLanes ? activeLanes / issuedLanes : 0;
  info.hotLoops = hotLoops;
}

void cuda::dropCounts(KernelInfo &info) {
  info.warpInstructions = info.fp32WarpInstructions = 0;
  info.memoryInstructions = info.wavefrontBytes = info.l2Bytes = 0;
  info.countedDependentLoadsPerThread = info.l2DependentLoadsPerThread = 0;
  info.barriersPerBlock = 0;
  info.activeLaneShare = 0;
  info.hotLoops.clear();
}

bool cuda::addSideBySide(KernelInfo &whole, const KernelInfo &section) {
  if (section.warpInstructions == 0)
    return false;
  double lanes = whole.activeLaneShare * whole.warpInstructions +
                 section.activeLaneShare * section.warpInstructions;
  whole.warpInstructions += section.warpInstructions;
  whole.activeLaneShare = lanes / whole.warpInstructions;
  whole.fp32WarpInstructions += section.fp32WarpInstructions;
  whole.memoryInstructions += section.memoryInstructions;
  whole.wavefrontBytes += section.wavefrontBytes;
  whole.l2Bytes += section.l2Bytes;
  whole.countedDependentLoadsPerThread =
      std::max(whole.countedDependentLoadsPerThread,
               section.countedDependentLoadsPerThread);
  whole.l2DependentLoadsPerThread = std::max(whole.l2DependentLoadsPerThread,
                                             section.l2DependentLoadsPerThread);
  whole.barriersPerBlock =
      std::max(whole.barriersPerBlock, section.barriersPerBlock);
  whole.hotLoops.insert(whole.hotLoops.end(), section.hotLoops.begin(),
                        section.hotLoops.end());
  return true;
}

void SideBySideWork::add(KernelInfo &whole, const KernelInfo &section,
                         int64_t sectionBlocks) {
  whole.flops += section.flops;
  whole.fmaFlops += section.fmaFlops;
  whole.tensorFlops += section.tensorFlops;
  whole.tensorPasses = std::max(whole.tensorPasses, section.tensorPasses);
  // A launch with a section the model does not count (a vendor GEMM step) is
  // not counted: its counts would leave that section out.
  counted = counted && addSideBySide(whole, section);
  blocks += sectionBlocks;
  bytesInFlight += sectionBlocks * section.bytesInFlightPerThread;
  whole.bytesInFlightPerThread = bytesInFlight / blocks;
}

void SideBySideWork::finish(KernelInfo &whole) const {
  if (!counted)
    dropCounts(whole);
}

Space phase::getSpace(Value memref, const BufferViews &views) {
  while (true) {
    if (views.inRegisters.contains(memref))
      return Space::Registers;
    if (views.sharedName.count(memref))
      return Space::Shared;
    if (views.bufferOf.count(memref))
      return Space::Global;
    Operation *view = memref.getDefiningOp();
    if (!view || view->getNumOperands() == 0 ||
        !isa<MemRefType>(view->getOperand(0).getType()))
      return Space::Global;
    memref = view->getOperand(0);
  }
}

SmallVector<int64_t> phase::getStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (succeeded(getStridesAndOffset(type, strides, offset)) &&
      llvm::none_of(strides, ShapedType::isDynamic))
    return strides;
  return llvm::to_vector(getRowMajorStrides(type.getShape()));
}

AccessCost phase::getCost(ArrayRef<int64_t> offsets, int64_t bytes,
                          Space space) {
  AccessCost cost;
  cost.space = space;
  llvm::DenseSet<int64_t> lines, sectors, words;
  for (int64_t offset : offsets) {
    lines.insert(offset * bytes / 128);
    sectors.insert(offset * bytes / 32);
    words.insert(offset * bytes / 4);
  }
  if (space != Space::Shared) {
    cost.wavefronts = lines.size();
    cost.sectors = sectors.size();
    return cost;
  }
  int64_t perBank[32] = {};
  for (int64_t word : words)
    ++perBank[word % 32];
  cost.wavefronts = *std::max_element(perBank, perBank + 32);
  cost.sectors = 0;
  return cost;
}

int64_t cuda::getAccessWidth(linalg::GenericOp op, OpOperand &operand,
                             unsigned loop, ArrayRef<int64_t> starts,
                             bool global, bool rowMajor,
                             const BufferViews &views) {
  auto type = cast<MemRefType>(operand.get().getType());
  if (type.getElementTypeBitWidth() != 32)
    return 1;
  SmallVector<int64_t> multiples(starts);
  if (global) {
    std::optional<BufferViews::Place> place = views.getPlace(operand.get());
    if (!place)
      return 1;
    multiples.append({place->offset, place->memberStride});
  }
  SmallVector<int64_t> strides =
      rowMajor ? llvm::to_vector(getRowMajorStrides(type.getShape()))
               : getStrides(type);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  // Only a map linear in the loops (no division or remainder) has a
  // stride per loop; its constant part moves every access by as many
  // elements.
  bool linear = true;
  for (AffineExpr result : map.getResults())
    result.walk([&](AffineExpr e) {
      linear &= e.getKind() != AffineExprKind::Mod &&
                e.getKind() != AffineExprKind::FloorDiv &&
                e.getKind() != AffineExprKind::CeilDiv;
    });
  if (!linear)
    return 1;
  SmallVector<int64_t> base =
      map.compose(SmallVector<int64_t>(map.getNumDims(), 0));
  int64_t constant = 0;
  for (auto [a, s] : llvm::zip(base, strides))
    constant += a * s;
  multiples.push_back(constant);
  // The element stride of each loop: the change of the offset when the
  // loop's variable grows by one.
  for (unsigned d = 0; d < map.getNumDims(); ++d) {
    SmallVector<int64_t> next(map.getNumDims(), 0);
    next[d] = 1;
    int64_t stride = 0;
    for (auto [a, b, s] : llvm::zip(base, map.compose(next), strides))
      stride += (b - a) * s;
    if (d == loop && stride != 1)
      return 1;
    if (d != loop)
      multiples.push_back(stride);
  }
  for (int64_t width : {4, 2})
    if (llvm::all_of(multiples, [&](int64_t m) { return m % width == 0; }))
      return width;
  return 1;
}

SmallVector<int64_t> phase::getLaneDims(ArrayRef<int64_t> ranges,
                                        ArrayRef<unsigned> loops,
                                        int64_t lane) {
  SmallVector<int64_t> dims(ranges.size(), 0);
  for (unsigned k = loops.size(); k-- > 0;) {
    int64_t range = std::max<int64_t>(ranges[loops[k]], 1);
    dims[loops[k]] = k ? lane % range : lane;
    lane /= range;
  }
  return dims;
}

Layout phase::getLayout(Value memref, const BufferViews &views) {
  return views.swizzled.contains(memref) ? Layout::Swizzled : Layout::Typed;
}

AccessCost phase::getOperandCost(linalg::GenericOp generic, OpOperand &operand,
                                 ArrayRef<SmallVector<int64_t>> laneDims,
                                 Space space, Layout layout) {
  auto type = cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides =
      layout == Layout::Typed
          ? getStrides(type)
          : llvm::to_vector(getRowMajorStrides(type.getShape()));
  AffineMap map = generic.getMatchingIndexingMap(&operand);
  SmallVector<int64_t> offsets;
  for (ArrayRef<int64_t> dims : laneDims) {
    SmallVector<int64_t> indices = map.compose(dims);
    // The emitted index (BodyEmitter::element): in swizzled rows, the
    // column is XORed with the row's piece.
    if (layout == Layout::Swizzled)
      indices.back() =
          getSwizzledColumn(indices[indices.size() - 2], indices.back());
    int64_t offset = 0;
    for (auto [index, stride] : llvm::zip(indices, strides))
      offset += index * stride;
    offsets.push_back(offset);
  }
  int64_t bytes = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  return getCost(offsets, bytes, space);
}

std::pair<double, double> phase::getWarps(int64_t items, int64_t threads) {
  int64_t rounds = items / threads, rest = items % threads;
  double warps = double(rounds) * llvm::divideCeil(threads, 32) +
                 llvm::divideCeil(rest, 32);
  return {warps, double(items)};
}

std::pair<int64_t, int64_t> phase::splitSteps(int64_t steps, int64_t unroll) {
  if (unroll <= 1 || steps < unroll)
    return {0, steps};
  return {steps / unroll, steps % unroll};
}

std::pair<double, double> phase::getFloatInstructions(Operation *op,
                                                      int64_t points) {
  double flops = double(countFlops(op)) / points;
  double fma = double(countFmaFlops(op)) / points / 2;
  // Divisions, roots and transcendental functions take a MUFU and a
  // Newton step or a polynomial: several instructions each (an assumption
  // read off the SASS of Adam's epilogue and tanh, sm_90).
  double extra = 0;
  op->walk([&](Operation *inner) {
    if (isa<arith::DivFOp, math::SqrtOp, math::RsqrtOp>(inner))
      extra += 7;
    else if (isa<math::TanhOp, math::ExpOp, math::LogOp, math::PowFOp>(inner))
      extra += 12;
  });
  // `points` is the executions of the body, which holds each op once.
  return {flops - fma + extra, fma};
}

WorkCounts phase::total(const Work &work, double warps, double activeLanes,
                        double overhead, const PhaseContext &context) {
  WorkCounts counts;
  double members = context.members;
  counts.warpInstructions = members * warps * (work.instructions() + overhead);
  counts.fp32WarpInstructions = members * warps * work.fp;
  counts.memoryInstructions = members * warps * (work.loads + work.stores);
  counts.wavefrontBytes = members * warps * work.wavefronts * 128;
  counts.l2Bytes = members * warps * work.sectors * 32;
  counts.activeLanes = members * activeLanes;
  counts.issuedLanes = members * warps * 32;
  return counts;
}

WorkCounts phase::countBlockPartials(const Work &point, int64_t tiles,
                                     int64_t tilePoints, int64_t chunks,
                                     const PhaseContext &context) {
  // Thread p = c * tiles + q finishes share c of tile q's points. It
  // stores its partial results of the others' points, point k of owner o
  // at ((c < o ? c : c - 1) * points + k) * tiles + q: for the first warp,
  // of the last share's points; and loads the others' of its own: for the
  // first warp, those of chunk 0 (or 1, for chunk 0's threads), slot 0.
  int64_t share = llvm::divideCeil(tilePoints, chunks);
  SmallVector<int64_t> stored, loaded;
  for (int64_t p = 0; p < 32; ++p) {
    int64_t c = std::min(p / tiles, chunks - 1), q = p % tiles;
    int64_t last = (chunks - 1) * share;
    stored.push_back((c * tilePoints + last) * tiles + q);
    loaded.push_back(c * share * tiles + q);
  }
  Work work;
  work.add(getCost(stored, 4, Space::Shared), tilePoints - share, true);
  work.add(getCost(loaded, 4, Space::Shared), (chunks - 1) * share, false);
  work.fp += double(chunks) * share;
  work.add(point, double(share) / double(tilePoints));
  auto [warps, lanes] = getWarps(tiles * chunks, context.memberThreads);
  WorkCounts counts = total(work, warps, lanes, 0, context);
  counts.barriersPerBlock = 1;
  return counts;
}

WorkCounts phase::countSerial(Operation *op, const PhaseContext &context) {
  Work work;
  int64_t loads = 0;
  op->walk([&](Operation *inner) {
    int64_t trips = 1;
    for (Operation *parent = inner->getParentOp(); parent && parent != op;
         parent = parent->getParentOp())
      if (auto loop = dyn_cast<scf::ForOp>(parent))
        trips *= constantTripCount(loop.getLowerBound(), loop.getUpperBound(),
                                   loop.getStep())
                     .value_or(1);
    if (auto load = dyn_cast<memref::LoadOp>(inner)) {
      Space space = getSpace(load.getMemRef(), context.views);
      work.add({space, 1, space == Space::Global ? 1.0 : 0.0}, trips, false);
      loads += space == Space::Global ? trips : 0;
    } else if (auto store = dyn_cast<memref::StoreOp>(inner)) {
      Space space = getSpace(store.getMemRef(), context.views);
      work.add({space, 1, space == Space::Global ? 1.0 : 0.0}, trips, true);
    }
  });
  work.fp += countFlops(op);
  WorkCounts counts = total(work, 1, 1, kPointOverhead, context);
  counts.dependentLoads = loads;
  counts.l2DependentLoads = loads ? loads - 1 : 0;
  return counts;
}
