//===- KernelCache.cpp - Compiled kernels in memory and on disk -----------===//
//
// The disk half is a DiskCache (DiskCache.h, which states its guarantees)
// in the "nvrtc" subdirectory of the cache directory: one file
// `<key>.cubin` per entry, with the fields architecture, log and image (CUBIN,
// or PTX) after the key. A file that is not a valid entry for its key is a
// miss, and the rebuilt entry replaces it.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/KernelCache.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The magic of an entry: "KC" for kernel cache, then the format version.
static constexpr StringLiteral kMagic = "ENSKC002";

KernelCache::KernelCache(std::string directory)
    : directory(std::move(directory)) {}

KernelCache &KernelCache::getDefault() {
  static KernelCache cache(getCacheDirectory());
  return cache;
}

/// The disk half of the cache in `directory`.
static DiskCache getDiskCache(StringRef directory) {
  return DiskCache(directory, "nvrtc", ".cubin", kMagic);
}

std::string KernelCache::getEntryPath(StringRef key) const {
  return getDiskCache(directory).getEntryPath(key);
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
  DiskCache disk = getDiskCache(directory);
  llvm::Expected<bool> usable = disk.open();
  if (!usable)
    return usable.takeError();
  std::optional<CompiledCuda> entry;
  if (*usable)
    if (std::optional<std::vector<std::string>> fields = disk.read(key, 3)) {
      entry.emplace();
      entry->arch = std::move((*fields)[0]);
      entry->log = std::move((*fields)[1]);
      entry->image = std::move((*fields)[2]);
      entry->origin = CacheOrigin::Disk;
    }
  if (!entry) {
    llvm::Expected<CompiledCuda> compiled = compiler();
    if (!compiled)
      return compiled.takeError();
    compiled->origin = CacheOrigin::Compiled;
    if (*usable)
      disk.write(key, {compiled->arch, compiled->log, compiled->image});
    entry = std::move(*compiled);
  }
  std::lock_guard<std::mutex> lock(mutex);
  entries.try_emplace(key, *entry);
  return *entry;
}
