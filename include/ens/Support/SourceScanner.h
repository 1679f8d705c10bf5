//===- SourceScanner.h - MLIR text as the lexer sees brackets ---*- C++ -*-===//
//
// The checks that run on IR text before the parser sees it (SourceLimits.h,
// SourceChunks.h) need to know which characters are code, and how deeply
// bracketed each one is, without parsing. scanSource walks the text once
// and answers both, skipping what MLIR's lexer skips.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_SOURCESCANNER_H
#define ENS_SUPPORT_SOURCESCANNER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>

namespace mlir::ens {

/// One character of code that scanSource visits.
struct ScannedChar {
  /// Its byte offset in the text.
  size_t offset = 0;
  /// 1-based.
  unsigned line = 1, column = 1;
  /// The number of (), [], {} and <> open before it.
  int64_t depth = 0;
};

/// Calls `visit` on every character of `text` that is code, in order, until
/// it returns false: string literals (a backslash escapes the next
/// character; an unterminated one ends at the end of its line) and line
/// comments are skipped as MLIR's lexer skips them, newlines included, and
/// "->", ">=" and "<=" are visited as their first character only, so that
/// they never count as angle brackets. Closing brackets never take the depth
/// below zero.
void scanSource(llvm::StringRef text,
                llvm::function_ref<bool(const ScannedChar &)> visit);

} // namespace mlir::ens

#endif // ENS_SUPPORT_SOURCESCANNER_H
