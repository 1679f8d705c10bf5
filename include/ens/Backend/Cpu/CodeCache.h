//===- CodeCache.h - Compiled CPU code on disk ------------------*- C++ -*-===//
//
// The CPU backend's persistent cache: the shared object that
// cpu::compileCpuObject builds for a function, kept in the "cpu"
// subdirectory of ens's cache directory (ens/Support/DiskCache.h, which
// states its guarantees) and loaded by the runtime's CPU runner in later
// processes, so that they skip the compile.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CPU_CODECACHE_H
#define ENS_BACKEND_CPU_CODECACHE_H

#include "ens/Backend/CpuBackend.h"
#include "ens/Runtime/Runner.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::ens::cpu {

/// The CPU a compile is for: LLVM's name of it, its features
/// ("+avx2,+avx512f,-amx-tile,...") and the size of a core's L2 cache in
/// bytes, which the CPU pipeline's loops are planned for.
struct HostCpu {
  std::string name;
  std::string features;
  int64_t l2Bytes = 0;
};

/// This process's CPU.
llvm::Expected<HostCpu> getHostCpu();

/// The key of the code of `entry` of `module` compiled with `options` for
/// `host`: a hash of the module's text, the entry, the options as they
/// resolve here (threads, the OpenMP runtime, the buffer limit), the host,
/// and the builds of ens and LLVM that compile it. Empty when the build of
/// either cannot be told, so that no entry outlives the compiler that made
/// it.
std::string getCodeCacheKey(ModuleOp module, StringRef entry,
                            const CpuOptions &options, const HostCpu &host);

/// Where cached code came from.
enum class CodeOrigin {
  /// A valid entry of the cache.
  Disk,
  /// Compiled now, and stored.
  Compiled,
};

/// Loaded CPU code.
struct CachedCode {
  std::unique_ptr<::ens::runtime::Runner> runner;
  /// The threads the code runs on.
  unsigned threads;
  CodeOrigin origin;
};

/// The code of `entry` of `module` compiled with `options` for this host,
/// loaded from the cache in `cacheDirectory` or compiled, stored there and
/// loaded. An entry is loaded only if it is valid (DiskCache) and its
/// object was compiled for the function's signature; anything else is
/// compiled again and replaced. std::nullopt when the cache cannot serve:
/// an empty `cacheDirectory` or one that cannot be created, no host
/// compiler to link the object with, a build of ens or LLVM that cannot be
/// told, or a compile that fails (the JIT then compiles, and reports the
/// failure). A cache directory that is not the user's private one is an
/// error.
llvm::Expected<std::optional<CachedCode>>
loadOrCompileCode(ModuleOp module, StringRef entry, const CpuOptions &options,
                  StringRef cacheDirectory);

} // namespace mlir::ens::cpu

#endif // ENS_BACKEND_CPU_CODECACHE_H
