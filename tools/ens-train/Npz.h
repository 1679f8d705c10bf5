//===- Npz.h - NumPy .npz archives ------------------------------*- C++ -*-===//
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

#ifndef ENS_TRAIN_NPZ_H
#define ENS_TRAIN_NPZ_H

#include "ens/Support/HostTensor.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ens_train {

/// An array of an archive and its name (the entry's name without ".npy").
using NamedArray = std::pair<std::string, mlir::ens::HostTensor>;

/// The most entries an archive may have: a checkpoint has three per
/// parameter and four more.
inline constexpr uint64_t kMaxNpzEntries = 65536;

/// Decodes every array of the contents of a .npz file; throws Failure with
/// a message that starts with `name` for a malformed or compressed archive,
/// or one with two arrays of the same name.
std::vector<NamedArray> parseNpz(llvm::StringRef bytes,
                                 const std::string &name);

/// Encodes `arrays` as the contents of an uncompressed .npz file that
/// np.load reads. The same arrays always give the same bytes.
std::string serializeNpz(const std::vector<NamedArray> &arrays);

} // namespace ens_train

#endif // ENS_TRAIN_NPZ_H
