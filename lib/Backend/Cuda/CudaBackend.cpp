//===- CudaBackend.cpp - The CUDA driver ----------------------------------===//
//
// The CUDA driver is loaded at run time, never linked, so that the compiler
// builds and runs on machines without a GPU. Running kernels through the
// Driver API comes later; for now loading it is all that needs a GPU.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CudaBackend.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::ens;

llvm::Error cuda::loadCudaDriver() {
  static void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no CUDA device: cannot load libcuda.so.1");
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "the CUDA backend cannot run kernels on a device yet; use "
      "--backend=cuda-emu");
}
