//===- SourceChunks.cpp - The functions of IR text, apart -----------------===//
//
// The split is read off line starts: a function starts on a line of its
// own, and what opens a line at the top level (or in the top-level module's
// body) says whether a new statement starts there. Lines that continue a
// statement (a result type after "->", say) start with tokens that never
// start one, so they never split.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/SourceChunks.h"

#include "ens/Support/SourceScanner.h"

#include <algorithm>
#include <cctype>

using namespace mlir::ens;

/// Whether `text` at `at` is the word `word`, not a prefix of a longer one.
static bool startsWithWord(llvm::StringRef text, size_t at,
                           llvm::StringRef word) {
  if (!text.substr(at).starts_with(word))
    return false;
  size_t next = at + word.size();
  if (next == text.size())
    return true;
  char c = text[next];
  return !(std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.' || c == '$');
}

namespace {
/// What a line of text starts with, as far as the split cares.
enum class LineStart { Function, Module, Kept, Statement, Other };
} // namespace

static LineStart classifyLine(llvm::StringRef text, size_t at) {
  if (startsWithWord(text, at, "func.func") ||
      text.substr(at).starts_with("\"func.func\""))
    return LineStart::Function;
  if (startsWithWord(text, at, "module") ||
      text.substr(at).starts_with("\"builtin.module\""))
    return LineStart::Module;
  // Alias definitions and file metadata ({-# ... #-}).
  if (text.substr(at).starts_with("#") || text.substr(at).starts_with("!") ||
      text.substr(at).starts_with("{-#"))
    return LineStart::Kept;
  if (at < text.size() &&
      (text[at] == '%' || text[at] == '"' ||
       (std::isalpha(static_cast<unsigned char>(text[at])) &&
        !startsWithWord(text, at, "attributes"))))
    return LineStart::Statement;
  return LineStart::Other;
}

std::vector<std::pair<size_t, size_t>>
mlir::ens::findFunctionRanges(llvm::StringRef text) {
  std::vector<std::pair<size_t, size_t>> ranges;
  bool open = false;
  auto close = [&](size_t at) {
    if (open)
      ranges.back().second = at;
    open = false;
  };
  // Whether the current top-level statement is a module, and which bracket
  // opened depth 1: only a module's `{` holds functions one level down.
  bool inModule = false;
  char outerBracket = 0;
  auto onLineStart = [&](size_t lineStart, int64_t depth) {
    size_t at = lineStart;
    while (at < text.size() &&
           (text[at] == ' ' || text[at] == '\t' || text[at] == '\r'))
      ++at;
    LineStart kind = classifyLine(text, at);
    bool inModuleBody = depth == 1 && inModule && outerBracket == '{';
    if (kind == LineStart::Function && (depth == 0 || inModuleBody)) {
      close(at);
      ranges.push_back({at, text.size()});
      open = true;
    }
    if (depth != 0)
      return;
    if (kind == LineStart::Module || kind == LineStart::Kept)
      close(at);
    if (kind == LineStart::Module)
      inModule = true;
    else if (kind == LineStart::Function || kind == LineStart::Kept ||
             kind == LineStart::Statement)
      inModule = false;
  };
  onLineStart(0, 0);
  scanSource(text, [&](const ScannedChar &at) {
    char c = text[at.offset];
    if (c == '\n')
      onLineStart(at.offset + 1, at.depth);
    else if (at.depth == 0 && (c == '(' || c == '[' || c == '{' || c == '<'))
      outerBracket = c;
    else if (at.depth == 1 && c == '}' && inModule)
      close(at.offset);
    return true;
  });
  close(text.size());
  return ranges;
}

std::vector<std::string> mlir::ens::splitFunctionsApart(llvm::StringRef text) {
  std::vector<std::pair<size_t, size_t>> ranges = findFunctionRanges(text);
  size_t groups = std::min(ranges.size(), kMaxChunkCopyBytes /
                                              std::max<size_t>(text.size(), 1));
  if (groups < 2)
    return {};
  std::vector<std::string> copies;
  for (size_t group = 0; group < groups; ++group) {
    // Group `group` holds the ranges [first, last).
    size_t first = group * ranges.size() / groups;
    size_t last = (group + 1) * ranges.size() / groups;
    std::string copy = text.str();
    for (size_t r = 0; r < ranges.size(); ++r) {
      if (r >= first && r < last)
        continue;
      for (size_t i = ranges[r].first; i < ranges[r].second; ++i)
        if (copy[i] != '\n')
          copy[i] = ' ';
    }
    copies.push_back(std::move(copy));
  }
  return copies;
}
