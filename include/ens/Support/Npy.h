//===- Npy.h - NumPy .npy files for host tensors ----------------*- C++ -*-===//
//
// Reads and writes HostTensors in NumPy's .npy format (format versions 1.0,
// 2.0 and 3.0), so that inputs and results can be exchanged with Python.
// Only little-endian, C-order arrays of the dtypes <f2, <f4, <f8, <i4 and |b1
// are supported; bf16 has no .npy dtype. Integer arrays of other widths
// (|i1, |u1, <i2, <u2, <u4, <i8, <u8: NumPy's default integer is <i8) are
// read as i32 when every element fits, and are an error naming the first
// that does not otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_NPY_H
#define ENS_SUPPORT_NPY_H

#include "ens/Support/HostTensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::ens {

/// Reads the .npy file at `path`. Error messages start with `path`. Only a
/// regular file within getDefaultMaxBufferBytes() is read: a device such as
/// /dev/zero, a FIFO or a directory is an error, and nothing blocks.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);

/// Decodes the contents of a .npy file. Any malformed input, or an array
/// whose decoded values exceed getDefaultMaxBufferBytes(), gives an error
/// (never a crash); its message starts with `nameForErrors`.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                    llvm::StringRef nameForErrors);

/// Encodes `tensor` as the contents of a .npy file (format version 1.0, or
/// 2.0 if the header does not fit). Fails for bf16, which has no .npy dtype.
llvm::Expected<std::string> serializeNpy(const HostTensor &tensor);

/// Writes `tensor` to the .npy file at `path` with writeFileAtomically, so
/// that a failure (a full disk, say) leaves the previous file, or none, and
/// never a truncated one. "-" means stdout.
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

} // namespace mlir::ens

#endif // ENS_SUPPORT_NPY_H
