//===- FileSystemTest.cpp - Tests of durable writes and bounded reads -----===//

#include "ens/Support/FileSystem.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

using namespace mlir::ens;

namespace {

class FileSystemTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ens-fs-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(llvm::StringRef name) {
    llvm::SmallString<128> result(dir);
    llvm::sys::path::append(result, name);
    return std::string(result);
  }
  static std::string slurp(const std::string &file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  /// The names in the directory, to see that nothing is left behind.
  int countEntries() {
    int count = 0;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      ++count;
    return count;
  }
  llvm::SmallString<128> dir;
};

TEST_F(FileSystemTest, AtomicWriteReplacesAndLeavesNoTemporary) {
  std::string file = path("out.bin");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(file, "first")));
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(file, "second")));
  EXPECT_EQ(slurp(file), "second");
  EXPECT_EQ(countEntries(), 1);
}

// Renaming a temporary over a device (ens-opt -o /dev/null as root) would
// replace it with a regular file (issue #25); so would renaming over a FIFO
// a tool's user named as its output.
TEST_F(FileSystemTest, AtomicWriteToANamedFifoWritesIntoIt) {
  std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader, so that opening it for writing does not wait.
  int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(
      fifo, "through", 0644, ens::runtime::FifoPolicy::WriteInto)));
  char got[16] = {};
  EXPECT_EQ(::read(reader, got, sizeof(got)), 7);
  EXPECT_STREQ(got, "through");
  ::close(reader);
  struct stat status;
  ASSERT_EQ(::stat(fifo.c_str(), &status), 0);
  EXPECT_TRUE(S_ISFIFO(status.st_mode));
  EXPECT_EQ(countEntries(), 1);
}

// A FIFO planted where ens keeps a file of its own is replaced, not
// written into (which would wait for a reader that never comes).
TEST_F(FileSystemTest, AtomicWriteReplacesAPlantedFifo) {
  std::string fifo = path("CURRENT");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(fifo, "gen-1\n")));
  EXPECT_EQ(slurp(fifo), "gen-1\n");
  EXPECT_EQ(countEntries(), 1);
}

TEST_F(FileSystemTest, AtomicWriteToADirectoryIsAnError) {
  std::string sub = path("sub");
  ASSERT_FALSE(llvm::sys::fs::create_directory(sub));
  llvm::Error error = writeFileAtomically(sub, "x");
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(llvm::toString(std::move(error)), sub + " is a directory");
  EXPECT_TRUE(llvm::sys::fs::is_directory(sub));
}

TEST_F(FileSystemTest, AtomicWriteFailureKeepsTheOldFile) {
  std::string file = path("out.bin");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(file, "kept")));
  // /dev/full fails every write with ENOSPC; write through a directory that
  // does not exist to fail at creation, and check the old file both times.
  llvm::Error error = writeFileAtomically(path("missing/out.bin"), "x");
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("cannot create"),
            std::string::npos);
  EXPECT_EQ(slurp(file), "kept");
  EXPECT_EQ(countEntries(), 1);
}

TEST_F(FileSystemTest, BoundedReadChecksTheDescriptor) {
  std::string file = path("in.bin");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(file, "12345")));
  EXPECT_EQ(*readFileBounded(file), "12345");

  ReadOptions small;
  small.maxBytes = 4;
  llvm::Expected<std::string> tooLarge = readFileBounded(file, small);
  ASSERT_FALSE(static_cast<bool>(tooLarge));
  EXPECT_EQ(llvm::toString(tooLarge.takeError()),
            file + ": 5 bytes, over the limit of 4 bytes");

  // A FIFO with no writer would block an ordinary open; this one returns.
  std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  llvm::Expected<std::string> notRegular = readFileBounded(fifo);
  ASSERT_FALSE(static_cast<bool>(notRegular));
  EXPECT_EQ(llvm::toString(notRegular.takeError()),
            fifo + ": not a regular file");

  llvm::Expected<std::string> device = readFileBounded("/dev/zero");
  ASSERT_FALSE(static_cast<bool>(device));
  llvm::consumeError(device.takeError());

  std::string link = path("link");
  ASSERT_EQ(::symlink(file.c_str(), link.c_str()), 0);
  EXPECT_EQ(*readFileBounded(link), "12345");
  ReadOptions noFollow;
  noFollow.noFollow = true;
  llvm::Expected<std::string> followed = readFileBounded(link, noFollow);
  ASSERT_FALSE(static_cast<bool>(followed));
  llvm::consumeError(followed.takeError());
}

TEST(ChecksumTest, DiffersOnOneBit) {
  EXPECT_EQ(computeChecksum("abc"), computeChecksum("abc"));
  EXPECT_NE(computeChecksum("abc"), computeChecksum("abd"));
  EXPECT_NE(computeChecksum(""), computeChecksum(llvm::StringRef("\0", 1)));
}

} // namespace
