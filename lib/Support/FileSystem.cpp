//===- FileSystem.cpp - Durable writes and bounded reads ------------------===//
//
// The compiler's view of the runtime's file I/O (ens/Runtime/FileIO.h),
// which must not depend on LLVM, with its errors as llvm::Error.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/FileSystem.h"

#include "ens/Runtime/FileIO.h"

#include "llvm/Support/xxhash.h"

using namespace mlir::ens;
namespace rt = ::ens::runtime;

llvm::Error mlir::ens::toLlvmError(rt::Error error) {
  if (!error)
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 error.getMessage());
}

llvm::Error mlir::ens::syncDirectory(llvm::StringRef directory) {
  return toLlvmError(rt::syncDirectory(directory.str()));
}

llvm::Error mlir::ens::writeFileAtomically(llvm::StringRef path,
                                           llvm::StringRef contents,
                                           unsigned mode,
                                           rt::FifoPolicy fifos) {
  return toLlvmError(
      rt::writeFileAtomically(path.str(), contents, mode, fifos));
}

llvm::Expected<std::string>
mlir::ens::readFileBounded(llvm::StringRef path, const ReadOptions &options) {
  rt::Expected<std::string> bytes = rt::readRegularFile(path.str(), options);
  if (!bytes)
    return toLlvmError(bytes.takeError());
  return std::move(*bytes);
}

uint64_t mlir::ens::computeChecksum(llvm::StringRef bytes) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}
