//===- Nvrtc.cpp - CUDA source to CUBIN with NVRTC ------------------------===//
//
// Compiles generated kernels with NVRTC, which needs no GPU, through the
// kernel cache. Builds without the CUDA toolkit compile this file without
// NVRTC and report so at run time. NVRTC never contracts on its own
// (--fmad=false): the kernels ask for each fused multiply-add with fmaf,
// which the emulator's host fmaf rounds the same way, so the GPU and
// cuda-emu compute the same bits (docs/cuda.md, "FMA, tolerances and
// hoisting").
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Backend/Cuda/KernelCache.h"

#include <vector>

#ifdef ENS_HAVE_NVRTC
#include <nvrtc.h>
#endif

using namespace mlir;
using namespace mlir::ens;

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool cuda::isNvrtcAvailable() {
#ifdef ENS_HAVE_NVRTC
  return true;
#else
  return false;
#endif
}

#ifdef ENS_HAVE_NVRTC
/// The options of every compilation but the architecture. --fmad=true (the
/// default) would let NVRTC fuse any a * b + c, which the emulator, built
/// with -ffp-contract=off, rounds twice.
static const char *const kOptions[] = {"-std=c++17", "--fmad=false",
                                       "--ptxas-options=-v",
                                       "-I" ENS_CUDA_INCLUDE_DIR};

/// Compiles without the cache, with `options` after the architecture.
static llvm::Expected<cuda::CompiledCuda>
compileUncached(StringRef source, StringRef name, StringRef arch,
                ArrayRef<const char *> options) {
  nvrtcProgram program;
  std::string text = source.str(), file = name.str();
  if (nvrtcResult result = nvrtcCreateProgram(
          &program, text.c_str(), file.c_str(), 0, nullptr, nullptr);
      result != NVRTC_SUCCESS)
    return error("NVRTC cannot create a program for " + name + ": " +
                 nvrtcGetErrorString(result));
  std::string archOption = ("--gpu-architecture=" + arch).str();
  std::vector<const char *> allOptions = {archOption.c_str()};
  allOptions.insert(allOptions.end(), options.begin(), options.end());
  nvrtcResult compiled =
      nvrtcCompileProgram(program, allOptions.size(), allOptions.data());
  cuda::CompiledCuda result;
  result.arch = arch.str();
  size_t logSize = 0;
  nvrtcGetProgramLogSize(program, &logSize);
  result.log.resize(logSize);
  if (logSize)
    nvrtcGetProgramLog(program, result.log.data());
  while (!result.log.empty() && result.log.back() == '\0')
    result.log.pop_back();
  if (compiled != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&program);
    return error("NVRTC cannot compile " + name + " for " + arch + " (" +
                 nvrtcGetErrorString(compiled) + "):\n" + result.log);
  }
  // A virtual architecture gives PTX only, a real one CUBIN.
  bool virtualArch = arch.starts_with("compute_");
  size_t imageSize = 0;
  if (virtualArch)
    nvrtcGetPTXSize(program, &imageSize);
  else
    nvrtcGetCUBINSize(program, &imageSize);
  result.image.resize(imageSize);
  if (imageSize && virtualArch)
    nvrtcGetPTX(program, result.image.data());
  else if (imageSize)
    nvrtcGetCUBIN(program, result.image.data());
  nvrtcDestroyProgram(&program);
  // PTX ends with a null, which the driver reads up to.
  while (virtualArch && !result.image.empty() && result.image.back() == '\0')
    result.image.pop_back();
  if (result.image.empty())
    return error("NVRTC produced no " + Twine(virtualArch ? "PTX" : "CUBIN") +
                 " for " + name + " (" + arch + ")");
  return result;
}
#endif

llvm::Expected<cuda::CompiledCuda>
cuda::KernelCache::compile(StringRef source, StringRef name, StringRef arch) {
#ifndef ENS_HAVE_NVRTC
  (void)source, (void)name, (void)arch;
  return error("NVRTC is not available in this build");
#else
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  std::string what = "ens " ENS_VERSION "\nnvrtc " + std::to_string(major) +
                     "." + std::to_string(minor) + "\n" + arch.str() + "\n";
  for (const char *option : kOptions)
    what += std::string(option) + "\n";
  what += source.str();
  return getOrCompile(getCacheKey(what), [&] {
    return compileUncached(source, name, arch, kOptions);
  });
#endif
}

llvm::Expected<cuda::CompiledCuda>
cuda::compileWithNvrtc(StringRef source, StringRef name, StringRef arch) {
  return KernelCache::getDefault().compile(source, name, arch);
}

llvm::Expected<cuda::CompiledCuda>
cuda::compileWithNvrtcOptions(StringRef source, StringRef name, StringRef arch,
                              ArrayRef<std::string> options) {
#ifndef ENS_HAVE_NVRTC
  (void)source, (void)name, (void)arch, (void)options;
  return error("NVRTC is not available in this build");
#else
  std::vector<const char *> pointers = {"-I" ENS_CUDA_INCLUDE_DIR};
  for (const std::string &option : options)
    pointers.push_back(option.c_str());
  return compileUncached(source, name, arch, pointers);
#endif
}
