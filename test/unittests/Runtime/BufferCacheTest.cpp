//===- BufferCacheTest.cpp - The cache of compiled code's buffers ---------===//
//
// What compiled code relies on: 64-byte alignment, writable blocks of the
// size asked for, a freed small block handed back to the next allocation
// of its size on the same thread, and threads that keep blocks and exit
// (their blocks are returned then: run from the sanitizer build with
// ASAN_OPTIONS=detect_leaks=1, which ctest turns off (docs/reliability.md),
// LeakSanitizer reports them when they are not).
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/BufferCache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

using namespace ens::runtime;

namespace {

/// Holds the cache open, as compiled code does while it exists.
struct CacheUser {
  CacheUser() { retainBufferCache(); }
  ~CacheUser() { releaseBufferCache(); }
};

TEST(BufferCacheTest, AlignsAndReusesAThreadsFreedBlocks) {
  CacheUser user;
  void *first = allocateBuffer(100);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  std::memset(first, 1, 100);
  freeBuffer(first);
  // 100 and 120 bytes round to the same 128-byte block; 300 does not.
  void *second = allocateBuffer(120);
  EXPECT_EQ(second, first);
  void *other = allocateBuffer(300);
  EXPECT_NE(other, first);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(other) % 64, 0u);
  freeBuffer(second);
  freeBuffer(other);
  freeBuffer(nullptr);
}

TEST(BufferCacheTest, ThreadsThatKeepBlocksExit) {
  CacheUser user;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t] {
      for (int round = 0; round < 100; ++round) {
        std::vector<void *> blocks;
        for (int i = 0; i < 20; ++i) {
          blocks.push_back(allocateBuffer(64 * (1 + (i + t) % 5)));
          ASSERT_NE(blocks.back(), nullptr);
          std::memset(blocks.back(), t, 64);
        }
        for (void *block : blocks)
          freeBuffer(block);
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  // A block freed here after the threads exited is still usable.
  void *block = allocateBuffer(64);
  ASSERT_NE(block, nullptr);
  std::memset(block, 0, 64);
  freeBuffer(block);
}

} // namespace
