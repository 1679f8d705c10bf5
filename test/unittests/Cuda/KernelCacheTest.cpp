//===- KernelCacheTest.cpp - Compiled kernels in memory and on disk -------===//
//
// Hits, misses and rebuilds of the kernel cache, with a counting stand-in
// for NVRTC, and once with NVRTC itself: corrupted and truncated entries
// are rebuilt, concurrent writers leave one whole entry, an unwritable
// directory costs only the disk half, failures are not cached. Entries that
// are not regular files of the user's (a FIFO, a link to /dev/zero,
// another user's file) are rebuilt without blocking or reading them, and a
// cache directory that is not private is refused.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/KernelCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {

class KernelCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("ens-kernel-cache", directory));
    // Private whatever the umask, as a cache directory must be.
    ASSERT_FALSE(llvm::sys::fs::setPermissions(
        directory, llvm::sys::fs::perms::owner_all));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }

  /// A stand-in compiler whose output depends on `key`; counts its calls.
  llvm::Expected<CompiledCuda> fakeCompile(StringRef key) {
    ++compiles;
    CompiledCuda result;
    result.arch = "sm_90";
    result.log = ("log of " + key).str();
    result.image = std::string(4096, '\0') + key.str();
    return result;
  }

  llvm::Expected<CompiledCuda> get(KernelCache &cache, StringRef key) {
    return cache.getOrCompile(key, [&] { return fakeCompile(key); });
  }

  /// Expects `result` to be what fakeCompile makes of `key`, from `origin`.
  void expectEntry(llvm::Expected<CompiledCuda> result, StringRef key,
                   CacheOrigin origin) {
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_EQ(result->origin, origin);
    EXPECT_EQ(result->log, ("log of " + key).str());
    EXPECT_EQ(result->image, std::string(4096, '\0') + key.str());
  }

  /// The permission bits of `path` itself.
  static unsigned getMode(StringRef path) {
    struct stat status;
    if (::lstat(path.str().c_str(), &status) != 0)
      return ~0u;
    return status.st_mode & 07777;
  }

  llvm::SmallString<128> directory;
  std::atomic<int> compiles = 0;
};

TEST_F(KernelCacheTest, MissThenMemoryThenDisk) {
  KernelCache cache(directory.str().str());
  expectEntry(get(cache, "k1"), "k1", CacheOrigin::Compiled);
  expectEntry(get(cache, "k1"), "k1", CacheOrigin::Memory);
  KernelCache otherProcess(directory.str().str());
  expectEntry(get(otherProcess, "k1"), "k1", CacheOrigin::Disk);
  expectEntry(get(otherProcess, "k2"), "k2", CacheOrigin::Compiled);
  EXPECT_EQ(compiles, 2);
}

TEST_F(KernelCacheTest, CorruptedEntriesAreRebuilt) {
  KernelCache first(directory.str().str());
  expectEntry(get(first, "key"), "key", CacheOrigin::Compiled);
  std::string path = first.getEntryPath("key");
  std::string good = test::readFileBytes(path);
  ASSERT_GT(good.size(), 4096u);

  std::string flipped = good;
  flipped[flipped.size() - 100] ^= 0x40;
  std::string otherKey = good;
  otherKey.replace(otherKey.find("key"), 3, "kez");
  std::string badMagic = good;
  badMagic[0] = 'X';
  for (const std::string &bad :
       {good.substr(0, good.size() / 2), good.substr(0, 20), std::string(),
        flipped, otherKey, badMagic, good + "trailing"}) {
    test::writeFileBytes(path, bad);
    int before = compiles;
    KernelCache fresh(directory.str().str());
    expectEntry(get(fresh, "key"), "key", CacheOrigin::Compiled);
    EXPECT_EQ(compiles, before + 1);
    // The rebuilt entry replaced the bad file.
    EXPECT_EQ(test::readFileBytes(path), good);
    KernelCache after(directory.str().str());
    expectEntry(get(after, "key"), "key", CacheOrigin::Disk);
  }
}

TEST_F(KernelCacheTest, ConcurrentWritersLeaveOneWholeEntry) {
  std::vector<std::thread> threads;
  std::vector<std::optional<CompiledCuda>> results(8);
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      // One cache per thread, as separate processes would have.
      KernelCache cache(directory.str().str());
      llvm::Expected<CompiledCuda> result = get(cache, "shared");
      if (result)
        results[i] = std::move(*result);
      else
        llvm::consumeError(result.takeError());
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::optional<CompiledCuda> &result : results) {
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->image, std::string(4096, '\0') + "shared");
  }
  KernelCache after(directory.str().str());
  expectEntry(get(after, "shared"), "shared", CacheOrigin::Disk);
  // No partial file is left behind.
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it((directory + "/nvrtc").str(), ec),
       end;
       it != end && !ec; it.increment(ec)) {
    EXPECT_EQ(llvm::sys::path::filename(it->path()), "shared.cubin");
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST_F(KernelCacheTest, UnwritableDirectoryKeepsTheMemoryCache) {
  // A directory below a regular file cannot be created.
  std::string file = (directory + "/file").str();
  test::writeFileBytes(file, "not a directory");
  KernelCache cache(file + "/cache");
  expectEntry(get(cache, "k"), "k", CacheOrigin::Compiled);
  expectEntry(get(cache, "k"), "k", CacheOrigin::Memory);
  EXPECT_EQ(compiles, 1);
}

TEST_F(KernelCacheTest, FailuresAreNotCached) {
  KernelCache cache(directory.str().str());
  int calls = 0;
  auto failing = [&]() -> llvm::Expected<CompiledCuda> {
    ++calls;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "NVRTC cannot compile k.cu");
  };
  for (int i = 0; i < 2; ++i) {
    llvm::Expected<CompiledCuda> result = cache.getOrCompile("k", failing);
    ASSERT_FALSE(bool(result));
    EXPECT_EQ(llvm::toString(result.takeError()), "NVRTC cannot compile k.cu");
  }
  EXPECT_EQ(calls, 2);
  EXPECT_FALSE(llvm::sys::fs::exists(cache.getEntryPath("k")));
}

TEST_F(KernelCacheTest, EntriesThatAreNotRegularFilesAreRebuilt) {
  KernelCache first(directory.str().str());
  expectEntry(get(first, "key"), "key", CacheOrigin::Compiled);
  std::string path = first.getEntryPath("key");
  std::string elsewhere = (directory + "/elsewhere.cubin").str();
  ASSERT_EQ(::rename(path.c_str(), elsewhere.c_str()), 0);
  // A FIFO blocks a reader that opens it without O_NONBLOCK, /dev/zero never
  // ends, and a link, even to a good entry, may point anywhere.
  std::function<int()> plants[] = {
      [&] { return ::mkfifo(path.c_str(), 0600); },
      [&] { return ::symlink("/dev/zero", path.c_str()); },
      [&] { return ::symlink(elsewhere.c_str(), path.c_str()); },
  };
  for (auto [i, plant] : llvm::enumerate(plants)) {
    SCOPED_TRACE(i);
    ASSERT_EQ(plant(), 0);
    int before = compiles;
    KernelCache fresh(directory.str().str());
    expectEntry(get(fresh, "key"), "key", CacheOrigin::Compiled);
    EXPECT_EQ(compiles, before + 1);
    // The rebuilt entry replaced the planted file itself.
    struct stat status;
    ASSERT_EQ(::lstat(path.c_str(), &status), 0);
    EXPECT_TRUE(S_ISREG(status.st_mode));
    KernelCache after(directory.str().str());
    expectEntry(get(after, "key"), "key", CacheOrigin::Disk);
    ASSERT_EQ(::unlink(path.c_str()), 0);
  }
}

TEST_F(KernelCacheTest, EntriesOfAnotherUserAreRebuilt) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "only root can give a file to another user";
  KernelCache first(directory.str().str());
  expectEntry(get(first, "key"), "key", CacheOrigin::Compiled);
  std::string path = first.getEntryPath("key");
  // A whole, valid entry, but not the user's: what another user could
  // plant if they could write the directory.
  ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
  KernelCache fresh(directory.str().str());
  expectEntry(get(fresh, "key"), "key", CacheOrigin::Compiled);
  struct stat status;
  ASSERT_EQ(::stat(path.c_str(), &status), 0);
  EXPECT_EQ(status.st_uid, ::geteuid());
  KernelCache after(directory.str().str());
  expectEntry(get(after, "key"), "key", CacheOrigin::Disk);
}

TEST_F(KernelCacheTest, NewDirectoriesAndEntriesArePrivate) {
  std::string root = (directory + "/new/cache").str();
  KernelCache cache(root);
  expectEntry(get(cache, "key"), "key", CacheOrigin::Compiled);
  EXPECT_EQ(getMode(root), 0700u);
  EXPECT_EQ(getMode(root + "/nvrtc"), 0700u);
  EXPECT_EQ(getMode(cache.getEntryPath("key")), 0600u);
}

TEST_F(KernelCacheTest, DirectoriesThatAreNotPrivateAreRefused) {
  std::string root = directory.str().str();
  KernelCache first(root);
  expectEntry(get(first, "key"), "key", CacheOrigin::Compiled);
  std::string link = root + "-link";
  ASSERT_EQ(::symlink(root.c_str(), link.c_str()), 0);
  struct Case {
    std::string cacheDirectory;
    std::function<void()> setUp;
    std::string message;
  };
  Case cases[] = {
      {root, [&] { ::chmod(root.c_str(), 0777); },
       root + " belongs to another user or others can write it"},
      {root, [&] { ::chmod(root.c_str(), 0770); },
       root + " belongs to another user or others can write it"},
      {root, [&] { ::chmod((root + "/nvrtc").c_str(), 0722); },
       root + "/nvrtc belongs to another user or others can write it"},
      {link, [] {},
       link + " is a symbolic link; ens's cache directory must be a "
              "directory of the user's own"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    c.setUp();
    KernelCache cache(c.cacheDirectory);
    llvm::Expected<CompiledCuda> result = get(cache, "key");
    ASSERT_FALSE(bool(result));
    EXPECT_EQ(llvm::toString(result.takeError()), c.message);
    ::chmod(root.c_str(), 0700);
    ::chmod((root + "/nvrtc").c_str(), 0700);
  }
  EXPECT_EQ(compiles, 1);
  ::unlink(link.c_str());
}

TEST_F(KernelCacheTest, NvrtcResultsComeBackFromDisk) {
  const char *source = R"(extern "C" __global__ void scale(float *x) {
  x[threadIdx.x] *= 2.0f;
})";
  KernelCache cache(directory.str().str());
  llvm::Expected<CompiledCuda> compiled =
      cache.compile(source, "scale.cu", "sm_80");
  if (!isNvrtcAvailable()) {
    ASSERT_FALSE(bool(compiled));
    EXPECT_EQ(llvm::toString(compiled.takeError()),
              "NVRTC is not available in this build");
    return;
  }
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ(compiled->origin, CacheOrigin::Compiled);
  KernelCache otherProcess(directory.str().str());
  llvm::Expected<CompiledCuda> again =
      otherProcess.compile(source, "scale.cu", "sm_80");
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->origin, CacheOrigin::Disk);
  EXPECT_EQ(again->image, compiled->image);
  EXPECT_EQ(again->log, compiled->log);
  // Another architecture is another entry.
  llvm::Expected<CompiledCuda> sm90 =
      otherProcess.compile(source, "scale.cu", "sm_90");
  ASSERT_TRUE(bool(sm90)) << llvm::toString(sm90.takeError());
  EXPECT_EQ(sm90->origin, CacheOrigin::Compiled);
  EXPECT_NE(sm90->image, compiled->image);
}

} // namespace
