//===- Export.h - Compiled functions as runtime artifacts -------*- C++ -*-===//
//
// Compiles a function ahead of time into an artifact (ens/Runtime/
// Artifact.h) that libens-runtime runs without the compiler: what
// ens-export writes.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_EXPORT_H
#define ENS_BACKEND_EXPORT_H

#include "ens/Backend/Executable.h"
#include "ens/Runtime/Artifact.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::ens {

/// What an artifact carries and how its code is compiled.
struct ExportOptions {
  ::ens::runtime::ArtifactTarget target = ::ens::runtime::ArtifactTarget::Cuda;
  /// For cuda: the GPU architectures to carry CUBIN for ("sm_80"). The
  /// artifact also carries PTX for the oldest of them, which the driver of
  /// a newer GPU compiles.
  std::vector<std::string> archs = {"sm_80", "sm_90"};
  /// For cuda: also carry the host build of the kernels, so that the
  /// runtime can run the artifact on cuda-emu.
  bool emulator = false;
  /// The buffer limit, the CUDA strategy and the CPU threads.
  ExecutableOptions compile;
};

/// Compiles the function `entry` of `module`, as compileExecutable takes
/// it, into an artifact. The error says why it cannot.
llvm::Expected<::ens::runtime::Artifact>
exportFunction(ModuleOp module, StringRef entry, const ExportOptions &options);

} // namespace mlir::ens

#endif // ENS_BACKEND_EXPORT_H
