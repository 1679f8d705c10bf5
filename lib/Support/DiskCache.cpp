//===- DiskCache.cpp - Private, verified cache files ----------------------===//
//
// The guarantees are described in DiskCache.h. Reads and writes go through
// the one bounded reader and the one atomic writer of ens
// (ens/Support/FileSystem.h); this file adds where the files live, the
// checks of the directories and the format of an entry.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/DiskCache.h"
#include "ens/Support/FileSystem.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using llvm::ArrayRef;
using llvm::StringRef;
using llvm::Twine;
using namespace mlir::ens;

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string mlir::ens::getCacheDirectory() {
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("ENS_CACHE_DIR"))
    return *dir;
  llvm::SmallString<128> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    path = *xdg;
  } else if (llvm::sys::path::home_directory(path)) {
    llvm::sys::path::append(path, ".cache");
  } else {
    return std::string();
  }
  llvm::sys::path::append(path, "ens");
  return std::string(path);
}

uint64_t mlir::ens::getCacheLimitBytes() {
  uint64_t limit = 0;
  if (std::optional<std::string> text =
          llvm::sys::Process::GetEnv("ENS_CACHE_MAX_BYTES");
      text && !StringRef(*text).getAsInteger(10, limit))
    return limit;
  return uint64_t(2) << 30;
}

std::string mlir::ens::getCacheKey(StringRef what) {
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(
      ArrayRef(reinterpret_cast<const uint8_t *>(what.data()), what.size()));
  return llvm::utohexstr(hash.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(hash.low64, /*LowerCase=*/true, 16);
}

/// Whether `path` is now a directory the cache may use: true if so, false
/// if it does not exist (it could not be created), an error if it exists
/// but is not the effective user's private directory. lstat, so that a
/// symbolic link is judged as itself: a link planted in place of the
/// directory is refused rather than followed to wherever it points.
static llvm::Expected<bool> checkPrivateDirectory(StringRef path) {
  struct stat status;
  if (::lstat(path.str().c_str(), &status) != 0)
    return false;
  if (S_ISLNK(status.st_mode))
    return error(path + " is a symbolic link; ens's cache directory must be "
                        "a directory of the user's own");
  if (!S_ISDIR(status.st_mode))
    return error(path + " is not a directory");
  if (status.st_uid != ::geteuid() || (status.st_mode & (S_IWGRP | S_IWOTH)))
    return error(path + " belongs to another user or others can write it");
  return true;
}

DiskCache::DiskCache(StringRef root, StringRef subdirectory, StringRef suffix,
                     StringRef magic)
    : suffix(suffix), magic(magic) {
  assert(magic.size() == 8 && "a cache magic has 8 bytes");
  if (root.empty())
    return;
  llvm::SmallString<128> path(root);
  llvm::sys::path::append(path, subdirectory);
  directory = std::string(path);
}

llvm::Expected<bool> DiskCache::open() const {
  if (directory.empty())
    return false;
  StringRef root = llvm::sys::path::parent_path(directory);
  // Failures to create are judged by the checks that follow: whatever
  // exists must be private, and what is missing turns the cache off.
  (void)llvm::sys::fs::create_directories(directory, /*IgnoreExisting=*/true,
                                          llvm::sys::fs::perms::owner_all);
  for (StringRef path : {root, StringRef(directory)}) {
    llvm::Expected<bool> usable = checkPrivateDirectory(path);
    if (!usable || !*usable)
      return usable;
  }
  return true;
}

std::string DiskCache::getEntryPath(StringRef key) const {
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, key + suffix);
  return std::string(path);
}

/// Appends `value` to `bytes` as 8 little-endian bytes.
static void appendUInt64(std::string &bytes, uint64_t value) {
  char buffer[8];
  llvm::support::endian::write64le(buffer, value);
  bytes.append(buffer, 8);
}

std::optional<std::vector<std::string>>
DiskCache::read(StringRef key, size_t numFields) const {
  if (directory.empty())
    return std::nullopt;
  ReadOptions options;
  options.maxBytes = kMaxCacheEntryBytes;
  options.noFollow = true;
  options.requireOwner = true;
  llvm::Expected<std::string> file =
      readFileBounded(getEntryPath(key), options);
  if (!file) {
    // A miss: the rebuilt entry will replace whatever is there.
    llvm::consumeError(file.takeError());
    return std::nullopt;
  }
  // A hit renews the entry's time, which eviction orders by (a failure
  // costs only that order).
  (void)utimensat(AT_FDCWD, getEntryPath(key).c_str(), nullptr,
                  AT_SYMLINK_NOFOLLOW);
  StringRef bytes = *file;
  // The checksum first, so that the lengths parsed next are the ones that
  // were written; they are still bounded by the size, as a file of the
  // user's is not necessarily one ens wrote.
  size_t fields = numFields + 1;
  if (bytes.size() < magic.size() + 8 * (fields + 2) ||
      !bytes.starts_with(magic) ||
      llvm::support::endian::read64le(bytes.end() - 8) !=
          computeChecksum(bytes.drop_back(8)))
    return std::nullopt;
  bytes = bytes.drop_back(8).drop_front(magic.size());
  if (llvm::support::endian::read64le(bytes.data()) != fields)
    return std::nullopt;
  StringRef lengths = bytes.substr(8, 8 * fields);
  StringRef data = bytes.drop_front(8 * (fields + 1));
  std::vector<std::string> result;
  for (size_t i = 0; i < fields; ++i) {
    uint64_t length = llvm::support::endian::read64le(lengths.data() + 8 * i);
    if (length > data.size())
      return std::nullopt;
    StringRef field = data.take_front(length);
    data = data.drop_front(length);
    if (i == 0 && field != key)
      return std::nullopt;
    if (i > 0)
      result.push_back(field.str());
  }
  if (!data.empty())
    return std::nullopt;
  return result;
}

void DiskCache::write(StringRef key, ArrayRef<StringRef> fields) const {
  if (directory.empty())
    return;
  std::string bytes = magic;
  appendUInt64(bytes, fields.size() + 1);
  appendUInt64(bytes, key.size());
  for (StringRef field : fields)
    appendUInt64(bytes, field.size());
  bytes += key;
  for (StringRef field : fields)
    bytes += field;
  appendUInt64(bytes, computeChecksum(bytes));
  // An entry no read would accept is not worth the disk.
  if (bytes.size() > kMaxCacheEntryBytes)
    return;
  llvm::consumeError(writeFileAtomically(getEntryPath(key), bytes, 0600));
  evict(key, getCacheLimitBytes());
}

void DiskCache::evict(StringRef keep, uint64_t limitBytes) const {
  struct Entry {
    int64_t time;
    uint64_t bytes;
    std::string path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    // Entries only: a 32-digit key and the suffix (temporary files of
    // writes in flight end otherwise).
    if (!name.ends_with(suffix) || name.size() != 32 + suffix.size())
      continue;
    struct stat status;
    if (lstat(it->path().c_str(), &status) != 0 || !S_ISREG(status.st_mode))
      continue;
    total += status.st_size;
    if (!name.starts_with(keep))
      entries.push_back({static_cast<int64_t>(status.st_mtime),
                         static_cast<uint64_t>(status.st_size), it->path()});
  }
  if (total <= limitBytes)
    return;
  llvm::sort(entries,
             [](const Entry &a, const Entry &b) { return a.time < b.time; });
  for (const Entry &entry : entries) {
    if (total <= limitBytes / 4 * 3)
      break;
    if (!llvm::sys::fs::remove(entry.path))
      total -= entry.bytes;
  }
}
