//===- SharedMemory.h - A block's dynamic shared memory ---------*- C++ -*-===//
//
// Private to the CUDA backend: the allocation of the dynamic shared memory
// of a block that computes one member, apart from the decisions of what
// goes there (Planning.h). Temporaries are placed by liveness under a
// budget; the operands an op stages go after them, one op at a time.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_SHAREDMEMORY_H
#define ENS_LIB_BACKEND_CUDA_SHAREDMEMORY_H

#include "ens/Backend/Liveness.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::ens::cuda {

/// The most dynamic shared memory a block may use: what sm_80 lets a kernel
/// opt into (sm_90 allows 227 KiB), less 2 KiB for the static scratch of
/// block reductions. A loop's temporaries beyond it live in global memory.
inline constexpr int64_t kSharedMemoryBudget = 161 * 1024;

/// The alignment of each buffer in shared memory.
inline constexpr int64_t kSharedAlignment = 16;

/// Swizzled rows: a temporary in shared memory of 4-byte elements whose
/// rows are whole multiples of this many elements (the 32 banks) may store
/// the 16-byte piece c of row r at piece c ^ (r % 8) of its row. A warp
/// whose lanes read one column of up to 8 consecutive rows (a register
/// tile's rows, the seed step's h in its second layer) then reads 8
/// different groups of 4 banks instead of one bank 8 times; a row's
/// pieces stay whole, so 64- and 128-bit accesses stay aligned.
inline constexpr int64_t kSwizzleRowElements = 32;
inline constexpr int64_t kSwizzlePieceElements = 4;
inline constexpr int64_t kSwizzleRows = 8;

/// Whether a temporary of `shape` with elements of `elementBytes` bytes
/// may have swizzled rows: 4-byte elements, at least two rows, each a
/// multiple of kSwizzleRowElements.
bool canSwizzleRows(llvm::ArrayRef<int64_t> shape, int64_t elementBytes);

/// The column at which a swizzled temporary stores column `col` of row
/// `row`.
inline int64_t getSwizzledColumn(int64_t row, int64_t col) {
  return col ^ (row % kSwizzleRows * kSwizzlePieceElements);
}

/// The C++ expression of getSwizzledColumn for the expressions `row` and
/// `col` of a kernel's indices (never negative).
std::string getSwizzledIndex(llvm::StringRef row, llvm::StringRef col);

/// Where the temporaries of a loop over members go in shared memory.
struct SharedAllocation {
  /// Per temporary, its byte offset, or nothing when it does not fit and
  /// lives in global memory.
  llvm::SmallVector<std::optional<int64_t>> offsets;
  /// The bytes the placed temporaries need together.
  int64_t peak = 0;
};

/// Places `temporaries` (live ranges over the ops of a loop body) first fit
/// in order; while the peak exceeds the budget, the largest temporary still
/// in shared memory moves out of it.
SharedAllocation allocateSharedMemory(llvm::ArrayRef<LiveRange> temporaries);

/// The operands that one op at a time stages into shared memory: each op's
/// start after the temporaries, one after another, within the budget.
class StagingArea {
public:
  /// An area after `temporaryBytes` of temporaries.
  explicit StagingArea(int64_t temporaryBytes);

  /// Starts the operands of the next op.
  void beginOp() { used = 0; }

  /// The offset of `bytes` more for the current op, or nothing when they
  /// would pass the budget.
  std::optional<int64_t> allocate(int64_t bytes);

  /// The dynamic shared memory a block needs: the temporaries, and the
  /// operands of the op that stages most after them.
  int64_t getSharedBytes(int64_t temporaryBytes) const {
    return peak ? start + peak : temporaryBytes;
  }

private:
  int64_t start;
  int64_t used = 0, peak = 0;
};

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_SHAREDMEMORY_H
