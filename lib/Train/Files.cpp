//===- Files.cpp - How ens-train reads and writes files -------------------===//

#include "ens/Train/Files.h"

#include "ens/Train/Failure.h"

#include "ens/Support/FileSystem.h"

#include "llvm/Support/FileSystem.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace ens::train;
using ens::train::Failure;

/// The reason of a readFileBounded or writeFileAtomically error, whose
/// messages end with ": <reason>" after a path.
static std::string reasonOf(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  size_t colon = message.rfind(": ");
  return colon == std::string::npos ? message : message.substr(colon + 2);
}

std::string ens::train::readInputFile(const std::string &path,
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

void ens::train::writeOutputFile(const std::string &path,
                                 const std::string &contents,
                                 const std::string &what) {
  if (llvm::Error error = mlir::ens::writeFileAtomically(path, contents))
    throw Failure("cannot write " + what + " " + path + ": " +
                  reasonOf(std::move(error)));
}

void ens::train::refuseOutputOverInput(const std::string &path,
                                       const std::string &what,
                                       const std::vector<RunInput> &inputs) {
  for (const RunInput &input : inputs) {
    bool same = false;
    if (input.path.empty() ||
        llvm::sys::fs::equivalent(path, input.path, same) || !same)
      continue;
    throw Failure("the " + what + " " + path + " would replace the " +
                  input.what + " " + input.path +
                  ", the same file: write it elsewhere");
  }
}

void ens::train::discardStandardOutput() {
  llvm::outs().flush();
  int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0 || ::dup2(null, STDOUT_FILENO) < 0)
    throw Failure(std::string("cannot send stdout to /dev/null: ") +
                  std::strerror(errno));
  ::close(null);
}
