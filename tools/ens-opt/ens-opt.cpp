//===- ens-opt.cpp - The ens optimizer driver -----------------------------===//
//
// An mlir-opt-style driver for the ens dialect and its passes. It reads its
// input itself, rather than letting MlirOptMain do so, to check the text
// against the source limits and to run the parser and the passes on a
// thread with a large stack (ens/Support/SourceLimits.h).
//
//===----------------------------------------------------------------------===//

#include "ens/InitAllDialects.h"
#include "ens/InitAllPasses.h"
#include "ens/Support/CommandLine.h"
#include "ens/Support/SourceLimits.h"

#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

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
  if (llvm::Error error =
          mlir::ens::checkSourceLimits((*file)->getBuffer(), inputFilename))
    return fail(std::move(error));
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "ens-opt: " << errorMessage << "\n";
    return 1;
  }
  mlir::LogicalResult result = mlir::failure();
  mlir::ens::runWithLargeStack([&] {
    result =
        mlir::MlirOptMain(output->os(), std::move(*file), registry, config);
  });
  if (mlir::failed(result))
    return 1;
  output->keep();
  return 0;
}
