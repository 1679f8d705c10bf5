//===- SourceScanner.cpp - MLIR text as the lexer sees brackets -----------===//

#include "ens/Support/SourceScanner.h"

using namespace mlir::ens;

void mlir::ens::scanSource(
    llvm::StringRef text, llvm::function_ref<bool(const ScannedChar &)> visit) {
  ScannedChar at;
  size_t lineStart = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < e && text[i] == '\n')
        --i;
      continue;
    }
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      while (i + 1 < e && text[i + 1] != '\n')
        ++i;
      continue;
    }
    at.offset = i;
    at.column = static_cast<unsigned>(i - lineStart + 1);
    if (!visit(at))
      return;
    if (c == '\n') {
      ++at.line;
      lineStart = i + 1;
    } else if ((c == '-' || c == '<' || c == '>') && i + 1 < e &&
               ((c == '-' && text[i + 1] == '>') || text[i + 1] == '=')) {
      ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++at.depth;
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && at.depth > 0) {
      --at.depth;
    }
  }
}
