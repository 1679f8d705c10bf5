//===- Parser.cpp - The one way ens parses untrusted IR -------------------===//

#include "ens/Parser/Parser.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Support/Sizes.h"
#include "ens/Support/SourceLimits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::ens;

LogicalResult mlir::ens::verifyTypeSizes(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    auto check = [&](Type type) {
      if (llvm::Error error = checkTypeSize(type)) {
        op->emitError() << llvm::toString(std::move(error));
        return false;
      }
      return true;
    };
    for (Type type : op->getResultTypes())
      if (!check(type))
        return WalkResult::interrupt();
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (!check(function.getFunctionType()))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (!check(argument.getType()))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

OwningOpRef<ModuleOp> mlir::ens::parseSourceSafely(llvm::SourceMgr &sourceMgr,
                                                   MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (std::optional<SourceLimitViolation> violation =
          findSourceLimitViolation(buffer->getBuffer())) {
    emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                  violation->line, violation->column))
        << violation->message;
    return nullptr;
  }
  OwningOpRef<ModuleOp> module;
  runWithLargeStack([&] {
    module = parseSourceFile<ModuleOp>(sourceMgr, context);
    if (module && failed(verifyTypeSizes(*module)))
      module = nullptr;
  });
  return module;
}

FailureOr<func::FuncOp> mlir::ens::findEntryFunction(ModuleOp module,
                                                     StringRef name,
                                                     StringRef file,
                                                     std::string &error) {
  if (!name.empty()) {
    if (auto function = module.lookupSymbol<func::FuncOp>(name))
      return function;
    error = ("no function named '" + name + "' in " + file).str();
    return failure();
  }
  auto functions = module.getOps<func::FuncOp>();
  if (llvm::hasSingleElement(functions))
    return *functions.begin();
  error = ("choose a function with --entry=NAME (" + file + " has " +
           Twine(llvm::range_size(functions)) + " functions)")
              .str();
  return failure();
}

OwningOpRef<ModuleOp> mlir::ens::parseProgramFile(StringRef path,
                                                  llvm::SourceMgr &sourceMgr,
                                                  MLIRContext *context,
                                                  std::string &error) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readSourceFile(path);
  if (!file) {
    error = llvm::toString(file.takeError());
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceSafely(sourceMgr, context);
  if (!module)
    error = (path + " is not a valid ens program").str();
  return module;
}
