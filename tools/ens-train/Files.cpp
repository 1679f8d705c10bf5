//===- Files.cpp - How ens-train reads and writes files -------------------===//

#include "Files.h"

#include "Failure.h"

#include "ens/Support/FileSystem.h"

using namespace ens_train;

/// The reason of a readFileBounded or writeFileAtomically error, whose
/// messages end with ": <reason>" after a path.
static std::string reasonOf(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  size_t colon = message.rfind(": ");
  return colon == std::string::npos ? message : message.substr(colon + 2);
}

std::string ens_train::readInputFile(const std::string &path,
                                     const std::string &what,
                                     uint64_t maxBytes) {
  mlir::ens::ReadOptions options;
  options.maxBytes = maxBytes;
  llvm::Expected<std::string> bytes = mlir::ens::readFileBounded(path, options);
  if (!bytes)
    throw Failure("cannot read " + what + " " + path + ": " +
                  reasonOf(bytes.takeError()));
  return std::move(*bytes);
}

void ens_train::writeOutputFile(const std::string &path,
                                const std::string &contents,
                                const std::string &what) {
  if (llvm::Error error = mlir::ens::writeFileAtomically(path, contents))
    throw Failure("cannot write " + what + " " + path + ": " +
                  reasonOf(std::move(error)));
}
