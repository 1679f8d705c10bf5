//===- Escape.cpp - Input text inside generated code ----------------------===//
//
// A safe set rather than a list of dangerous characters: whatever the set
// leaves out (newlines, '/', '*', '\\', '?', quotes, control and non-ASCII
// bytes) is escaped, so that no spelling of a comment end, a line splice or
// a trigraph can survive.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Escape.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::ens;

/// Whether `c` may stand as itself in a comment.
static bool isSafeInComment(char c) {
  return llvm::isAlnum(c) || llvm::StringRef(" _.,:;+-=()[]<>#@%").contains(c);
}

std::string mlir::ens::escapeForComment(llvm::StringRef text) {
  std::string result;
  result.reserve(text.size());
  for (char c : text) {
    if (isSafeInComment(c)) {
      result += c;
      continue;
    }
    result += "\\x";
    result += llvm::hexdigit(static_cast<unsigned char>(c) >> 4, true);
    result += llvm::hexdigit(static_cast<unsigned char>(c) & 15, true);
  }
  return result;
}
