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

#include "BufferCache.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <mutex>

using namespace mlir::ens;

namespace {

/// The alignment of every block, and the size of its header: the header
/// keeps the block after it as aligned as the block itself.
constexpr size_t kAlignment = 64;

/// The most memory that freed blocks may keep.
constexpr size_t kMaxCachedBytes = size_t(512) << 20;

/// The blocks a thread keeps for itself, and the largest it keeps.
constexpr unsigned kThreadBlocks = 16;
constexpr size_t kMaxThreadBlockBytes = size_t(64) << 10;

/// A thread's own freed blocks (headers included).
struct ThreadBlocks {
  char *blocks[kThreadBlocks] = {};
  unsigned count = 0;

  ~ThreadBlocks() {
    for (unsigned i = 0; i < count; ++i)
      std::free(blocks[i]);
  }

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
  bool keep(char *block, uint64_t size) {
    if (size > kMaxThreadBlockBytes || count == kThreadBlocks)
      return false;
    blocks[count++] = block;
    return true;
  }
};

/// Initial-exec: compiled code allocates in its inner loops, and the
/// general model would call __tls_get_addr on every allocation.
__attribute__((
    tls_model("initial-exec"))) thread_local ThreadBlocks threadBlocks;

struct BufferCache {
  std::mutex mutex;
  /// Freed blocks by size (without the header).
  llvm::DenseMap<size_t, llvm::SmallVector<char *, 4>> blocks;
  size_t cachedBytes = 0;
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

void *allocate(uint64_t size) {
  size = llvm::alignTo(std::max<uint64_t>(size, 1), kAlignment);
  if (char *block = threadBlocks.take(size))
    return block + kAlignment;
  BufferCache &cache = getCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.blocks.find(size);
    if (it != cache.blocks.end() && !it->second.empty()) {
      char *block = it->second.pop_back_val();
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

void deallocate(void *pointer) {
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

} // namespace

llvm::orc::SymbolMap
cpu::getBufferCacheSymbols(llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
  symbols[mangle("_mlir_memref_to_llvm_alloc")] = {
      llvm::orc::ExecutorAddr::fromPtr(&allocate),
      llvm::JITSymbolFlags::Exported};
  symbols[mangle("_mlir_memref_to_llvm_free")] = {
      llvm::orc::ExecutorAddr::fromPtr(&deallocate),
      llvm::JITSymbolFlags::Exported};
  return symbols;
}

void cpu::retainBufferCache() {
  BufferCache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  ++cache.users;
}

void cpu::releaseBufferCache() {
  BufferCache &cache = getCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (--cache.users == 0)
    cache.clear();
}
