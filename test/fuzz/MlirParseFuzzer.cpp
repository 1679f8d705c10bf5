//===- MlirParseFuzzer.cpp - Fuzz the .mlir parse-and-verify path ---------===//
//
// Feeds the input, as the text of a .mlir file, to parseSourceSafely with
// every dialect that ens-opt registers. The properties: no crash, hang or
// unbounded allocation (ASan and libFuzzer's limits); a rejected input has
// reported an error; an accepted module prints, and its printed form parses
// again (what ens-opt writes, ens-run must read).
//
//===----------------------------------------------------------------------===//

#include "ens/InitAllDialects.h"
#include "ens/Parser/Parser.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

namespace {
/// Parses `text` in `context`; sets `errors` when a diagnostic was an error.
OwningOpRef<ModuleOp> parse(llvm::StringRef text, MLIRContext &context,
                            bool &errors) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
  errors = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors |= diagnostic.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  return ens::parseSourceSafely(sourceMgr, &context);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *registry = new DialectRegistry;
    ens::registerLoweringDialects(*registry);
    return registry;
  }();
  // A context per input: types and attributes interned by one input must
  // neither leak into the next nor accumulate over a long run.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  bool errors;
  OwningOpRef<ModuleOp> module = parse(text, context, errors);
  if (!module) {
    if (!errors) {
      llvm::errs() << "fuzz: the input was rejected without an error\n";
      std::abort();
    }
    return 0;
  }
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  if (!parse(printed, context, errors)) {
    llvm::errs() << "fuzz: the printed module does not parse again:\n"
                 << printed << "\n";
    std::abort();
  }
  return 0;
}
