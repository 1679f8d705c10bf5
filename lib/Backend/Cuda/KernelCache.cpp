//===- KernelCache.cpp - Compiled kernels in memory and on disk -----------===//
//
// An entry is one file named by its key:
//
//   "ENSKC001"                        magic, 8 bytes
//   key, arch, log, cubin lengths     4 x uint64, little-endian
//   checksum                          uint64, xxh3 of the four fields
//   key, arch, log, cubin             the fields
//
// A reader accepts a file only if its magic, its size, its key and its
// checksum are right; anything else (truncated, corrupted, another key) is
// a miss, and the rebuilt entry replaces the file.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CudaBackend.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <array>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

static constexpr StringLiteral kMagic = "ENSKC001";
static constexpr size_t kHeaderBytes = 8 + 5 * 8;

/// The checksum of an entry's fields.
static uint64_t checksum(ArrayRef<StringRef> fields) {
  std::string all;
  for (StringRef field : fields)
    all += field;
  return llvm::xxh3_64bits(StringRef(all));
}

KernelCache::KernelCache(std::string directory)
    : directory(std::move(directory)) {}

KernelCache &KernelCache::getDefault() {
  static KernelCache cache([] {
    llvm::SmallString<128> path;
    if (std::optional<std::string> dir =
            llvm::sys::Process::GetEnv("ENS_CACHE_DIR"))
      return *dir;
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
  }());
  return cache;
}

std::string KernelCache::getEntryPath(StringRef key) const {
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, "nvrtc", key + ".cubin");
  return std::string(path);
}

std::optional<CompiledCuda> KernelCache::readEntry(StringRef key) const {
  if (directory.empty())
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(getEntryPath(key), /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return std::nullopt;
  StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < kHeaderBytes || !bytes.starts_with(kMagic))
    return std::nullopt;
  const char *header = bytes.data() + kMagic.size();
  std::array<uint64_t, 4> lengths;
  uint64_t total = kHeaderBytes;
  for (auto [i, length] : llvm::enumerate(lengths)) {
    length = llvm::support::endian::read64le(header + 8 * i);
    if (length > bytes.size())
      return std::nullopt;
    total += length;
  }
  if (total != bytes.size())
    return std::nullopt;
  std::array<StringRef, 4> fields;
  size_t offset = kHeaderBytes;
  for (auto [field, length] : llvm::zip(fields, lengths)) {
    field = bytes.substr(offset, length);
    offset += length;
  }
  if (fields[0] != key ||
      llvm::support::endian::read64le(header + 32) != checksum(fields))
    return std::nullopt;
  CompiledCuda entry;
  entry.arch = fields[1].str();
  entry.log = fields[2].str();
  entry.cubin = fields[3].str();
  entry.origin = CacheOrigin::Disk;
  return entry;
}

void KernelCache::writeEntry(StringRef key, const CompiledCuda &entry) const {
  if (directory.empty())
    return;
  std::string path = getEntryPath(key);
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return;
  std::array<StringRef, 4> fields = {key, entry.arch, entry.log, entry.cubin};
  std::string bytes(kMagic);
  auto append = [&](uint64_t value) {
    char buffer[8];
    llvm::support::endian::write64le(buffer, value);
    bytes.append(buffer, 8);
  };
  for (StringRef field : fields)
    append(field.size());
  append(checksum(fields));
  for (StringRef field : fields)
    bytes += field;
  // A unique name, then a rename: readers see the old file or the whole
  // new one.
  int fd;
  llvm::SmallString<128> partial;
  if (llvm::sys::fs::createUniqueFile(path + ".partial-%%%%%%%%", fd,
                                      partial))
    return;
  bool written;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    written = !os.has_error();
    os.clear_error();
  }
  if (!written || llvm::sys::fs::rename(partial, path))
    llvm::sys::fs::remove(partial);
}

llvm::Expected<CompiledCuda> KernelCache::getOrCompile(
    StringRef key,
    llvm::function_ref<llvm::Expected<CompiledCuda>()> compiler) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = entries.find(key);
    if (it != entries.end()) {
      CompiledCuda entry = it->second;
      entry.origin = CacheOrigin::Memory;
      return entry;
    }
  }
  // Reading and compiling happen outside the lock: threads that miss the
  // same key at once each compile it, and all get the same result.
  std::optional<CompiledCuda> entry = readEntry(key);
  if (!entry) {
    llvm::Expected<CompiledCuda> compiled = compiler();
    if (!compiled)
      return compiled.takeError();
    compiled->origin = CacheOrigin::Compiled;
    writeEntry(key, *compiled);
    entry = std::move(*compiled);
  }
  std::lock_guard<std::mutex> lock(mutex);
  entries.try_emplace(key, *entry);
  return *entry;
}
