//===- LaunchPlan.cpp - The buffers and launches of a CUDA program --------===//
//
// What both executors read from a launch plan (results, peak memory), its
// listing, and the placement of its temporaries in the arena.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/LaunchPlan.h"

#include "ens/Backend/Liveness.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The alignment of each temporary in the arena, as cuMemAlloc's.
static constexpr int64_t kArenaAlignment = 256;

void LaunchPlan::placeArena() {
  SmallVector<LiveRange> ranges;
  SmallVector<BufferInfo *> temporaries;
  for (BufferInfo &buffer : buffers)
    if (buffer.kind == BufferKind::Temporary) {
      ranges.push_back({buffer.bytes, ~0u, 0});
      temporaries.push_back(&buffer);
    }
  for (auto [step, launch] : llvm::enumerate(launches))
    for (const KernelArg &arg : launch.args)
      if (arg.isBuffer && buffers[arg.value].kind == BufferKind::Temporary) {
        auto it = llvm::find(temporaries, &buffers[arg.value]);
        LiveRange &range = ranges[it - temporaries.begin()];
        range.first = std::min<unsigned>(range.first, step);
        range.last = std::max<unsigned>(range.last, step);
      }
  // A temporary no launch uses (the result of a contraction whose epilogue
  // consumed it in registers) takes no memory.
  for (auto [range, buffer] : llvm::zip(ranges, temporaries))
    if (range.first > range.last)
      range = {0, 0, 0};
  Placement placement = placeByLiveness(ranges, kArenaAlignment);
  for (auto [buffer, offset] : llvm::zip(temporaries, placement.offsets))
    buffer->arenaOffset = offset;
  arenaBytes = placement.peak;
}

std::vector<HostTensor> LaunchPlan::readResults(
    unsigned numResults,
    llvm::function_ref<const void *(size_t buffer)> bytesOf) const {
  std::vector<HostTensor> results(numResults);
  for (auto [i, buffer] : llvm::enumerate(buffers))
    if (buffer.kind == BufferKind::Output)
      results[buffer.index] =
          HostTensor::loadFrom(buffer.dtype, buffer.shape, bytesOf(i));
  return results;
}

int64_t LaunchPlan::getPeakDeviceBytes() const {
  int64_t bytes = arenaBytes;
  for (const BufferInfo &buffer : buffers)
    if (buffer.kind != BufferKind::Temporary)
      bytes += buffer.bytes;
  return bytes;
}

std::string LaunchPlan::print() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  static const char *kinds[] = {"input", "output", "temporary", "constant"};
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    os << "buffer " << i << ": " << kinds[static_cast<int>(buffer.kind)];
    if (buffer.kind == BufferKind::Input || buffer.kind == BufferKind::Output)
      os << " " << buffer.index;
    os << ", " << HostTensor(buffer.dtype, buffer.shape).getTypeString() << ", "
       << buffer.bytes << " bytes";
    if (buffer.kind == BufferKind::Temporary)
      os << " at arena offset " << buffer.arenaOffset;
    os << "\n";
  }
  os << "arena " << arenaBytes << " bytes\n";
  for (const KernelLaunch &launch : launches) {
    os << "launch " << kernels[launch.kernel].name << " grid ("
       << launch.grid[0] << ", " << launch.grid[1] << ", " << launch.grid[2]
       << ") block (" << launch.block[0] << ", " << launch.block[1] << ", "
       << launch.block[2] << ") shared " << launch.sharedBytes
       << " bytes, args (";
    for (auto [i, arg] : llvm::enumerate(launch.args))
      os << (i ? ", " : "") << (arg.isBuffer ? "buffer " : "") << arg.value;
    os << ")\n";
  }
  return text;
}
