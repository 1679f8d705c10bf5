//===- FileSystem.h - Durable writes and bounded reads ----------*- C++ -*-===//
//
// The runtime's durable writes and bounded reads (ens/Runtime/FileIO.h)
// for the compiler, with llvm::Error, and checksums of cache entries.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_FILESYSTEM_H
#define ENS_SUPPORT_FILESYSTEM_H

#include "ens/Runtime/FileIO.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::ens {

/// `error`, a failure of the runtime, as an llvm::Error.
llvm::Error toLlvmError(::ens::runtime::Error error);

/// ens::runtime::writeFileAtomically (ens/Runtime/FileIO.h).
llvm::Error writeFileAtomically(
    llvm::StringRef path, llvm::StringRef contents, unsigned mode = 0644,
    ::ens::runtime::FifoPolicy fifos = ::ens::runtime::FifoPolicy::Replace);

/// Flushes the directory entry changes of `directory` to disk.
llvm::Error syncDirectory(llvm::StringRef directory);

/// How readFileBounded and readRegularFile check the file before it reads it.
using ReadOptions = ::ens::runtime::ReadOptions;

/// ens::runtime::readRegularFile (ens/Runtime/FileIO.h).
llvm::Expected<std::string> readFileBounded(llvm::StringRef path,
                                            const ReadOptions &options = {});

/// A 64-bit checksum of `bytes` (XXH3), for detecting corrupt or foreign
/// cache entries and artifacts; not a defence against a forger who can
/// write the file, which ownership checks are.
uint64_t computeChecksum(llvm::StringRef bytes);

} // namespace mlir::ens

#endif // ENS_SUPPORT_FILESYSTEM_H
