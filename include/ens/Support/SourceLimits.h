//===- SourceLimits.h - Bounds on what the IR parser is given ---*- C++ -*-===//
//
// MLIR's parser recurses once per level of nesting (attributes, types,
// regions) and sizes a table by the largest result number a forward
// reference names (`%r#N`). An input file could therefore overflow the stack
// or make the parser allocate without bound. Every ens entry point that
// parses text first checks it with checkSourceLimits and then parses on a
// thread with a large, known stack (runWithLargeStack), so that what the
// check lets through always fits.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_SOURCELIMITS_H
#define ENS_SUPPORT_SOURCELIMITS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir::ens {

/// The deepest nesting of (), [], {} and <> that an input may have.
constexpr int64_t kMaxSourceNesting = 256;
/// The largest result number a value reference (`%name#N`) may name.
constexpr int64_t kMaxResultNumber = 65535;
/// The largest IR file a tool reads.
constexpr uint64_t kMaxSourceBytes = uint64_t(1) << 30;
/// The stack of the thread that parses and compiles: enough for
/// kMaxSourceNesting levels of every recursive parser and walker, with a
/// wide margin. It is reserved address space; only what is used is touched.
constexpr uint64_t kLargeStackBytes = uint64_t(256) << 20;

/// Where and how a text exceeds the source limits.
struct SourceLimitViolation {
  /// 1-based.
  unsigned line = 0, column = 0;
  std::string message;
};

/// The first place where `text` nests deeper than kMaxSourceNesting or
/// names a result number over kMaxResultNumber, if any. Strings and comments
/// are skipped as MLIR's lexer does.
std::optional<SourceLimitViolation>
findSourceLimitViolation(llvm::StringRef text);

/// findSourceLimitViolation as an error in MLIR's diagnostic form,
/// "<bufferName>:<line>:<col>: error: <message>".
llvm::Error checkSourceLimits(llvm::StringRef text, llvm::StringRef bufferName);

/// Reads the IR file at `path` ("-" for standard input) into a buffer
/// named `path`: a regular file or a stream of at most kMaxSourceBytes. A
/// device such as /dev/zero, a directory or a larger file is an error that
/// starts with `path`; nothing is read past the limit.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFile(llvm::StringRef path);

/// Runs `body` to completion on a thread with a kLargeStackBytes stack.
void runWithLargeStack(llvm::function_ref<void()> body);

} // namespace mlir::ens

#endif // ENS_SUPPORT_SOURCELIMITS_H
