//===- KernelCache.h - Compiled kernels in memory and on disk ---*- C++ -*-===//
//
// The cache of NVRTC's results, in memory and in ens's on-disk cache
// (ens/Support/DiskCache.h).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_KERNELCACHE_H
#define ENS_BACKEND_CUDA_KERNELCACHE_H

#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Support/DiskCache.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>
#include <string>

namespace mlir::ens::cuda {

/// Compiled kernels by a hash of what determines them (source,
/// architecture, NVRTC options and version, ens version), in memory and on
/// disk with one file per entry. The file is accepted only if it is a
/// regular file of the user's, no larger than a cap, and a whole entry with
/// the right checksum and key; anything else (truncated, corrupted, another
/// key, a link, a FIFO) is ignored and rebuilt, and the new entry replaces
/// it atomically, so concurrent threads and processes never read a partial
/// entry. A directory that cannot be written only costs the disk half.
class KernelCache {
public:
  /// A cache in `directory` (the "nvrtc" subdirectory holds the files), or
  /// in memory only when it is empty.
  explicit KernelCache(std::string directory);

  /// The process's cache, in getCacheDirectory().
  static KernelCache &getDefault();

  /// The kernels of `source` for `arch`, compiled by NVRTC on a miss.
  llvm::Expected<CompiledCuda> compile(StringRef source, StringRef name,
                                       StringRef arch);

  /// The entry for `key`, made by `compiler` on a miss. Failures are not
  /// cached. A cache directory that is not private is an error.
  llvm::Expected<CompiledCuda>
  getOrCompile(StringRef key,
               llvm::function_ref<llvm::Expected<CompiledCuda>()> compiler);

  /// The file of the entry for `key`.
  std::string getEntryPath(StringRef key) const;

private:
  std::string directory;
  std::mutex mutex;
  llvm::StringMap<CompiledCuda> entries;
};

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_KERNELCACHE_H
