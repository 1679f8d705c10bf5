//===- DiskCache.h - Private, verified cache files --------------*- C++ -*-===//
//
// The on-disk half of ens's caches (NVRTC's CUBIN in the CUDA backend's
// KernelCache.cpp, the emulator's shared objects in its Emulator.cpp),
// written once so that all give the same guarantees.
//
// Where. Each kind of entry has a subdirectory of the cache directory
// (getCacheDirectory). ens creates missing directories with mode 0700. An
// existing cache directory or subdirectory must be a directory, not a
// symbolic link, owned by the effective user and writable by no one else;
// otherwise the cache refuses to be used, with an error that names the
// directory and the reason. A directory that cannot be created (its parent
// is a file, a read-only file system) turns the disk cache off, which
// costs only the time to rebuild. The directories above the cache
// directory are not checked.
//
// What. One file per key, `<key><suffix>`:
//
//   magic                      8 bytes, one per kind and format version
//   N                          uint64, the number of fields
//   N field lengths            uint64 each
//   the fields                 the key first
//   checksum                   uint64, XXH3 of every byte before it
//
// All integers are little-endian. A read opens the file once, without
// following a symbolic link and without blocking, and accepts it only if
// the descriptor is a regular file owned by the effective user of at most
// kMaxCacheEntryBytes, and its bytes are a whole entry of the expected
// magic and field count, with the right checksum, for the key asked for.
// Anything else (missing, truncated, corrupted, another key, a link, a
// FIFO, a device, another user's file) is a miss: the caller rebuilds the
// entry and its write replaces the file. Writes go through
// writeFileAtomically (mode 0600): readers see the old file or the whole
// new one, also across a crash, and a failed write costs only the cache.
//
// How much. Each subdirectory keeps at most getCacheLimitBytes() of
// entries ($ENS_CACHE_MAX_BYTES, else 2 GiB). A write that takes it over
// the limit removes the least recently used entries (by modification time,
// which a hit renews) until three quarters of the limit remain, never the
// entry just written. Only files named like entries are counted or
// removed. Without the bound, every rebuilt ens (whose build ID is in the
// keys) would leave a full set of entries behind.
//
// The checksum detects corruption and foreign files; it is not a
// signature. What keeps others from planting an entry is that the
// directory and each file must be the user's own.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_DISKCACHE_H
#define ENS_SUPPORT_DISKCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ens {

/// The directory of ens's on-disk caches: $ENS_CACHE_DIR, else
/// $XDG_CACHE_HOME/ens, else ~/.cache/ens; empty (no disk cache) when none
/// of them can be named. Each cache keeps its entries in a subdirectory of
/// its own ("nvrtc", "emu"). ens creates missing directories with mode 0700
/// and uses existing ones only if they are real directories (not symbolic
/// links), owned by the effective user and writable by no one else:
/// otherwise a compile that would use the cache fails with an error that
/// names the directory. A directory that cannot be created costs only the
/// disk cache.
std::string getCacheDirectory();

/// The largest cache file ens reads or writes. A bigger result is used but
/// not cached.
constexpr uint64_t kMaxCacheEntryBytes = uint64_t(256) << 20;

/// The most bytes of entries one cache subdirectory keeps:
/// $ENS_CACHE_MAX_BYTES when it is a number, else 2 GiB.
uint64_t getCacheLimitBytes();

/// The key of a cache entry for what `what` describes: 128 bits of XXH3 as
/// 32 lowercase hex digits.
std::string getCacheKey(llvm::StringRef what);

/// One kind of entry in a subdirectory of a cache directory.
class DiskCache {
public:
  /// Entries `<root>/<subdirectory>/<key><suffix>` that start with
  /// `magic` (8 bytes). An empty `root` is a cache that is always off.
  DiskCache(llvm::StringRef root, llvm::StringRef subdirectory,
            llvm::StringRef suffix, llvm::StringRef magic);

  /// Creates the directories that are missing and checks them: true when
  /// entries can be read, false when the cache is off, an error when a
  /// directory is not the user's private one.
  llvm::Expected<bool> open() const;

  /// The file of the entry for `key`.
  std::string getEntryPath(llvm::StringRef key) const;

  /// The fields stored for `key` (without the key), if its file is a valid
  /// entry of `numFields` fields besides the key; std::nullopt is a miss.
  std::optional<std::vector<std::string>> read(llvm::StringRef key,
                                               size_t numFields) const;

  /// Stores `fields` for `key`, atomically replacing whatever the file
  /// was, then keeps the subdirectory within getCacheLimitBytes().
  /// Failures are ignored: they cost only the cache.
  void write(llvm::StringRef key, llvm::ArrayRef<llvm::StringRef> fields) const;

private:
  /// Removes the least recently used entries but `keep` while the entries
  /// take more than `limitBytes`, down to three quarters of it.
  void evict(llvm::StringRef keep, uint64_t limitBytes) const;

  std::string directory;
  std::string suffix;
  std::string magic;
};

} // namespace mlir::ens

#endif // ENS_SUPPORT_DISKCACHE_H
