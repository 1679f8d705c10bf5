//===- Parser.cpp - The one way ens parses untrusted IR -------------------===//

#include "ens/Parser/Parser.h"

#include "ens/Support/Sizes.h"
#include "ens/Support/SourceLimits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::ens;

/// The bytes of one element of a shaped type, rounded up to whole bytes.
static int64_t getElementBytes(ShapedType type) {
  Type element = type.getElementType();
  if (element.isIntOrFloat())
    return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
  if (auto complex = dyn_cast<ComplexType>(element))
    if (complex.getElementType().isIntOrFloat())
      return 2 * std::max<int64_t>(
                     1, (complex.getElementType().getIntOrFloatBitWidth() + 7) /
                            8);
  return 8;
}

/// An error when `type` (or a type inside a function type) is a shaped
/// type whose static sizes overflow.
static llvm::Error checkType(Type type) {
  if (auto function = dyn_cast<FunctionType>(type)) {
    for (Type inner : llvm::concat<const Type>(function.getInputs(),
                                               function.getResults()))
      if (llvm::Error error = checkType(inner))
        return error;
    return llvm::Error::success();
  }
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return llvm::Error::success();
  SmallVector<int64_t> sizes;
  for (int64_t size : shaped.getShape())
    sizes.push_back(ShapedType::isDynamic(size) ? 1 : size);
  std::string what;
  llvm::raw_string_ostream(what) << type;
  llvm::Expected<int64_t> bytes =
      getCheckedByteSize(sizes, getElementBytes(shaped), what);
  return bytes ? llvm::Error::success() : bytes.takeError();
}

LogicalResult mlir::ens::verifyTypeSizes(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    auto check = [&](Type type) {
      if (llvm::Error error = checkType(type)) {
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
