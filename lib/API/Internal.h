//===- Internal.h - Shared state of the ens C++ API -------------*- C++ -*-===//
//
// The Impl structs behind the public classes of ens.h, and the helpers the
// API's files share. Not installed.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_API_INTERNAL_H
#define ENS_LIB_API_INTERNAL_H

#include "ens/ens.h"

#include "ens/Backend/Executable.h"
#include "ens/Support/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <mutex>
#include <tuple>

namespace ens {

struct Context::Impl {
  Impl();
  mlir::MLIRContext context;
  /// Serialises everything that creates or changes IR, and diagnostics.
  std::recursive_mutex mutex;
  /// Compiled functions by (function, target, threads, buffer limit, CUDA
  /// strategy, CUDA GEMM choice, GPU precision, the module's text): a module
  /// compiled again unchanged, with the same options, reuses its code while an
  /// Executable holds it. Weak, since an Executable holds its Context: a strong
  /// reference would make a cycle that kept every Context that ever compiled
  /// alive for good.
  std::map<std::tuple<std::string, Target, int, int64_t, std::string,
                      std::string, std::string, std::string>,
           std::weak_ptr<const Executable::Impl>>
      compiled;
};

struct Module::Impl {
  std::shared_ptr<Context::Impl> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

struct Executable::Impl {
  std::shared_ptr<Context::Impl> context;
  Target target;
  Signature signature;
  std::unique_ptr<mlir::ens::Executable> executable;
  /// What it was compiled from, for save(): the module, the function and
  /// the options.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string function;
  mlir::ens::ExecutableOptions options;
};

struct FunctionBuilder::Impl {
  std::shared_ptr<Module::Impl> module;
  mlir::func::FuncOp function;
  mlir::OpBuilder builder;
  std::vector<mlir::Value> values;
  bool finished = false;

  Impl(std::shared_ptr<Module::Impl> module, mlir::func::FuncOp function);
};

/// Makes a builder method that adds several ops all or nothing: unless it
/// is committed, its destructor removes what was added to the function and
/// to the module (library declarations) since it began. Holds the context's
/// lock throughout, so that nothing else is added meanwhile.
class BuilderTransaction {
public:
  explicit BuilderTransaction(FunctionBuilder::Impl &impl);
  ~BuilderTransaction();
  void commit() { committed = true; }

private:
  FunctionBuilder::Impl &impl;
  std::lock_guard<std::recursive_mutex> lock;
  /// The last op of the function's block and of the module when it began
  /// (null for an empty block), and the number of values.
  mlir::Operation *lastOp, *lastGlobal;
  size_t numValues;
  bool committed = false;
};

/// Collects the diagnostics emitted while it lives, to put them in an Error.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context);
  ~DiagnosticCollector();
  /// Throws an Error: `what`, then the collected diagnostics.
  [[noreturn]] void fail(const std::string &what) const;

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID handler;
  std::string messages;
};

/// Verifies `function` alone, with the symbols it uses, so that functions
/// other threads are still building do not count.
mlir::LogicalResult verifyFunction(mlir::func::FuncOp function);

/// A copy of `module` without the functions still being built.
mlir::OwningOpRef<mlir::ModuleOp> cloneFinished(mlir::ModuleOp module);

/// Conversions between the public and the internal spellings.
mlir::ens::DType toInternal(DType dtype);
DType toPublic(mlir::ens::DType dtype);
mlir::ens::Target toInternal(Target target);
mlir::Type toElementType(mlir::MLIRContext *context, DType dtype);
mlir::RankedTensorType toMlirType(mlir::MLIRContext *context,
                                  const TensorType &type);
TensorType toTensorType(mlir::Type type);
Signature toSignature(mlir::FunctionType type);

} // namespace ens

#endif // ENS_LIB_API_INTERNAL_H
