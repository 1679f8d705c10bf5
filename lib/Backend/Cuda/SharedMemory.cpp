//===- SharedMemory.cpp - A block's dynamic shared memory -----------------===//
//
// Places what a block keeps in dynamic shared memory: the temporaries of a
// loop over members by liveness (temporaries never live at the same time
// share bytes), and after them the operands each op stages.
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

SharedAllocation
cuda::allocateSharedMemory(llvm::ArrayRef<LiveRange> temporaries) {
  SmallVector<bool> inShared(temporaries.size(), true);
  SharedAllocation allocation;
  while (true) {
    SmallVector<LiveRange> ranges;
    SmallVector<unsigned> placed;
    for (auto [i, temporary] : llvm::enumerate(temporaries))
      if (inShared[i]) {
        ranges.push_back(temporary);
        placed.push_back(i);
      }
    Placement placement = placeByLiveness(ranges, kSharedAlignment);
    allocation.offsets.assign(temporaries.size(), std::nullopt);
    for (auto [i, offset] : llvm::zip(placed, placement.offsets))
      allocation.offsets[i] = offset;
    allocation.peak = placement.peak;
    if (allocation.peak <= kSharedMemoryBudget)
      return allocation;
    unsigned largest = *llvm::max_element(placed, [&](unsigned a, unsigned b) {
      return temporaries[a].bytes < temporaries[b].bytes;
    });
    inShared[largest] = false;
  }
}

StagingArea::StagingArea(int64_t temporaryBytes)
    : start(llvm::alignTo(temporaryBytes, kSharedAlignment)) {}

std::optional<int64_t> StagingArea::allocate(int64_t bytes) {
  int64_t offset = llvm::alignTo(used, kSharedAlignment);
  if (start + offset + bytes > kSharedMemoryBudget)
    return std::nullopt;
  used = offset + bytes;
  peak = std::max(peak, used);
  return start + offset;
}
