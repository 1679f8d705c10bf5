//===- IndexViews.h - How kernels reach memrefs -----------------*- C++ -*-===//
//
// Private to the CUDA backend. Views (subview, collapse and expand shape,
// cast) alias their source buffer; a kernel reaches every memref as a base
// pointer (a kernel parameter or a pointer into shared memory) with the
// view's offset and strides folded into its index arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_INDEXVIEWS_H
#define ENS_LIB_BACKEND_CUDA_INDEXVIEWS_H

#include "KernelBody.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlir::ens::cuda {

/// Where the memrefs of the function, and of the loop over members being
/// compiled, live.
class BufferViews {
public:
  /// Makes plan buffer `buffer`, of elements of `elementType`, a parameter
  /// of the kernel being written, and returns the parameter's name.
  using BindParam =
      llvm::function_ref<std::string(int64_t buffer, Type elementType)>;

  /// How a kernel reaches `memref`, binding the buffer it views with
  /// `bindParam` if it is in global memory.
  llvm::Expected<Access> getAccess(Value memref, BindParam bindParam) const;

  /// Where `memref` starts in the plan buffer in global memory that it is
  /// or views, in elements: a constant plus a multiple of the member index
  /// (the elements of one member's slice). None if it is not in global
  /// memory or starts at a computed place.
  struct Place {
    int64_t buffer;
    int64_t offset = 0, memberStride = 0;
  };
  std::optional<Place> getPlace(Value memref) const;

  /// The plan buffer in global memory that `memref` is or views, if any.
  std::optional<int64_t> getGlobalBuffer(Value memref) const;

  /// Forgets the temporaries of the loop over members just compiled.
  void endMemberLoop();

  /// The plan buffer of each memref that is not a view: arguments,
  /// allocations, globals.
  DenseMap<Value, int64_t> bufferOf;
  /// The temporaries of the loop being compiled that live in shared memory:
  /// the name of their pointer.
  DenseMap<Value, std::string> sharedName;
  /// Of those, the temporaries whose rows are swizzled
  /// (TemporaryConfig::swizzled).
  DenseSet<Value> swizzled;
  /// The temporaries of the loop being compiled that live in global memory:
  /// the elements of one member's slice.
  DenseMap<Value, int64_t> memberSlice;
  /// Temporaries of the loop being compiled that are never in memory: the
  /// results of contractions that epilogues consume.
  DenseSet<Value> inRegisters;
  /// The member index of the loop being compiled, called `m` in its kernel.
  Value memberIndex;
};

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_INDEXVIEWS_H
