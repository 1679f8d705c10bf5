//===- CpuBackend.h - JIT-compiled ens functions on the CPU -----*- C++ -*-===//
//
// Compiles one function of an ens module to native code in-process (MLIR's
// ExecutionEngine over LLVM ORC) and runs it on host tensors. The program
// goes through the same front of the pipeline as every backend: the
// function transforms, then convert-ens-to-linalg.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CPUBACKEND_H
#define ENS_BACKEND_CPUBACKEND_H

#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::ens {

/// Registers what the CPU backend's pipeline needs in `registry`: the
/// dialects it lowers through and their bufferization and LLVM interfaces.
void registerCpuBackendDialects(DialectRegistry &registry);

/// A function compiled for the CPU.
class CpuExecutable {
public:
  /// Compiles the function `entry` of `module`, which is left unchanged.
  /// The module's context must have the CPU backend's dialects registered.
  static llvm::Expected<std::unique_ptr<CpuExecutable>>
  compile(ModuleOp module, StringRef entry);
  ~CpuExecutable();

  /// Runs the function on `args`, which must match its signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

private:
  CpuExecutable(std::unique_ptr<ExecutionEngine> engine, FunctionType type,
                std::string name);

  std::unique_ptr<ExecutionEngine> engine;
  FunctionType type;
  std::string name;
};

} // namespace mlir::ens

#endif // ENS_BACKEND_CPUBACKEND_H
