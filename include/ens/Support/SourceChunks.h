//===- SourceChunks.h - The functions of IR text, apart ---------*- C++ -*-===//
//
// MLIR 19's parser binds a forward reference left open in one function to
// a value of the same name that a later function defines. When the later
// function then fails to parse, the parser frees it while the earlier one
// still uses its value, and its cleanup writes to freed memory: a corrupted
// heap, an abort, and LLVM's signal handler removing the tool's outputs.
// Parsing each function alone cannot bind across functions, so ens parses
// every function of untrusted text alone first (mlir::ens::
// parseFunctionsApart) and gives the whole text to the parser only once
// each has parsed.
//
// Each function is parsed from a copy of the whole text in which every other
// function is blanked (its characters but newlines made spaces), so that the
// parser reports every line and column as in the original. What is not a
// function, alias definitions and file metadata included, is kept in every
// copy.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_SOURCECHUNKS_H
#define ENS_SUPPORT_SOURCECHUNKS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mlir::ens {

/// The bytes of all the copies that splitFunctionsApart makes together
/// stay within about this many (more functions are grouped, a few to a
/// copy), so that a text of many functions costs at most this much more
/// than one parse.
constexpr size_t kMaxChunkCopyBytes = size_t(256) << 20;

/// The byte ranges [begin, end) of the functions of `text`: each starts at
/// a line whose first token is `func.func` (or "func.func"), at the top
/// level or directly in a top-level `module`'s body, and ends where the
/// next one starts, at the end of that module's body, or at the next
/// top-level alias definition or file metadata. Text whose structure is
/// not understood stays in the function before it, which is always safe:
/// the split is only ever coarser than the functions.
std::vector<std::pair<size_t, size_t>> findFunctionRanges(llvm::StringRef text);

/// Copies of `text`, one per group of consecutive functions, each with the
/// other functions blanked; none when `text` has fewer than two functions.
std::vector<std::string> splitFunctionsApart(llvm::StringRef text);

} // namespace mlir::ens

#endif // ENS_SUPPORT_SOURCECHUNKS_H
