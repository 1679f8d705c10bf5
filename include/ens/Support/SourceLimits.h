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

#include <cstdint>

namespace mlir::ens {

/// The deepest nesting of (), [], {} and <> that an input may have.
constexpr int64_t kMaxSourceNesting = 256;
/// The largest result number a value reference (`%name#N`) may name.
constexpr int64_t kMaxResultNumber = 65535;
/// The stack of the thread that parses and compiles: enough for
/// kMaxSourceNesting levels of every recursive parser and walker, with a
/// wide margin. It is reserved address space; only what is used is touched.
constexpr uint64_t kLargeStackBytes = uint64_t(256) << 20;

/// An error naming `bufferName`, the line and the column when `text` nests
/// deeper than kMaxSourceNesting or names a result number over
/// kMaxResultNumber. Strings and comments are skipped as MLIR's lexer does.
llvm::Error checkSourceLimits(llvm::StringRef text, llvm::StringRef bufferName);

/// Runs `body` to completion on a thread with a kLargeStackBytes stack.
void runWithLargeStack(llvm::function_ref<void()> body);

} // namespace mlir::ens

#endif // ENS_SUPPORT_SOURCELIMITS_H
