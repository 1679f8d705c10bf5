//===- HostCompiler.h - Building with the host C++ compiler -----*- C++ -*-===//
//
// The CUDA emulator builds the generated source into a shared object for
// the host, and the CPU backend links its object code into one, both with
// the host's C++ compiler driver. A build runs in a private directory of
// its own that is removed afterwards, and only its output's bytes leave it.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_HOSTCOMPILER_H
#define ENS_SUPPORT_HOSTCOMPILER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::ens {

/// The path of the host C++ compiler: $ENS_HOST_CXX where it is set and not
/// empty, else c++, looked up on PATH. The error, when there is none,
/// starts with `who`: "<who> needs a host C++ compiler: cannot find 'c++'
/// (set ENS_HOST_CXX)".
llvm::Expected<std::string> findHostCompiler(llvm::StringRef who);

/// One run of the host compiler:
///   compiler OPTIONS... -o DIR/OUTPUT DIR/INPUTS... LIBRARIES...
/// where DIR is a fresh private directory holding `files`.
struct HostBuild {
  /// The start of the directory's name, in the system's temporary
  /// directory ("ens-cuda-emu" gives ens-cuda-emu-XXXXXX).
  llvm::StringRef directoryPrefix;
  /// The files written into the directory first: name and contents.
  std::vector<std::pair<llvm::StringRef, llvm::StringRef>> files;
  /// The options before the output.
  std::vector<llvm::StringRef> options;
  /// The names, in the directory, of the file built and of the inputs.
  llvm::StringRef output;
  std::vector<llvm::StringRef> inputs;
  /// Arguments after the inputs, where the linker looks for libraries.
  std::vector<llvm::StringRef> libraries;
  /// What is built, for messages ("the emulated kernels").
  llvm::StringRef what;
  /// The largest output read back.
  uint64_t maxOutputBytes = uint64_t(256) << 20;
};

/// Runs `build` with `compiler` and returns the output's bytes. Concurrent
/// builds, in threads or processes, never touch each other's files, and the
/// directory goes when the build ends, also when it fails. mkdtemp makes it
/// with mode 0700, so no one else can plant or replace what the compiler
/// reads or writes there. A failed build's error gives the compiler's
/// output: "the host compiler cannot build <what>:\n<output>".
llvm::Expected<std::string> runHostBuild(llvm::StringRef compiler,
                                         const HostBuild &build);

} // namespace mlir::ens

#endif // ENS_SUPPORT_HOSTCOMPILER_H
