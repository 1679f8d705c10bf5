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

bool cuda::canSwizzleRows(llvm::ArrayRef<int64_t> shape, int64_t elementBytes) {
  return elementBytes == 4 && shape.size() >= 2 &&
         shape[shape.size() - 2] >= 2 &&
         shape.back() % kSwizzleRowElements == 0;
}

std::string cuda::getSwizzledIndex(llvm::StringRef row, llvm::StringRef col) {
  // The piece's first column XORed apart from the element in the piece,
  // written as col - col % 4 (not col & -4, nor the whole col XORed): NVVM
  // then folds the columns c, c + 1, c + 2, c + 3 of an aligned c to one
  // expression plus 0 to 3, and merges their accesses into a 128-bit one
  // (CUDA 13.0; it computes the other forms for c and c + 1 differently).
  std::string element = "((" + col.str() + ") & " +
                        std::to_string(kSwizzlePieceElements - 1) + ")";
  return "((((" + col.str() + ") - " + element + ") ^ ((" + row.str() + ") & " +
         std::to_string(kSwizzleRows - 1) + ") * " +
         std::to_string(kSwizzlePieceElements) + ") + " + element + ")";
}

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
