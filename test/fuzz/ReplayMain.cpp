//===- ReplayMain.cpp - Run a fuzz target's inputs without libFuzzer ------===//
//
// Builds into each fuzz target when ENS_FUZZ is off, so that ordinary test
// runs feed the committed seeds and regression inputs through the target's
// checks: every argument is a file, or a directory whose files are run in
// name order. A failed check aborts, as it does under libFuzzer. Only the
// standard library is used: a target may link nothing but libens.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (!fs::is_directory(argv[i], ec)) {
      files.push_back(argv[i]);
      continue;
    }
    std::vector<fs::path> inDirectory;
    for (const fs::directory_entry &entry : fs::directory_iterator(argv[i], ec))
      if (entry.is_regular_file())
        inDirectory.push_back(entry.path());
    if (ec) {
      std::fprintf(stderr, "cannot list %s: %s\n", argv[i],
                   ec.message().c_str());
      return 1;
    }
    std::sort(inDirectory.begin(), inDirectory.end());
    files.insert(files.end(), inDirectory.begin(), inDirectory.end());
  }
  for (const fs::path &file : files) {
    std::ifstream stream(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(stream)),
                      std::istreambuf_iterator<char>());
    if (!stream.good() && !stream.eof()) {
      std::fprintf(stderr, "cannot read %s\n", file.c_str());
      return 1;
    }
    std::printf("running %s\n", file.c_str());
    std::fflush(stdout);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size());
  }
  std::printf("ran %zu inputs\n", files.size());
  return files.empty() ? 1 : 0;
}
