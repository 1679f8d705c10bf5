//===- CompileExecutable.cpp - The one choice of a target's backend -------===//

#include "ens/Backend/Executable.h"
#include "ens/Dialect/Ens/Transforms/Specialize.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ens;

llvm::Expected<std::unique_ptr<Executable>>
mlir::ens::compileExecutable(ModuleOp module, StringRef entry, Target target,
                             const ExecutableOptions &options) {
  // Every target sizes its buffers from the types: a `?` must have been
  // specialized away before.
  if (llvm::Error dynamic = checkStaticShapes(module, entry))
    return std::move(dynamic);
  switch (target) {
  case Target::Interpreter:
    return compileInterpreterExecutable(module, entry);
  case Target::Cpu:
    return compileCpuExecutable(module, entry, options);
  case Target::CudaEmu:
  case Target::Cuda:
    return compileCudaExecutable(module, entry, target, options);
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("unknown target {0}", static_cast<int>(target)));
}
