//===- FileIO.h - Durable writes and bounded reads --------------*- C++ -*-===//
//
// The one write discipline of ens for anything it must not lose or tear
// (results, checkpoints, caches, artifacts) and the one way it reads a file
// it does not trust (inputs, cache entries, artifacts): opened once,
// checked by descriptor, bounded in size. The compiler uses them through
// ens/Support/FileSystem.h.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_FILEIO_H
#define ENS_RUNTIME_FILEIO_H

#include "ens/Runtime/Error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ens::runtime {

/// Writes `contents` to `path` so that `path` afterwards holds either its
/// previous contents or all of `contents`, also across a crash or a power
/// loss: a temporary file in the same directory, created with O_EXCL, is
/// written, fsynced and renamed over `path`, then the directory is fsynced.
/// On any failure (a full disk, say) the temporary file is removed, `path`
/// is untouched, and the error names the path and the reason. `mode` is the
/// new file's permission bits (before the umask). A `path` that names an
/// existing device (such as /dev/null) is written in place instead:
/// renaming over it would replace the device with a regular file. A FIFO or
/// a socket is replaced, as a file that someone put in place of one ens
/// manages (a checkpoint's, a cache's), and so is a symbolic link, unless
/// `fifos` says to write into it, as a tool does with an output its user
/// named (`ens-opt -o FIFO`, `-o /dev/stdout` into a pipe): links are then
/// followed, and a FIFO waits for a reader, as any write to one does. A
/// directory is an error.
enum class FifoPolicy { Replace, WriteInto };
Error writeFileAtomically(const std::string &path, std::string_view contents,
                          unsigned mode = 0644,
                          FifoPolicy fifos = FifoPolicy::Replace);

/// Flushes the directory entry changes of `directory` to disk.
Error syncDirectory(const std::string &directory);

/// How readRegularFile checks the file before it reads it.
struct ReadOptions {
  /// Files larger than this are refused before anything is read.
  uint64_t maxBytes = uint64_t(1) << 32;
  /// Refuse a symbolic link as the last component (O_NOFOLLOW).
  bool noFollow = false;
  /// Refuse a file that is not owned by the current user.
  bool requireOwner = false;
};

/// Reads the regular file at `path`. The file is opened once without
/// blocking (a FIFO cannot hang the reader) and every check is made on the
/// open descriptor: a regular file, at most `options.maxBytes`, and the
/// owner if asked. Errors start with `path`.
Expected<std::string> readRegularFile(const std::string &path,
                                      const ReadOptions &options = {});

} // namespace ens::runtime

#endif // ENS_RUNTIME_FILEIO_H
