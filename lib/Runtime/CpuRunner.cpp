//===- CpuRunner.cpp - CPU code of exported programs ----------------------===//
//
// Runs the shared object that mlir::ens::cpu::compileCpuObject builds
// (include/ens/Backend/CpuBackend.h gives its ABI): loaded from memory as
// the emulator's kernels are, given the buffer cache to allocate through,
// and called with one memref descriptor per argument and result over the
// caller's memory, as the JIT calls its code. The code writes the results
// in place and keeps nothing allocated, so there is nothing to copy back
// and nothing to free.
//
//===----------------------------------------------------------------------===//

#include "SharedObject.h"

#include "ens/Runtime/BufferCache.h"
#include "ens/Runtime/Runner.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>

using namespace ens::runtime;

namespace {
/// ens_cpu_init: the functions the code allocates and frees through.
using InitFunction = void (*)(void *(*)(uint64_t), void (*)(void *));
/// ens_cpu_entry: the addresses of the descriptors, arguments then results.
using EntryFunction = void (*)(void **);

/// The memref descriptor of dense row-major memory at `data` of `shape`:
/// allocated and aligned pointers, offset, sizes, strides.
std::vector<int64_t> makeDescriptor(const void *data,
                                    const std::vector<int64_t> &shape) {
  size_t rank = shape.size();
  std::vector<int64_t> descriptor(3 + 2 * rank);
  std::memcpy(&descriptor[0], &data, sizeof(void *));
  std::memcpy(&descriptor[1], &data, sizeof(void *));
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    descriptor[3 + d] = shape[d];
    descriptor[3 + rank + d] = stride;
    stride *= shape[d];
  }
  return descriptor;
}

/// A function compiled for the host.
class CpuRunner final : public Runner {
public:
  CpuRunner(Signature signature, void *library, EntryFunction entry)
      : signature(std::move(signature)), library(library), entry(entry) {
    retainBufferCache();
  }
  ~CpuRunner() override {
    ::dlclose(library);
    releaseBufferCache();
  }

  Error runOnHost(const std::vector<const void *> &args,
                  const std::vector<void *> &results) override;

private:
  Signature signature;
  void *library;
  EntryFunction entry;
};
} // namespace

Error CpuRunner::runOnHost(const std::vector<const void *> &args,
                           const std::vector<void *> &results) {
  if (args.size() != signature.args.size() ||
      results.size() != signature.results.size())
    return Error("the CPU code takes " + std::to_string(signature.args.size()) +
                 " arguments and " + std::to_string(signature.results.size()) +
                 " results; the call passes " + std::to_string(args.size()) +
                 " and " + std::to_string(results.size()));
  std::vector<std::vector<int64_t>> descriptors;
  for (size_t i = 0; i < args.size(); ++i)
    descriptors.push_back(makeDescriptor(args[i], signature.args[i].shape));
  for (size_t i = 0; i < results.size(); ++i)
    descriptors.push_back(
        makeDescriptor(results[i], signature.results[i].shape));
  std::vector<void *> pointers;
  for (std::vector<int64_t> &descriptor : descriptors)
    pointers.push_back(descriptor.data());
  entry(pointers.data());
  return Error::success();
}

Expected<std::unique_ptr<Runner>>
ens::runtime::createCpuRunner(const Signature &signature,
                              std::string_view object) {
  Expected<void *> handle = loadSharedObject(object, "the CPU code");
  if (!handle)
    return handle.takeError();
  auto init = reinterpret_cast<InitFunction>(::dlsym(*handle, "ens_cpu_init"));
  auto entry =
      reinterpret_cast<EntryFunction>(::dlsym(*handle, "ens_cpu_entry"));
  if (!init || !entry) {
    ::dlclose(*handle);
    return Error("the CPU code defines no ens_cpu_init and ens_cpu_entry: it "
                 "was not built by ens for this runtime");
  }
  // The descriptors passed to the code are made from `signature`: one that
  // differs from the code's own would let it read and write out of bounds.
  auto *compiledFor =
      static_cast<const char *>(::dlsym(*handle, "ens_cpu_signature"));
  std::string expected = getSignatureString(signature);
  if (!compiledFor || expected != compiledFor) {
    std::string code = compiledFor ? compiledFor : "none";
    ::dlclose(*handle);
    return Error("the artifact's signature " + expected +
                 " disagrees with the one its CPU code was compiled for, " +
                 code + " (export the program again with this ens)");
  }
  init(&allocateBuffer, &freeBuffer);
  return std::unique_ptr<Runner>(new CpuRunner(signature, *handle, entry));
}

namespace {
/// A feature and how to ask this CPU for it (__builtin_cpu_supports takes
/// only a literal).
struct CpuFeature {
  const char *name;
  bool (*present)();
};
#define ENS_CPU_FEATURE(name)                                                  \
  CpuFeature {                                                                 \
    name, [] { return __builtin_cpu_supports(name) != 0; }                     \
  }
const CpuFeature kCpuFeatures[] = {
    ENS_CPU_FEATURE("popcnt"),   ENS_CPU_FEATURE("sse4.2"),
    ENS_CPU_FEATURE("avx"),      ENS_CPU_FEATURE("avx2"),
    ENS_CPU_FEATURE("fma"),      ENS_CPU_FEATURE("bmi"),
    ENS_CPU_FEATURE("bmi2"),     ENS_CPU_FEATURE("avx512f"),
    ENS_CPU_FEATURE("avx512bw"), ENS_CPU_FEATURE("avx512dq"),
    ENS_CPU_FEATURE("avx512vl"), ENS_CPU_FEATURE("avx512cd"),
};
#undef ENS_CPU_FEATURE
} // namespace

const std::vector<std::string> &ens::runtime::getCheckableCpuFeatures() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const CpuFeature &feature : kCpuFeatures)
      list.push_back(feature.name);
    return list;
  }();
  return names;
}

Error ens::runtime::checkCpuFeatures(const std::string &features) {
  size_t start = 0;
  while (start < features.size()) {
    size_t end = std::min(features.find(',', start), features.size());
    std::string name = features.substr(start, end - start);
    for (const CpuFeature &feature : kCpuFeatures)
      if (name == feature.name && !feature.present())
        return Error("the artifact's CPU code needs " + name +
                     ", which this CPU lacks (export it for this kind of "
                     "CPU)");
    start = end + 1;
  }
  return Error::success();
}
