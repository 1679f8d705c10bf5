//===- Npz.h - NumPy .npz archives for host tensors -------------*- C++ -*-===//
//
// Reads and writes NumPy's .npz files: ZIP archives with one .npy file per
// array, "<name>.npy". Only stored (uncompressed) entries are supported, as
// np.savez writes them; np.savez_compressed's deflated entries are reported
// as an error. ZIP64 sizes and offsets, which np.savez uses, are read.
//
// An archive comes from outside, so its central directory is checked before
// any entry is decoded: at most kMaxNpzEntries entries, each inside the
// file, no two sharing bytes. Decoding therefore costs at most what the file
// holds, however the directory is forged.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_NPZ_H
#define ENS_SUPPORT_NPZ_H

#include "ens/Support/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::ens {

/// An array of an archive and its name (the entry's name without ".npy").
using NamedArray = std::pair<std::string, HostTensor>;

/// The most entries an archive may have: an ens-train checkpoint has three
/// per parameter and a few more.
inline constexpr uint64_t kMaxNpzEntries = 65536;

/// Decodes every array of the contents of a .npz file. A malformed or
/// compressed archive, or one with two arrays of the same name, gives an
/// error whose message starts with `name`.
llvm::Expected<std::vector<NamedArray>> parseNpz(llvm::StringRef bytes,
                                                 llvm::StringRef name);

/// Reads the .npz file at `path` as readNpy reads a .npy file (a regular
/// file within the buffer limit) and decodes it.
llvm::Expected<std::vector<NamedArray>> readNpz(llvm::StringRef path);

/// Encodes `arrays` as the contents of an uncompressed .npz file that
/// np.load reads. The same arrays always give the same bytes. Fails for an
/// array that .npy cannot hold, or an archive past 4 GiB.
llvm::Expected<std::string> serializeNpz(llvm::ArrayRef<NamedArray> arrays);

} // namespace mlir::ens

#endif // ENS_SUPPORT_NPZ_H
