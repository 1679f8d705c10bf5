//===- Parser.cpp - The one way ens parses untrusted IR -------------------===//

#include "ens/Parser/Parser.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Support/Sizes.h"
#include "ens/Support/SourceChunks.h"
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

namespace {
/// A diagnostic held back to be reported later, or not at all.
struct HeldDiagnostic {
  Location location;
  DiagnosticSeverity severity;
  std::string message;
  SmallVector<std::pair<Location, std::string>> notes;
};
} // namespace

/// The offset in `text` of 1-based `line` and `column`, if they are in it.
static std::optional<size_t> getOffset(StringRef text, unsigned line,
                                       unsigned column) {
  size_t lineStart = 0;
  for (unsigned l = 1; l < line; ++l) {
    lineStart = text.find('\n', lineStart);
    if (lineStart == StringRef::npos)
      return std::nullopt;
    ++lineStart;
  }
  return lineStart + column - 1;
}

/// Whether a parse of `copy` that failed with `error` failed only because
/// the functions after its own are blanked: the parser reports a missing
/// token at the end of the input at the end of the last code before it,
/// which blanking moves.
static bool failedAtBlankedEnd(StringRef copy, const HeldDiagnostic &error) {
  auto location = dyn_cast<FileLineColLoc>(error.location);
  if (!location)
    return false;
  std::optional<size_t> offset =
      getOffset(copy, location.getLine(), location.getColumn());
  return offset && *offset == copy.rtrim(" \t\r\n").size();
}

/// Reports `diagnostics` through the context, to the handlers the caller
/// installed.
static void report(MLIRContext *context, ArrayRef<HeldDiagnostic> diagnostics) {
  for (const HeldDiagnostic &held : diagnostics) {
    InFlightDiagnostic diagnostic =
        context->getDiagEngine().emit(held.location, held.severity);
    diagnostic << held.message;
    for (const auto &[location, message] : held.notes)
      diagnostic.attachNote(location) << message;
  }
}

LogicalResult mlir::ens::parseFunctionsApart(const llvm::MemoryBuffer &buffer,
                                             MLIRContext *context) {
  std::vector<std::string> copies = splitFunctionsApart(buffer.getBuffer());
  std::optional<std::vector<HeldDiagnostic>> blankedEndFailure;
  for (size_t i = 0; i < copies.size(); ++i) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(
                                     copies[i], buffer.getBufferIdentifier(),
                                     /*RequiresNullTerminator=*/false),
                                 llvm::SMLoc());
    std::vector<HeldDiagnostic> held;
    LogicalResult parsed = success();
    {
      ScopedDiagnosticHandler hold(context, [&](Diagnostic &diagnostic) {
        HeldDiagnostic &copy =
            held.emplace_back(HeldDiagnostic{diagnostic.getLocation(),
                                             diagnostic.getSeverity(),
                                             diagnostic.str(),
                                             {}});
        for (Diagnostic &note : diagnostic.getNotes())
          copy.notes.push_back({note.getLocation(), note.str()});
        return success();
      });
      // Unverified: a function may call one that this copy blanks.
      Block block;
      parsed = parseSourceFile(
          sourceMgr, &block, ParserConfig(context, /*verifyAfterParse=*/false));
    }
    if (succeeded(parsed))
      continue;
    // A failure at the blanked end may only be blanking's: a later copy
    // may report the error where the whole text has it.
    if (i + 1 == copies.size() || held.empty() ||
        !failedAtBlankedEnd(copies[i], held.front())) {
      report(context, held);
      return failure();
    }
    if (!blankedEndFailure)
      blankedEndFailure = std::move(held);
  }
  if (!blankedEndFailure)
    return success();
  report(context, *blankedEndFailure);
  return failure();
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
    if (failed(parseFunctionsApart(*buffer, context)))
      return;
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
