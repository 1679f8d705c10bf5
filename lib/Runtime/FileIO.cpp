//===- FileIO.cpp - Durable writes and bounded reads ----------------------===//
//
// POSIX calls, because the guarantees depend on details that portable
// layers (llvm::sys::fs, std::filesystem) do not expose: O_EXCL and
// O_NOFOLLOW on open, fsync of the file and of its directory, and fstat on
// the descriptor that is then read.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/FileIO.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace ens::runtime;

/// An error "<what> <path>: <strerror(errno)>".
static Error errnoError(const std::string &what, const std::string &path) {
  return Error(what + " " + path + ": " + std::strerror(errno));
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
static bool writeAll(int fd, std::string_view bytes) {
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

Error ens::runtime::syncDirectory(const std::string &directory) {
  std::string path = directory.empty() ? "." : directory;
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0)
    return errnoError("cannot open directory", path);
  if (::fsync(fd.get()) != 0)
    return errnoError("cannot sync directory", path);
  return Error::success();
}

/// Writes `contents` into the existing special file `path` (a device, a
/// FIFO), which has no contents to keep and must not be replaced.
static Error writeSpecialFile(const std::string &path,
                              std::string_view contents) {
  int rawFd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (rawFd < 0)
    return errnoError("cannot open", path);
  FileDescriptor fd(rawFd);
  if (!writeAll(fd.get(), contents) || !fd.close())
    return errnoError("cannot write", path);
  return Error::success();
}

Error ens::runtime::writeFileAtomically(const std::string &path,
                                        std::string_view contents,
                                        unsigned mode, FifoPolicy fifos) {
  // A link is followed only for an output a user named (/dev/stdout is
  // one): a link planted in ens's own files is replaced like any file.
  struct stat existing;
  int found = fifos == FifoPolicy::WriteInto ? ::stat(path.c_str(), &existing)
                                             : ::lstat(path.c_str(), &existing);
  if (found == 0) {
    if (S_ISDIR(existing.st_mode))
      return Error(path + " is a directory");
    if (S_ISCHR(existing.st_mode) || S_ISBLK(existing.st_mode) ||
        (fifos == FifoPolicy::WriteInto && !S_ISREG(existing.st_mode)))
      return writeSpecialFile(path, contents);
  }
  size_t slash = path.find_last_of('/');
  std::string directory = slash == std::string::npos
                              ? ""
                              : path.substr(0, std::max<size_t>(slash, 1));
  std::random_device entropy;
  std::string temporary;
  int rawFd = -1;
  // O_EXCL: a name someone else created (or planted) is never written
  // through; a fresh random name is tried instead.
  for (int attempt = 0; attempt < 16 && rawFd < 0; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof(suffix), ".tmp-%08x%08x", entropy(),
                  entropy());
    temporary = path + suffix;
    rawFd = ::open(temporary.c_str(),
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (rawFd < 0 && errno != EEXIST)
      return errnoError("cannot create", temporary);
  }
  if (rawFd < 0)
    return errnoError("cannot create", temporary);
  FileDescriptor fd(rawFd);
  auto fail = [&](Error error) {
    ::unlink(temporary.c_str());
    return error;
  };
  if (!writeAll(fd.get(), contents))
    return fail(errnoError("cannot write", path));
  if (::fsync(fd.get()) != 0)
    return fail(errnoError("cannot write", path));
  if (!fd.close())
    return fail(errnoError("cannot write", path));
  if (::rename(temporary.c_str(), path.c_str()) != 0)
    return fail(errnoError("cannot replace", path));
  return syncDirectory(directory);
}

Expected<std::string>
ens::runtime::readRegularFile(const std::string &path,
                              const ReadOptions &options) {
  int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
  if (options.noFollow)
    flags |= O_NOFOLLOW;
  FileDescriptor fd(::open(path.c_str(), flags));
  if (fd.get() < 0)
    return errnoError("cannot open", path);
  struct stat status;
  if (::fstat(fd.get(), &status) != 0)
    return errnoError("cannot inspect", path);
  if (!S_ISREG(status.st_mode))
    return Error(path + ": not a regular file");
  if (options.requireOwner && status.st_uid != ::geteuid())
    return Error(path + ": owned by another user");
  uint64_t size = static_cast<uint64_t>(status.st_size);
  if (size > options.maxBytes)
    return Error(path + ": " + std::to_string(size) +
                 " bytes, over the limit of " +
                 std::to_string(options.maxBytes) + " bytes");
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
    return Error(path + ": changed while it was read");
  return bytes;
}
