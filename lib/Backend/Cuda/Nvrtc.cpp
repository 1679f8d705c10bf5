//===- Nvrtc.cpp - CUDA source to CUBIN with NVRTC ------------------------===//
//
// Compiles generated kernels with NVRTC, which needs no GPU. Builds without
// the CUDA toolkit compile this file without NVRTC and report so at run
// time. Fused multiply-add contraction is off so that results match the
// interpreter's rounding.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CudaBackend.h"

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

llvm::Expected<cuda::CompiledCuda>
cuda::compileWithNvrtc(StringRef source, StringRef name, StringRef arch) {
#ifndef ENS_HAVE_NVRTC
  (void)source, (void)name, (void)arch;
  return error("NVRTC is not available in this build");
#else
  nvrtcProgram program;
  std::string text = source.str(), file = name.str();
  if (nvrtcResult result = nvrtcCreateProgram(&program, text.c_str(),
                                              file.c_str(), 0, nullptr,
                                              nullptr);
      result != NVRTC_SUCCESS)
    return error("NVRTC cannot create a program for " + name + ": " +
                 nvrtcGetErrorString(result));
  std::string archOption = ("--gpu-architecture=" + arch).str();
  const char *options[] = {archOption.c_str(), "-std=c++17", "--fmad=false",
                           "--ptxas-options=-v",
                           "-I" ENS_CUDA_INCLUDE_DIR};
  nvrtcResult compiled = nvrtcCompileProgram(
      program, sizeof(options) / sizeof(options[0]), options);
  CompiledCuda result;
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
  size_t cubinSize = 0;
  nvrtcGetCUBINSize(program, &cubinSize);
  result.cubin.resize(cubinSize);
  if (cubinSize)
    nvrtcGetCUBIN(program, result.cubin.data());
  nvrtcDestroyProgram(&program);
  if (result.cubin.empty())
    return error("NVRTC produced no CUBIN for " + name + " (" + arch + ")");
  return result;
#endif
}
