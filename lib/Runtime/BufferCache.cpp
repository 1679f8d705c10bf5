//===- BufferCache.cpp - Memory for the buffers of compiled code ----------===//
//
// One process-wide cache of freed blocks, by size, behind a mutex (compiled
// code may allocate on several threads), in front of which each thread
// keeps a few small blocks of its own: a loop that allocates a temporary
// per iteration then takes no lock. Each block carries its size in a
// header, so that freeing needs only the pointer. The caches hold at most
// kMaxCachedBytes, and each thread's kThreadBlocks blocks of at most
// kMaxThreadBlockBytes; blocks beyond that go back to the system.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/BufferCache.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace ens::runtime;

namespace {

/// The alignment of every block, and the size of its header: the header
/// keeps the block after it as aligned as the block itself.
constexpr uint64_t kAlignment = 64;

/// The most memory that freed blocks may keep.
constexpr uint64_t kMaxCachedBytes = uint64_t(512) << 20;

/// The blocks a thread keeps for itself, and the largest it keeps.
constexpr unsigned kThreadBlocks = 16;
constexpr uint64_t kMaxThreadBlockBytes = uint64_t(64) << 10;

/// A thread's own freed blocks (headers included). Plain data with a
/// constant initializer: compiled code reaches it on every allocation, and
/// a thread_local with a destructor is reached through a wrapper that
/// checks a guard variable through __tls_get_addr on every use, whatever
/// the variable's own TLS model (it was 3% of a small step's time).
struct ThreadBlocks {
  char *blocks[kThreadBlocks];
  unsigned count;
  /// Whether the thread frees its blocks when it exits (see keep).
  bool releasing;

  /// A kept block of `size` bytes (without the header), or null.
  char *take(uint64_t size) {
    for (unsigned i = count; i-- > 0;)
      if (*reinterpret_cast<uint64_t *>(blocks[i]) == size) {
        char *block = blocks[i];
        blocks[i] = blocks[--count];
        return block;
      }
    return nullptr;
  }

  /// Keeps `block` of `size` bytes if there is room.
  bool keep(char *block, uint64_t size);
};

/// Initial-exec: in libens-runtime.so loaded by dlopen, these bytes come
/// from the static TLS that glibc sets aside for such libraries.
__attribute__((
    tls_model("initial-exec"))) thread_local ThreadBlocks threadBlocks = {};

/// Returns a thread's kept blocks to the system when the thread exits.
struct ThreadBlocksRelease {
  ~ThreadBlocksRelease() {
    for (unsigned i = 0; i < threadBlocks.count; ++i)
      std::free(threadBlocks.blocks[i]);
    threadBlocks.count = 0;
    threadBlocks.releasing = false;
  }
};

bool ThreadBlocks::keep(char *block, uint64_t size) {
  if (size > kMaxThreadBlockBytes || count == kThreadBlocks)
    return false;
  if (!releasing) {
    // The first block a thread keeps arms the release at its exit (the
    // only use of a thread_local with a destructor, once per thread). A
    // thread that keeps a block after that release has run gives it back.
    static thread_local ThreadBlocksRelease release;
    (void)&release;
    releasing = true;
  }
  blocks[count++] = block;
  return true;
}

struct BufferCache {
  std::mutex mutex;
  /// Freed blocks by size (without the header).
  std::unordered_map<uint64_t, std::vector<char *>> blocks;
  uint64_t cachedBytes = 0;
  unsigned users = 0;

  /// Returns every cached block to the system. The mutex must be held.
  void clear() {
    for (auto &[size, list] : blocks)
      for (char *block : list)
        std::free(block);
    blocks.clear();
    cachedBytes = 0;
  }
};

/// The cache; never destroyed, so that code running during static
/// destruction can still free into it.
BufferCache &getCache() {
  static BufferCache *cache = new BufferCache;
  return *cache;
}

} // namespace

void *ens::runtime::allocateBuffer(uint64_t size) {
  // A size this close to 2^64 cannot be allocated, and rounding it up
  // below would wrap around to a small block.
  if (size > UINT64_MAX - 2 * kAlignment)
    return nullptr;
  size =
      (std::max<uint64_t>(size, 1) + kAlignment - 1) / kAlignment * kAlignment;
  if (char *block = threadBlocks.take(size))
    return block + kAlignment;
  BufferCache &cache = getCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.blocks.find(size);
    if (it != cache.blocks.end() && !it->second.empty()) {
      char *block = it->second.back();
      it->second.pop_back();
      cache.cachedBytes -= size;
      return block + kAlignment;
    }
  }
  auto *block =
      static_cast<char *>(std::aligned_alloc(kAlignment, kAlignment + size));
  if (!block)
    return nullptr;
  *reinterpret_cast<uint64_t *>(block) = size;
  return block + kAlignment;
}

void ens::runtime::freeBuffer(void *pointer) {
  if (!pointer)
    return;
  char *block = static_cast<char *>(pointer) - kAlignment;
  uint64_t size = *reinterpret_cast<uint64_t *>(block);
  if (threadBlocks.keep(block, size))
    return;
  BufferCache &cache = getCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.users > 0 && cache.cachedBytes + size <= kMaxCachedBytes) {
      cache.blocks[size].push_back(block);
      cache.cachedBytes += size;
      return;
    }
  }
  std::free(block);
}

void ens::runtime::retainBufferCache() {
  BufferCache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  ++cache.users;
}

void ens::runtime::releaseBufferCache() {
  BufferCache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (--cache.users == 0)
    cache.clear();
}
