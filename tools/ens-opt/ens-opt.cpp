//===- ens-opt.cpp - The ens optimizer driver -----------------------------===//
//
// An mlir-opt-style driver for the ens dialect and its passes. It reads its
// input itself, rather than letting MlirOptMain do so, to check the text
// against the source limits, to parse each function alone before the
// whole text (ens/Support/SourceChunks.h), and to run the parser and the
// passes on a thread with a large stack (ens/Support/SourceLimits.h).
//
// The output is kept in memory and written only once everything has
// succeeded, atomically (a device such as /dev/null in place): no output
// file is ever registered with LLVM's signal handlers, which remove such
// files on a crash, even when they are not regular files.
//
//===----------------------------------------------------------------------===//

#include "ens/InitAllDialects.h"
#include "ens/InitAllPasses.h"
#include "ens/Parser/Parser.h"
#include "ens/Support/CommandLine.h"
#include "ens/Support/FileSystem.h"
#include "ens/Support/SourceLimits.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

/// mlir::ens::parseFunctionsApart on each split of `text` that MlirOptMain
/// will parse, with its diagnostics printed as MlirOptMain prints them.
static mlir::LogicalResult
parseFunctionsApart(llvm::StringRef text, llvm::StringRef name,
                    mlir::DialectRegistry &registry,
                    const mlir::MlirOptMainConfig &config) {
  mlir::MLIRContext context(registry);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  bool failed = false;
  std::string ignored;
  llvm::raw_string_ostream ignoredStream(ignored);
  (void)mlir::splitAndProcessBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, name),
      [&](std::unique_ptr<llvm::MemoryBuffer> split, llvm::raw_ostream &) {
        llvm::SourceMgr sourceMgr;
        const llvm::MemoryBuffer &buffer = *split;
        sourceMgr.AddNewSourceBuffer(std::move(split), llvm::SMLoc());
        mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
        if (mlir::failed(mlir::ens::parseFunctionsApart(buffer, &context)))
          failed = true;
        return mlir::success();
      },
      ignoredStream, config.inputSplitMarker(), config.outputSplitMarker());
  return mlir::failure(failed);
}

int main(int argc, char **argv) {
  // Before MLIR registers its options, which --help shows.
  mlir::ens::hideUnrelatedOptions();
  mlir::ens::registerDebugOptions();
  mlir::DialectRegistry registry;
  mlir::ens::registerLoweringDialects(registry);
  // What the backend pipelines produce and need (vector, OpenMP, LLVM, the
  // bufferization models), so that their passes run and print here too.
  mlir::ens::registerEnsCpuPipelineDialects(registry);
  mlir::ens::registerAllPasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "ens optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // This prints the registered dialects and reads no input.
  if (config.shouldShowDialects())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  auto fail = [](llvm::Error error) {
    llvm::errs() << "ens-opt: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  };
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      mlir::ens::readSourceFile(inputFilename);
  if (!file)
    return fail(file.takeError());
  // Printed as MLIR prints a parse error: "file:line:col: error: message".
  if (llvm::Error error =
          mlir::ens::checkSourceLimits((*file)->getBuffer(), inputFilename)) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  std::string output;
  llvm::raw_string_ostream outputStream(output);
  mlir::LogicalResult result = mlir::failure();
  mlir::ens::runWithLargeStack([&] {
    // With -verify-diagnostics the diagnostics are the expected ones of a
    // test, which MlirOptMain checks; parsing apart would report them.
    if (!config.shouldVerifyDiagnostics() &&
        mlir::failed(parseFunctionsApart((*file)->getBuffer(),
                                         (*file)->getBufferIdentifier(),
                                         registry, config)))
      return;
    result =
        mlir::MlirOptMain(outputStream, std::move(*file), registry, config);
  });
  if (mlir::failed(result))
    return 1;
  if (outputFilename == "-") {
    llvm::outs() << output;
    llvm::outs().flush();
    return llvm::outs().has_error() ? 1 : 0;
  }
  if (llvm::Error error = mlir::ens::writeFileAtomically(
          outputFilename, output, 0644, ens::runtime::FifoPolicy::WriteInto))
    return fail(std::move(error));
  return 0;
}
