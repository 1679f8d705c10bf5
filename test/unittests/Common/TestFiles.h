//===- TestFiles.h - Reading and writing whole files in tests ---*- C++ -*-===//
//
// The cache suites (CPU code, CUDA kernels, the emulator's host builds) read
// entries back and overwrite them with damaged bytes; these are the two
// file operations they share.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_UNITTESTS_COMMON_TESTFILES_H
#define ENS_TEST_UNITTESTS_COMMON_TESTFILES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::ens::test {

/// The bytes of the file at `path`, or "" where it cannot be read.
std::string readFileBytes(llvm::StringRef path);

/// Replaces the file at `path` with `bytes`; a failure of the running test
/// where it cannot be written.
void writeFileBytes(llvm::StringRef path, llvm::StringRef bytes);

} // namespace mlir::ens::test

#endif // ENS_TEST_UNITTESTS_COMMON_TESTFILES_H
