//===- FuzzSupport.h - Helpers shared by the fuzz targets -------*- C++ -*-===//
//
// Scratch files for the targets whose function under test takes a path
// rather than bytes (the dataset and checkpoint loaders).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_FUZZ_FUZZSUPPORT_H
#define ENS_TEST_FUZZ_FUZZSUPPORT_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

namespace ens_fuzz {

/// A directory of this process's own under the temporary directory,
/// created on first use and removed at exit, for the files a target writes
/// its input to. Every run overwrites the same names, so the directory stays
/// as small as the largest input.
inline const std::string &scratchDirectory() {
  struct Directory {
    std::string path;
    Directory() {
      llvm::SmallString<128> prefix;
      llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, prefix);
      llvm::sys::path::append(prefix, "ens-fuzz");
      llvm::SmallString<128> created;
      if (llvm::sys::fs::createUniqueDirectory(prefix, created)) {
        llvm::errs() << "fuzz: cannot create a scratch directory\n";
        std::abort();
      }
      path = std::string(created);
    }
    ~Directory() { llvm::sys::fs::remove_directories(path); }
  };
  static const Directory directory;
  return directory.path;
}

/// Writes `contents` to `name` in the scratch directory; returns its path.
/// A failure to write is the machine's fault, not the input's: it aborts.
inline std::string writeScratchFile(llvm::StringRef name,
                                    llvm::StringRef contents) {
  std::string path = scratchDirectory() + "/" + name.str();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << contents;
    os.close();
  }
  if (ec || os.has_error()) {
    llvm::errs() << "fuzz: cannot write " << path << "\n";
    std::abort();
  }
  return path;
}

} // namespace ens_fuzz

#endif // ENS_TEST_FUZZ_FUZZSUPPORT_H
