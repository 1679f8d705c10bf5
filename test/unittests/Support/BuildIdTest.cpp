//===- BuildIdTest.cpp - The build of loaded code -------------------------===//
//
// getBuildId against the note as readelf reports it for this test program,
// and for an address in another loaded library and in none.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/BuildId.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace mlir::ens;

namespace {

/// A function of this program.
int localFunction() { return 1; }

/// The build ID of `path` as readelf -n prints it, or empty.
std::string readElfBuildId(const std::string &path) {
  std::string command = "readelf -n " + path + " 2>/dev/null";
  FILE *pipe = ::popen(command.c_str(), "r");
  if (!pipe)
    return std::string();
  std::string id;
  char line[512];
  while (std::fgets(line, sizeof(line), pipe)) {
    std::string text(line);
    size_t at = text.find("Build ID: ");
    if (at != std::string::npos)
      id = text.substr(at + 10, text.find_first_of("\r\n", at) - at - 10);
  }
  ::pclose(pipe);
  return id;
}

TEST(BuildIdTest, ThisProgramsNote) {
  std::string id = getBuildId(reinterpret_cast<const void *>(&localFunction));
  ASSERT_FALSE(id.empty());
  // The program's own path: in the command, /proc/self would be readelf.
  char path[4096];
  ssize_t length = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  ASSERT_GT(length, 0);
  EXPECT_EQ(id, readElfBuildId(std::string(path, length)));
}

TEST(BuildIdTest, OtherLibraryAndNowhere) {
  std::string here = getBuildId(reinterpret_cast<const void *>(&localFunction));
  using Math = double (*)(double);
  std::string libm =
      getBuildId(reinterpret_cast<const void *>(static_cast<Math>(&::cos)));
  EXPECT_NE(libm, here);
  EXPECT_EQ(getBuildId(nullptr), "");
}

} // namespace
