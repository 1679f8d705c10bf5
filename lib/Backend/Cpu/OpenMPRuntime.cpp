//===- OpenMPRuntime.cpp - Finding the OpenMP runtime ---------------------===//
//
// Looks for libomp.so.5 in LLVM's library directory, then wherever the
// dynamic loader looks, and takes the first copy that loads and defines the
// entry point that parallel regions call.
//
//===----------------------------------------------------------------------===//

#include "OpenMPRuntime.h"

#include <dlfcn.h>

using namespace mlir::ens;

std::optional<std::string> cpu::findOpenMPRuntime() {
  static const std::optional<std::string> path =
      []() -> std::optional<std::string> {
    for (const char *candidate :
         {ENS_LLVM_LIBRARY_DIR "/libomp.so.5", "libomp.so.5"}) {
      // Loaded for good: the compiled code that needs it may live as long
      // as the process.
      void *library = dlopen(candidate, RTLD_NOW | RTLD_GLOBAL);
      if (!library)
        continue;
      void *fork = dlsym(library, "__kmpc_fork_call");
      Dl_info info;
      if (fork && dladdr(fork, &info) && info.dli_fname)
        return std::string(info.dli_fname);
    }
    return std::nullopt;
  }();
  return path;
}
