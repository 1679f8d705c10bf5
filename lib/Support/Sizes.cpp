//===- Sizes.cpp - Checked shape products and buffer-size limits ----------===//
//
// The limit defaults to a fraction of what the process can really have: a
// buffer larger than half of physical memory, or of an address-space limit,
// would either fail to allocate inside generated code (which cannot report
// it) or push the machine into swap. Refusing it up front turns both into a
// message.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Sizes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <limits>

using namespace mlir::ens;

std::string mlir::ens::formatShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "[]";
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (i)
      os << "x";
    if (size < 0)
      os << "?";
    else
      os << size;
  }
  return text;
}

llvm::Expected<int64_t>
mlir::ens::getCheckedNumElements(llvm::ArrayRef<int64_t> shape,
                                 llvm::StringRef what) {
  if (llvm::any_of(shape, [](int64_t size) { return size < 0; }))
    return llvm::createStringError(
        llvm::formatv("{0} has shape {1}, whose sizes are not all known", what,
                      formatShape(shape)));
  // A zero anywhere makes the count 0, however large the other sizes.
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t count = 1;
  for (int64_t size : shape) {
    if (llvm::MulOverflow(count, size, count))
      return llvm::createStringError(
          llvm::formatv("{0} has shape {1}, whose element count overflows "
                        "64 bits",
                        what, formatShape(shape)));
  }
  return count;
}

llvm::Expected<int64_t>
mlir::ens::getCheckedByteSize(llvm::ArrayRef<int64_t> shape,
                              int64_t elementBytes, llvm::StringRef what) {
  llvm::Expected<int64_t> count = getCheckedNumElements(shape, what);
  if (!count)
    return count.takeError();
  int64_t bytes;
  if (llvm::MulOverflow(*count, elementBytes, bytes))
    return llvm::createStringError(
        llvm::formatv("{0} has shape {1}, whose size in bytes overflows "
                      "64 bits",
                      what, formatShape(shape)));
  return bytes;
}

llvm::Expected<int64_t> mlir::ens::getCheckedSum(int64_t a, int64_t b,
                                                 llvm::StringRef what) {
  int64_t sum;
  if (llvm::AddOverflow(a, b, sum))
    return llvm::createStringError(
        llvm::formatv("{0} overflows 64 bits", what));
  return sum;
}

int64_t mlir::ens::getDefaultMaxBufferBytes() {
  if (const char *text = std::getenv("ENS_MAX_BUFFER_BYTES")) {
    char *end = nullptr;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (end != text && *end == '\0' && value > 0 &&
        value <= static_cast<unsigned long long>(
                     std::numeric_limits<int64_t>::max()))
      return static_cast<int64_t>(value);
  }
  int64_t limit = std::numeric_limits<int64_t>::max();
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    limit = static_cast<int64_t>(pages) / 2 * pageSize;
  struct rlimit addressSpace;
  if (getrlimit(RLIMIT_AS, &addressSpace) == 0 &&
      addressSpace.rlim_cur != RLIM_INFINITY)
    limit = std::min<int64_t>(limit,
                              static_cast<int64_t>(addressSpace.rlim_cur / 2));
  return limit;
}

std::string mlir::ens::formatBytes(int64_t bytes) {
  if (bytes < 1000)
    return llvm::formatv("{0} bytes", bytes);
  static const char *units[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
  double value = bytes;
  int unit = -1;
  while (value >= 1000 && unit < 5) {
    value /= 1000;
    ++unit;
  }
  return llvm::formatv("{0:f1} {1} ({2} bytes)", value, units[unit], bytes);
}

llvm::Error mlir::ens::checkBufferBytes(int64_t bytes, int64_t limit,
                                        llvm::StringRef what) {
  if (limit <= 0)
    limit = getDefaultMaxBufferBytes();
  if (bytes <= limit)
    return llvm::Error::success();
  return llvm::createStringError(llvm::formatv(
      "{0} needs {1}, over the buffer limit of {2} (raise it with "
      "--max-buffer-bytes or CompileOptions::maxBufferBytes)",
      what, formatBytes(bytes), formatBytes(limit)));
}
