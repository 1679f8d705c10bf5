//===- FileSystem.cpp - Durable writes and bounded reads ------------------===//
//
// POSIX calls rather than llvm::sys::fs, because the guarantees depend on
// details that layer does not expose: O_EXCL and O_NOFOLLOW on open, fsync
// of the file and of its directory, and fstat on the descriptor that is
// then read.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/FileSystem.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::ens;

/// An error "<what> <path>: <strerror(errno)>".
static llvm::Error errnoError(llvm::StringRef what, llvm::StringRef path) {
  return llvm::createStringError(
      llvm::formatv("{0} {1}: {2}", what, path, std::strerror(errno)));
}

namespace {
/// A file descriptor closed when it goes out of scope.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : fd(fd) {}
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
  int get() const { return fd; }
  /// Closes now; false if close reported an error (a delayed write error).
  bool close() {
    int result = ::close(fd);
    fd = -1;
    return result == 0;
  }

private:
  int fd;
};
} // namespace

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR.
static bool writeAll(int fd, llvm::StringRef bytes) {
  const char *data = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  return true;
}

llvm::Error mlir::ens::syncDirectory(llvm::StringRef directory) {
  std::string path = directory.empty() ? "." : directory.str();
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0)
    return errnoError("cannot open directory", path);
  if (::fsync(fd.get()) != 0)
    return errnoError("cannot sync directory", path);
  return llvm::Error::success();
}

llvm::Error mlir::ens::writeFileAtomically(llvm::StringRef path,
                                           llvm::StringRef contents,
                                           unsigned mode) {
  llvm::StringRef directory = llvm::sys::path::parent_path(path);
  std::random_device entropy;
  std::string temporary;
  int rawFd = -1;
  // O_EXCL: a name someone else created (or planted) is never written
  // through; a fresh random name is tried instead.
  for (int attempt = 0; attempt < 16 && rawFd < 0; ++attempt) {
    temporary =
        llvm::formatv("{0}.tmp-{1:x-8}{2:x-8}", path, entropy(), entropy());
    rawFd = ::open(temporary.c_str(),
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (rawFd < 0 && errno != EEXIST)
      return errnoError("cannot create", temporary);
  }
  if (rawFd < 0)
    return errnoError("cannot create", temporary);
  FileDescriptor fd(rawFd);
  auto fail = [&](llvm::Error error) {
    ::unlink(temporary.c_str());
    return error;
  };
  if (!writeAll(fd.get(), contents))
    return fail(errnoError("cannot write", path));
  if (::fsync(fd.get()) != 0)
    return fail(errnoError("cannot write", path));
  if (!fd.close())
    return fail(errnoError("cannot write", path));
  if (::rename(temporary.c_str(), path.str().c_str()) != 0)
    return fail(errnoError("cannot replace", path));
  return syncDirectory(directory);
}

llvm::Expected<std::string>
mlir::ens::readFileBounded(llvm::StringRef path, const ReadOptions &options) {
  std::string pathText = path.str();
  int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
  if (options.noFollow)
    flags |= O_NOFOLLOW;
  FileDescriptor fd(::open(pathText.c_str(), flags));
  if (fd.get() < 0)
    return errnoError("cannot open", path);
  struct stat status;
  if (::fstat(fd.get(), &status) != 0)
    return errnoError("cannot inspect", path);
  if (!S_ISREG(status.st_mode))
    return llvm::createStringError(
        llvm::formatv("{0}: not a regular file", path));
  if (options.requireOwner && status.st_uid != ::geteuid())
    return llvm::createStringError(
        llvm::formatv("{0}: owned by another user", path));
  uint64_t size = static_cast<uint64_t>(status.st_size);
  if (size > options.maxBytes)
    return llvm::createStringError(
        llvm::formatv("{0}: {1} bytes, over the limit of {2} bytes", path, size,
                      options.maxBytes));
  std::string bytes(size, '\0');
  size_t done = 0;
  while (done < size) {
    ssize_t got = ::read(fd.get(), bytes.data() + done, size - done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return errnoError("cannot read", path);
    if (got == 0)
      break;
    done += static_cast<size_t>(got);
  }
  // A file that shrank while it was read is reported, not padded.
  if (done != size)
    return llvm::createStringError(
        llvm::formatv("{0}: changed while it was read", path));
  return bytes;
}

uint64_t mlir::ens::computeChecksum(llvm::StringRef bytes) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}
