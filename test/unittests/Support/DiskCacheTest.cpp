//===- DiskCacheTest.cpp - The disk cache's bound on its size ------------===//
//
// A subdirectory of the cache keeps at most getCacheLimitBytes() of
// entries: a write over the limit removes the least recently used entries
// (a hit renews an entry) down to three quarters of it, never the entry
// just written, and leaves files that are not entries alone.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/DiskCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>

using namespace mlir::ens;

namespace {
class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ens-disk-cache", root));
  }
  void TearDown() override {
    unsetenv("ENS_CACHE_MAX_BYTES");
    llvm::sys::fs::remove_directories(root);
  }

  /// Stores an entry of about `bytes` bytes for `key` and dates it
  /// `age` seconds back.
  void store(const DiskCache &cache, const std::string &key, size_t bytes,
             int age) {
    std::string payload(bytes, 'x');
    cache.write(key, {payload});
    struct timespec times[2];
    clock_gettime(CLOCK_REALTIME, &times[0]);
    times[0].tv_sec -= age;
    times[1] = times[0];
    ASSERT_EQ(utimensat(AT_FDCWD, cache.getEntryPath(key).c_str(), times, 0),
              0);
  }

  bool exists(const DiskCache &cache, const std::string &key) {
    return llvm::sys::fs::exists(cache.getEntryPath(key));
  }

  llvm::SmallString<128> root;
};

std::string key(char c) { return std::string(32, c); }
} // namespace

TEST_F(DiskCacheTest, LimitDefaultsAndReadsTheEnvironment) {
  unsetenv("ENS_CACHE_MAX_BYTES");
  EXPECT_EQ(getCacheLimitBytes(), uint64_t(2) << 30);
  setenv("ENS_CACHE_MAX_BYTES", "12345", 1);
  EXPECT_EQ(getCacheLimitBytes(), 12345u);
  setenv("ENS_CACHE_MAX_BYTES", "a lot", 1);
  EXPECT_EQ(getCacheLimitBytes(), uint64_t(2) << 30);
}

TEST_F(DiskCacheTest, WriteOverTheLimitRemovesTheLeastRecentlyUsed) {
  DiskCache cache(root, "kind", ".bin", "ENSTEST1");
  ASSERT_TRUE(*cache.open());
  // Four entries of ~1000 bytes, the oldest 'a'; a limit of 3500 keeps all.
  setenv("ENS_CACHE_MAX_BYTES", "3500", 1);
  store(cache, key('a'), 1000, 400);
  store(cache, key('b'), 1000, 300);
  store(cache, key('c'), 1000, 200);
  // A hit renews 'a', so that 'b' is now the least recently used.
  ASSERT_TRUE(cache.read(key('a'), 1).has_value());
  // A file that is not an entry is neither counted nor removed.
  std::string stray = (root + "/kind/notes.txt").str();
  std::ofstream(stray) << std::string(5000, 'y');
  // The fourth write passes the limit (4 x ~1060 bytes): entries go, the
  // least recently used first, until at most 2625 bytes remain: 'b' and
  // 'c' go, 'a' (renewed) and 'd' (just written) stay.
  store(cache, key('d'), 1000, 0);
  EXPECT_TRUE(exists(cache, key('a')));
  EXPECT_FALSE(exists(cache, key('b')));
  EXPECT_FALSE(exists(cache, key('c')));
  EXPECT_TRUE(exists(cache, key('d')));
  EXPECT_TRUE(llvm::sys::fs::exists(stray));
  EXPECT_TRUE(cache.read(key('d'), 1).has_value());
}

TEST_F(DiskCacheTest, TheEntryJustWrittenStaysEvenAloneOverTheLimit) {
  DiskCache cache(root, "kind", ".bin", "ENSTEST1");
  ASSERT_TRUE(*cache.open());
  setenv("ENS_CACHE_MAX_BYTES", "100", 1);
  store(cache, key('a'), 1000, 10);
  store(cache, key('b'), 1000, 0);
  EXPECT_FALSE(exists(cache, key('a')));
  EXPECT_TRUE(exists(cache, key('b')));
}
