//===- Interpreter.h - Reference interpreter for ens programs ---*- C++ -*-===//
//
// Executes ens functions on host tensors, op by op, with the reference
// kernels. It is the oracle of ens: every pass and backend is tested against
// it, so it favours obviousness over speed.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_INTERPRETER_INTERPRETER_H
#define ENS_INTERPRETER_INTERPRETER_H

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Support/HostTensor.h"
#include "ens/Support/TensorTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace mlir::ens {

/// Runs the functions of one verified module.
class Interpreter {
public:
  /// `module` must be verified and must outlive the interpreter.
  explicit Interpreter(mlir::ModuleOp module);

  /// Runs the function named `entry` on `args`.
  llvm::Expected<std::vector<HostTensor>> run(llvm::StringRef entry,
                                              llvm::ArrayRef<HostTensor> args);
  /// Runs `function` on `args`, which must match its signature.
  llvm::Expected<std::vector<HostTensor>> run(mlir::func::FuncOp function,
                                              llvm::ArrayRef<HostTensor> args);

private:
  /// Runs a callee one call deeper, so that recursion is caught.
  llvm::Expected<std::vector<HostTensor>>
  runCallee(mlir::func::FuncOp callee, llvm::ArrayRef<HostTensor> args);
  llvm::Expected<std::vector<HostTensor>>
  runVmap(VmapOp vmap, llvm::ArrayRef<HostTensor> args);

  mlir::SymbolTable symbols;
  unsigned callDepth = 0;
  /// The ops run since the outermost run began.
  int64_t opsRun = 0;
  /// The member index of each enclosing vmap with randomness "different".
  llvm::SmallVector<int64_t> memberPath;
};

} // namespace mlir::ens

#endif // ENS_INTERPRETER_INTERPRETER_H
