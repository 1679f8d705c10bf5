//===- CpuBackend.h - JIT-compiled ens functions on the CPU -----*- C++ -*-===//
//
// Compiles one function of an ens module to native code in-process (MLIR's
// ExecutionEngine over LLVM ORC) and runs it on host tensors. The program
// goes through the same front of the pipeline as every backend: the
// function transforms, then convert-ens-to-linalg.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CPUBACKEND_H
#define ENS_BACKEND_CPUBACKEND_H

#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace ens::runtime {
class Runner;
} // namespace ens::runtime

namespace mlir::ens {

/// Registers what the CPU backend's pipeline needs in `registry`: the
/// dialects it lowers through and their bufferization and LLVM interfaces.
void registerCpuBackendDialects(DialectRegistry &registry);

/// How to compile for the CPU.
struct CpuOptions {
  /// The threads that run the compiled code; 0 means one per core. More
  /// than one needs LLVM's OpenMP runtime (libomp.so.5) at run time; where
  /// it is missing or does not load, the code runs on one thread. Programs
  /// too small to gain from threads (about 4M loop iterations a call) run on
  /// one thread too.
  int threads = 0;
  /// The largest buffer the compiled code may allocate, and the most its
  /// arguments and results may take together; 0 means
  /// getDefaultMaxBufferBytes(). A larger program is refused at compile
  /// time.
  int64_t maxBufferBytes = 0;
};

/// A function compiled for the CPU.
class CpuExecutable {
public:
  /// Compiles the function `entry` of `module`, which is left unchanged,
  /// for the host CPU. The module's context must have the CPU backend's
  /// dialects registered. The code comes from the persistent cache in
  /// getCacheDirectory() when it holds it (ens/Backend/Cpu/CodeCache.h);
  /// otherwise it is compiled and stored there, or JIT-compiled where the
  /// cache cannot serve. Compiling runs pass managers on the module's
  /// context, which load dialects and install diagnostic handlers there:
  /// calls on one context must not overlap (the C++ API serialises them on
  /// its ens::Context); calls on different contexts may.
  static llvm::Expected<std::unique_ptr<CpuExecutable>>
  compile(ModuleOp module, StringRef entry,
          const CpuOptions &options = CpuOptions());
  ~CpuExecutable();

  /// Runs the function on `args`, which must match its signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

  /// Runs the function in place on caller-owned memory: reads `args` and
  /// writes `results`, without copies. Types must match the signature.
  llvm::Error run(ArrayRef<BufferRef> args, ArrayRef<BufferRef> results);

  /// The compiled function's signature.
  FunctionType getType() const { return type; }

  /// The threads the compiled code runs on: as asked for, or 1 without an
  /// OpenMP runtime.
  unsigned getNumThreads() const { return threads; }

private:
  CpuExecutable(std::unique_ptr<ExecutionEngine> engine,
                std::unique_ptr<::ens::runtime::Runner> runner,
                FunctionType type, std::string name, unsigned threads);

  /// The code: JIT-compiled in the engine, or a shared object loaded from
  /// the cache by the runner; exactly one of them is set.
  std::unique_ptr<ExecutionEngine> engine;
  std::unique_ptr<::ens::runtime::Runner> runner;
  FunctionType type;
  std::string name;
  unsigned threads;
};

namespace cpu {

/// Compiles the function `entry` of `module`, which is left unchanged, for
/// the host CPU as CpuExecutable::compile does (the same lowering, target
/// machine and optimization), and returns the bytes of a shared object for
/// the host: the content of a cpu artifact's section::kCpuObject, run by
/// ::ens::runtime::createCpuRunner. The host's C++ compiler driver
/// ($ENS_HOST_CXX, else c++) links it. The module's context must have the
/// CPU backend's dialects registered. The code uses every feature of this
/// host's CPU (AVX-512 where it has it), so it runs only on CPUs that have
/// them all.
///
/// The object exports two functions and a string, and nothing else:
///
///   void ens_cpu_init(void *(*allocate)(uint64_t), void (*free)(void *));
///   void ens_cpu_entry(void **descriptors);
///   const char ens_cpu_signature[];
///
/// ens_cpu_signature holds the types the code was compiled for, as
/// ens::runtime::getSignatureString writes them; the runtime refuses to
/// call code whose signature differs from the one it was given.
/// ens_cpu_init must be called once, before any other call, with the
/// functions through which the code allocates and frees its temporary
/// buffers, aligned at least as malloc aligns (the runtime passes its
/// buffer cache, ens/Runtime/BufferCache.h). ens_cpu_entry runs the
/// function: descriptors[i] points at the memref descriptor of argument i,
/// then of each result after the arguments, each {void *allocated,
/// *aligned; int64_t offset, sizes[rank], strides[rank];} over dense
/// row-major caller memory. The code reads the arguments and writes every
/// result into the caller's memory; it returns nothing and keeps nothing
/// allocated. Calls must not overlap.
///
/// The threads are chosen here, as for the JIT. Code for more than one
/// calls LLVM's OpenMP runtime: the object then needs libomp.so.5 (a
/// dependency of the artifact, not of the runtime), which it looks for
/// where this process found it, then where the dynamic loader looks. Code
/// for one thread (options.threads = 1, a program too small to gain from
/// threads, or no OpenMP runtime here) needs no library at all beyond the
/// C library's math functions.
llvm::Expected<std::string>
compileCpuObject(ModuleOp module, StringRef entry,
                 const CpuOptions &options = CpuOptions());

} // namespace cpu

} // namespace mlir::ens

#endif // ENS_BACKEND_CPUBACKEND_H
