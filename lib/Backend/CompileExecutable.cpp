//===- CompileExecutable.cpp - The one choice of a target's backend -------===//

#include "ens/Backend/Executable.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ens;

llvm::Expected<std::unique_ptr<Executable>>
mlir::ens::compileExecutable(ModuleOp module, StringRef entry, Target target,
                             const ExecutableOptions &options) {
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
