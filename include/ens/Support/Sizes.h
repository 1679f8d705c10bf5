//===- Sizes.h - Checked shape products and buffer-size limits --*- C++ -*-===//
//
// Every component that turns a shape into an element count or a byte count
// goes through these functions, so that an overflowing shape is an error
// naming the value and the shape, never a wrapped product handed to code
// that writes past a buffer. The buffer-size limit every backend applies is
// defined here too.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_SIZES_H
#define ENS_SUPPORT_SIZES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::ens {

/// Formats `shape` for messages as in an MLIR type, e.g. "3x4" ("[]" for
/// rank 0, "?" for a dynamic size).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// The number of elements of `shape`, or an error naming `what` and the
/// shape when a size is negative (dynamic) or the product overflows int64.
llvm::Expected<int64_t> getCheckedNumElements(llvm::ArrayRef<int64_t> shape,
                                              llvm::StringRef what);

/// The bytes that `shape` elements of `elementBytes` each occupy, with the
/// same checks as getCheckedNumElements.
llvm::Expected<int64_t> getCheckedByteSize(llvm::ArrayRef<int64_t> shape,
                                           int64_t elementBytes,
                                           llvm::StringRef what);

/// `a + b`, or an error naming `what` when the sum overflows int64.
llvm::Expected<int64_t> getCheckedSum(int64_t a, int64_t b,
                                      llvm::StringRef what);

/// The default for the largest buffer a backend allocates: half of the
/// physical memory, and at most half of the address-space limit
/// (RLIMIT_AS) when one is set. `ENS_MAX_BUFFER_BYTES` in the environment
/// overrides it (for tests and for machines whose memory is shared).
int64_t getDefaultMaxBufferBytes();

/// An error unless `bytes` is at most `limit` (a `limit` of 0 means
/// getDefaultMaxBufferBytes()). The message names `what`, both sizes and
/// how to raise the limit.
llvm::Error checkBufferBytes(int64_t bytes, int64_t limit,
                             llvm::StringRef what);

/// Formats a byte count for messages, e.g. "40.0 GB (40000000000 bytes)".
std::string formatBytes(int64_t bytes);

} // namespace mlir::ens

#endif // ENS_SUPPORT_SIZES_H
