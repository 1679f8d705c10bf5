//===- SourceLimits.cpp - Bounds on what the IR parser is given -----------===//
//
// The check is a scan of the text, not a parse (SourceScanner.h): brackets
// inside string literals and comments do not count, and neither do "->"
// (function types, affine maps) and the comparisons ">=" / "<=".
//
//===----------------------------------------------------------------------===//

#include "ens/Support/SourceLimits.h"

#include "ens/Support/FileSystem.h"
#include "ens/Support/SourceScanner.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/thread.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>
#include <unistd.h>

using namespace mlir::ens;

std::optional<SourceLimitViolation>
mlir::ens::findSourceLimitViolation(llvm::StringRef text) {
  std::optional<SourceLimitViolation> violation;
  scanSource(text, [&](const ScannedChar &at) {
    auto fail = [&](const llvm::Twine &message) {
      violation = SourceLimitViolation{at.line, at.column, message.str()};
      return false;
    };
    size_t i = at.offset;
    char c = text[i];
    if (c == '#' && i > 0 &&
        (std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
         text[i - 1] == '_' || text[i - 1] == '$' || text[i - 1] == '.' ||
         text[i - 1] == '-')) {
      // A result number: `%name#N`. Compared digit by digit, so that no
      // length of digits can overflow.
      size_t start = i + 1, end = start;
      while (end < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
      llvm::StringRef digits = text.slice(start, end).ltrim('0');
      uint64_t number = 0;
      bool tooLarge = digits.size() > 18 ||
                      (!digits.empty() && digits.getAsInteger(10, number)) ||
                      number > static_cast<uint64_t>(kMaxResultNumber);
      if (tooLarge)
        return fail(llvm::formatv("result number #{0} is over the limit of {1}",
                                  text.slice(start, std::min(end, start + 24)),
                                  kMaxResultNumber));
      return true;
    }
    if ((c == '(' || c == '[' || c == '{' || c == '<') &&
        at.depth + 1 > kMaxSourceNesting)
      return fail(
          llvm::formatv("nesting deeper than {0} levels", kMaxSourceNesting));
    return true;
  });
  return violation;
}

llvm::Error mlir::ens::checkSourceLimits(llvm::StringRef text,
                                         llvm::StringRef bufferName) {
  std::optional<SourceLimitViolation> violation =
      findSourceLimitViolation(text);
  if (!violation)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::formatv("{0}:{1}:{2}: error: {3}", bufferName, violation->line,
                    violation->column, violation->message));
}

/// Reads standard input to its end or to one byte past kMaxSourceBytes.
static llvm::Expected<std::string> readStandardInput() {
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= kMaxSourceBytes) {
    ssize_t got = ::read(STDIN_FILENO, chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return llvm::createStringError(llvm::formatv(
          "cannot read standard input: {0}", std::strerror(errno)));
    if (got == 0)
      return text;
    text.append(chunk, static_cast<size_t>(got));
  }
  return llvm::createStringError(llvm::formatv(
      "standard input: more than {0} bytes, the limit of an IR file",
      kMaxSourceBytes));
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mlir::ens::readSourceFile(llvm::StringRef path) {
  llvm::Expected<std::string> text = [&]() -> llvm::Expected<std::string> {
    if (path == "-")
      return readStandardInput();
    ReadOptions options;
    options.maxBytes = kMaxSourceBytes;
    return readFileBounded(path, options);
  }();
  if (!text)
    return text.takeError();
  return llvm::MemoryBuffer::getMemBufferCopy(*text, path);
}

void mlir::ens::runWithLargeStack(llvm::function_ref<void()> body) {
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes),
                      [body] { body(); });
  worker.join();
}
