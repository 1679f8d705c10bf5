//===- BufferCache.h - Memory for the buffers of compiled code --*- C++ -*-===//
//
// Compiled code allocates its temporary buffers on every run. Through
// malloc, large buffers come from fresh pages each time, and faulting them
// in can cost as much as the arithmetic. The CPU backend's code allocates
// through the functions here instead, which keep freed blocks for reuse.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_BUFFERCACHE_H
#define ENS_LIB_BACKEND_CPU_BUFFERCACHE_H

#include "llvm/ExecutionEngine/Orc/Mangling.h"

namespace mlir::ens::cpu {

/// The allocation functions that memref lowering calls with generic
/// functions enabled (_mlir_memref_to_llvm_alloc and _free), bound to the
/// cache, for ExecutionEngine::registerSymbols.
llvm::orc::SymbolMap getBufferCacheSymbols(llvm::orc::MangleAndInterner mangle);

/// Declares that compiled code which allocates through the cache exists.
/// Blocks stay cached while any does; when the last one is gone (every
/// retain matched by a release), the cache returns its memory.
void retainBufferCache();
void releaseBufferCache();

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_BUFFERCACHE_H
