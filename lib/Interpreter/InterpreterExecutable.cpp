//===- InterpreterExecutable.cpp - The interpreter as an Executable -------===//
//
// The interpreter target of compileExecutable: a copy of the module with its
// function transforms lowered, run by the reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Executable.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::ens;

namespace {
class InterpreterAdaptor final : public Executable {
public:
  InterpreterAdaptor(OwningOpRef<ModuleOp> module, func::FuncOp entry)
      : Executable(Target::Interpreter, entry.getFunctionType()),
        module(std::move(module)), entry(entry) {}

protected:
  llvm::Expected<std::vector<HostTensor>>
  runOnHost(ArrayRef<HostTensor> args) override {
    return Interpreter(*module).run(entry, args);
  }

private:
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
};
} // namespace

llvm::Expected<std::unique_ptr<Executable>>
mlir::ens::compileInterpreterExecutable(ModuleOp module, StringRef function) {
  OwningOpRef<ModuleOp> prepared = module.clone();
  PassManager pm(module.getContext());
  pm.addPass(createEnsStdlib());
  pm.addPass(createEnsAutodiff());
  if (failed(pm.run(*prepared)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot prepare @" + function +
                                       " for the interpreter");
  auto entry = prepared->lookupSymbol<func::FuncOp>(function);
  if (!entry)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no function named '" + function + "'");
  return std::make_unique<InterpreterAdaptor>(std::move(prepared), entry);
}
