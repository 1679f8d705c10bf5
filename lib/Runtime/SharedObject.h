//===- SharedObject.h - Loading compiled code from memory -------*- C++ -*-===//
//
// The runners that execute host code (the CUDA emulation, the CPU backend)
// load a shared object whose bytes the caller has verified; this loads it
// without giving anyone a moment to change it.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_RUNTIME_SHAREDOBJECT_H
#define ENS_LIB_RUNTIME_SHAREDOBJECT_H

#include "ens/Runtime/Error.h"

#include <string>
#include <string_view>

namespace ens::runtime {

/// Loads the shared object whose bytes are `bytes` (RTLD_NOW | RTLD_LOCAL)
/// and returns its dlopen handle, which the caller dlcloses. `what` names
/// it in messages ("the emulated kernels").
Expected<void *> loadSharedObject(std::string_view bytes,
                                  const std::string &what);

/// Binds the entry points of a library loaded with dlopen, one by one, and
/// remembers whether it found them all: the driver's and cuBLAS's loaders
/// share it.
class SymbolBinder {
public:
  explicit SymbolBinder(void *library) : library(library) {}

  /// Sets `entry` to the function `name` of the library, or null.
  template <typename Function> void bind(Function *&entry, const char *name) {
    entry = reinterpret_cast<Function *>(lookUp(name));
    complete &= entry != nullptr;
  }
  /// Whether every entry point bound so far was found.
  bool isComplete() const { return complete; }

private:
  void *lookUp(const char *name) const;

  void *library;
  bool complete = true;
};

} // namespace ens::runtime

#endif // ENS_LIB_RUNTIME_SHAREDOBJECT_H
