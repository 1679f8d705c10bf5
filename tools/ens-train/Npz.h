//===- Npz.h - NumPy .npz archives ------------------------------*- C++ -*-===//
//
// Reads and writes NumPy's .npz files: ZIP archives with one .npy file per
// array, "<name>.npy". Only stored (uncompressed) entries are supported, as
// np.savez writes them; np.savez_compressed's deflated entries are reported
// as an error. ZIP64 sizes and offsets, which np.savez uses, are read.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_NPZ_H
#define ENS_TRAIN_NPZ_H

#include "ens/Support/HostTensor.h"

#include <string>
#include <utility>
#include <vector>

namespace ens_train {

/// An array of an archive and its name (the entry's name without ".npy").
using NamedArray = std::pair<std::string, mlir::ens::HostTensor>;

/// Reads every array of the .npz file at `path`; throws Failure with a
/// message naming `path` for an unreadable, malformed or compressed file.
std::vector<NamedArray> readNpz(const std::string &path);

/// Decodes the contents of a .npz file; messages start with `name`.
std::vector<NamedArray> parseNpz(const std::string &bytes,
                                 const std::string &name);

/// Encodes `arrays` as the contents of an uncompressed .npz file that
/// np.load reads. The same arrays always give the same bytes.
std::string serializeNpz(const std::vector<NamedArray> &arrays);

} // namespace ens_train

#endif // ENS_TRAIN_NPZ_H
