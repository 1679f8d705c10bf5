//===- TestFiles.cpp - Reading and writing whole files in tests -----------===//

#include "TestFiles.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir::ens;

std::string test::readFileBytes(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void test::writeFileBytes(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    ADD_FAILURE() << "cannot write " << path.str() << ": " << ec.message();
    return;
  }
  os << bytes;
  os.close();
  if (os.has_error()) {
    ADD_FAILURE() << "cannot write " << path.str() << ": "
                  << os.error().message();
    os.clear_error();
  }
}
