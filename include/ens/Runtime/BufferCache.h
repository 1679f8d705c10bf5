//===- BufferCache.h - Memory for the buffers of compiled code --*- C++ -*-===//
//
// CPU code allocates its temporary buffers on every run. Through malloc,
// large buffers come from fresh pages each time, and faulting them in can
// cost as much as the arithmetic. The CPU backend's code allocates through
// the functions here instead, which keep freed blocks for reuse. The JIT
// binds them to the code it compiles, and the runtime hands them to the
// shared object of a cpu artifact when it loads it, so both run on this one
// cache.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_BUFFERCACHE_H
#define ENS_RUNTIME_BUFFERCACHE_H

#include <cstdint>

namespace ens::runtime {

/// A block of at least `size` bytes aligned to 64, or null when the system
/// has no memory for it. What memref lowering calls
/// _mlir_memref_to_llvm_alloc with generic allocation functions enabled.
void *allocateBuffer(uint64_t size);

/// Frees a block of allocateBuffer (null is ignored): into the cache while
/// compiled code that uses it exists, else to the system. What memref
/// lowering calls _mlir_memref_to_llvm_free.
void freeBuffer(void *pointer);

/// Declares that compiled code which allocates through the cache exists.
/// Blocks stay cached while any does; when the last one is gone (every
/// retain matched by a release), the cache returns its memory.
void retainBufferCache();
void releaseBufferCache();

} // namespace ens::runtime

#endif // ENS_RUNTIME_BUFFERCACHE_H
