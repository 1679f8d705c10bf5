//===- Files.h - How ens-train reads and writes files -----------*- C++ -*-===//
//
// Every file ens-train reads (the model, the data, a checkpoint) comes from
// outside, so it is read with readFileBounded: a regular file only, opened
// without blocking and at most a given size, so that a device such as
// /dev/zero, a FIFO or a directory is one clear error. Every file it writes
// goes through writeFileAtomically, so that a failed write keeps the
// previous file.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_FILES_H
#define ENS_TRAIN_FILES_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ens::train {

/// Reads the regular file at `path`, of at most `maxBytes` bytes; throws
/// Failure("cannot read <what> <path>: <reason>") otherwise.
std::string readInputFile(const std::string &path, const std::string &what,
                          uint64_t maxBytes);

/// Replaces the file at `path` by `contents` atomically; throws
/// Failure("cannot write <what> <path>: <reason>") and keeps the previous
/// file if that fails.
void writeOutputFile(const std::string &path, const std::string &contents,
                     const std::string &what);

/// A file a run reads, and what it is, for messages ("data", "model").
struct RunInput {
  std::string what, path;
};

/// Throws Failure when `path`, where the run writes its `what`, is the same
/// file as one of `inputs`, which writing would replace: compared by file
/// identity (device and inode), so that another spelling of the path, a
/// symbolic or a hard link is caught too. Inputs with an empty path are
/// skipped.
void refuseOutputOverInput(const std::string &path, const std::string &what,
                           const std::vector<RunInput> &inputs);

/// Sends what this process writes to stdout to /dev/null from now on (the
/// processes of a distributed run but the first). Throws Failure if it
/// cannot.
void discardStandardOutput();

} // namespace ens::train

#endif // ENS_TRAIN_FILES_H
