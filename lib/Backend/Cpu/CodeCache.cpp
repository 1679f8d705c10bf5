//===- CodeCache.cpp - Compiled CPU code on disk --------------------------===//
//
// One DiskCache entry `cpu/<key>.so` per compiled function, with two fields
// after the key: the threads the code runs on, in decimal, and the shared
// object of compileCpuObject. A hit is loaded through the runtime's CPU
// runner, which checks the object's ens_cpu_signature against the
// function's before it calls anything; a miss compiles the object, loads it
// the same way, and stores it only once it has loaded. Hits and misses thus
// run the same code in the same way.
//
// The key hashes the module's text rather than the bytes the user wrote:
// the same function parsed from differently spelled sources (comments,
// spacing, generic or custom form) gets one entry. Large constants are
// printed in full, whatever the printing options of the process say.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/CodeCache.h"
#include "ens/Support/BuildId.h"
#include "ens/Support/DiskCache.h"
#include "ens/Support/HostCompiler.h"
#include "ens/Support/TensorTypes.h"

#include "CpuLowering.h"
#include "OpenMPRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <limits>

#define DEBUG_TYPE "ens-cpu-cache"

using namespace mlir;
using namespace mlir::ens;
namespace rt = ::ens::runtime;

/// The magic of an entry: "CPU" code, then the format version.
static constexpr StringLiteral kMagic = "ENSCPU01";

llvm::Expected<cpu::HostCpu> cpu::getHostCpu() {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> host =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!host)
    return host.takeError();
  return HostCpu{host->getCPU(), host->getFeatures().getString(),
                 getHostL2Bytes()};
}

std::string cpu::getCodeCacheKey(ModuleOp module, StringRef entry,
                                 const CpuOptions &options,
                                 const HostCpu &host) {
  // Any function of each library: the builds that contain them.
  std::string ensBuild =
      getBuildId(reinterpret_cast<const void *>(&cpu::getCodeCacheKey));
  std::string llvmBuild =
      getBuildId(reinterpret_cast<const void *>(&llvm::sys::getHostCPUName));
  if (ensBuild.empty() || llvmBuild.empty())
    return std::string();
  unsigned threads = getRequestedThreads(options);
  std::optional<std::string> openMP;
  if (threads > 1)
    openMP = findOpenMPRuntime();
  std::string what;
  llvm::raw_string_ostream os(what);
  os << "ens cpu code\nens " ENS_VERSION " build " << ensBuild
     << "\nllvm " LLVM_VERSION_STRING " build " << llvmBuild << "\nhost "
     << host.name << ' ' << host.features << " l2 " << host.l2Bytes
     << "\nentry " << entry << "\nthreads " << threads << " openmp "
     << openMP.value_or("none") << "\nmax-buffer-bytes "
     << getMaxBufferBytes(options) << "\n";
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(std::numeric_limits<int64_t>::max());
  flags.elideLargeResourceString(std::numeric_limits<int64_t>::max());
  module->print(os, flags);
  return getCacheKey(what);
}

/// The runner of `object` for `signature`, or null (with the reason in the
/// debug output) if it does not load or was compiled for another signature.
static std::unique_ptr<rt::Runner> loadCode(const rt::Signature &signature,
                                            StringRef object) {
  rt::Expected<std::unique_ptr<rt::Runner>> runner =
      rt::createCpuRunner(signature, std::string_view(object));
  if (!runner) {
    LLVM_DEBUG(llvm::dbgs() << "cannot load the code: "
                            << runner.takeError().getMessage() << "\n");
    return nullptr;
  }
  return std::move(*runner);
}

llvm::Expected<std::optional<cpu::CachedCode>>
cpu::loadOrCompileCode(ModuleOp module, StringRef entry,
                       const CpuOptions &options, StringRef cacheDirectory) {
  // Whatever keeps the cache from serving leaves the function to the JIT,
  // which reports what is wrong with it.
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return std::nullopt;
  llvm::Expected<rt::Signature> signature =
      getRuntimeSignature(function.getFunctionType());
  if (!signature) {
    llvm::consumeError(signature.takeError());
    return std::nullopt;
  }
  DiskCache disk(cacheDirectory, "cpu", ".so", kMagic);
  llvm::Expected<bool> usable = disk.open();
  if (!usable)
    return usable.takeError();
  if (!*usable)
    return std::nullopt;
  llvm::Expected<HostCpu> host = getHostCpu();
  if (!host)
    return host.takeError();
  std::string key = getCodeCacheKey(module, entry, options, *host);
  if (key.empty())
    return std::nullopt;

  if (std::optional<std::vector<std::string>> fields = disk.read(key, 2)) {
    unsigned threads = 0;
    if (!StringRef((*fields)[0]).getAsInteger(10, threads) && threads > 0)
      if (std::unique_ptr<rt::Runner> runner =
              loadCode(*signature, (*fields)[1])) {
        LLVM_DEBUG(llvm::dbgs() << "hit " << key << "\n");
        return CachedCode{std::move(runner), threads, CodeOrigin::Disk};
      }
  }
  LLVM_DEBUG(llvm::dbgs() << "miss " << key << "\n");
  llvm::Expected<std::string> compiler = findHostCompiler("cached CPU code");
  if (!compiler) {
    llvm::consumeError(compiler.takeError());
    return std::nullopt;
  }
  llvm::Expected<CpuObject> built =
      buildCpuObject(module, entry, options, *compiler);
  if (!built) {
    llvm::Error failure = built.takeError();
    LLVM_DEBUG(llvm::dbgs() << "cannot build the code: "
                            << llvm::toString(std::move(failure)) << "\n");
    llvm::consumeError(std::move(failure));
    return std::nullopt;
  }
  std::unique_ptr<rt::Runner> runner = loadCode(*signature, built->bytes);
  if (!runner)
    return std::nullopt;
  disk.write(key, {std::to_string(built->threads), built->bytes});
  return CachedCode{std::move(runner), built->threads, CodeOrigin::Compiled};
}
